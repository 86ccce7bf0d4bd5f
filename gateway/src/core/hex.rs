//! Lower-case hexadecimal text of bytes: digests (token hashes, object keys, ETags, migration checksums) and a raw
//! `bytea` body bound as text.

const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// `bytes` as lower-case hex, two digits per byte.
pub fn lower(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 0x0f)] as char);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn two_lower_case_digits_per_byte() {
        assert_eq!(super::lower(&[0x00, 0xff, 0x10, 0x61]), "00ff1061");
        assert_eq!(super::lower(&[]), "");
    }
}
