//! Comparing secrets (API key digests, cached credentials) in time that depends only on their lengths.

/// Whether `a` and `b` hold the same bytes, looking at every byte whatever differs first.
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::same_bytes;

    #[test]
    fn equal_only_when_every_byte_and_the_length_agree() {
        assert!(same_bytes(b"", b""));
        assert!(same_bytes(b"abc", b"abc"));
        assert!(!same_bytes(b"abc", b"abd"));
        assert!(!same_bytes(b"abc", b"xbc"));
        assert!(!same_bytes(b"abc", b"abcd"));
        assert!(!same_bytes(b"abc", b""));
    }
}
