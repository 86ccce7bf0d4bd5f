//! Token formats: refresh tokens (GoTrue's 12-character legacy form), one-time codes and their hashes
//! (`hex(sha224(email + otp))`, what e-mail links carry), and PKCE-free link tokens.

use rand::Rng;
use sha2::{Digest, Sha224};

const BASE32: &[u8] = b"abcdefghijklmnopqrstuvwxyz234567";

/// A fresh refresh token: 12 random characters of lower-case base32 (GoTrue `SecureAlphanumeric(12)`).
pub fn new_refresh_token() -> String {
    let mut rng = rand::rng();
    (0..12).map(|_| BASE32[rng.random_range(0..32)] as char).collect()
}

/// GoTrue's shape check before any lookup: exactly `^[a-z0-9]{12}$` for the legacy format.
pub fn refresh_token_shape_ok(token: &str) -> bool {
    token.len() == 12 && token.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// A numeric one-time code of `digits` digits.
pub fn new_otp(digits: usize) -> String {
    let mut rng = rand::rng();
    (0..digits).map(|_| char::from(b'0' + rng.random_range(0..10u8))).collect()
}

/// A random password of 64 characters (letters and digits) for accounts created without one, as GoTrue's
/// `password.Generate(64, 10, …)`: nobody knows it, so it cannot sign in.
pub fn new_random_password() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::rng();
    (0..64).map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char).collect()
}

/// `lower-hex(SHA-224(email + otp))`: the stored token and the `token` of e-mail links.
pub fn token_hash(email: &str, otp: &str) -> String {
    let digest = Sha224::digest(format!("{email}{otp}").as_bytes());
    crate::core::hex::lower(&digest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refresh_tokens_have_the_legacy_shape() {
        let t = new_refresh_token();
        assert!(refresh_token_shape_ok(&t), "{t}");
        assert_ne!(t, new_refresh_token());
        assert!(!refresh_token_shape_ok("short"));
        assert!(!refresh_token_shape_ok("ABCDEFGHIJKL"));
        assert!(!refresh_token_shape_ok("abcdefghijk!"));
    }

    #[test]
    fn otp_and_hash_formats() {
        let otp = new_otp(6);
        assert_eq!(otp.len(), 6);
        assert!(otp.bytes().all(|b| b.is_ascii_digit()));
        let h = token_hash("ann@example.com", "123456");
        assert_eq!(h.len(), 56);
        assert_eq!(h, token_hash("ann@example.com", "123456"));
        assert_ne!(h, token_hash("bob@example.com", "123456"));
    }
}
