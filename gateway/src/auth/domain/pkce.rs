//! PKCE (RFC 7636) as GoTrue checks it: challenge shape, method names (`s256`, `plain`, case-insensitive), and the
//! verifier check.

use crate::auth::error::{AuthError, ErrorCode};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use sha2::{Digest, Sha256};

/// A validated code challenge and its method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    pub challenge: String,
    /// `s256` or `plain`.
    pub method: &'static str,
}

/// `None` when neither is given; both or an error otherwise.
pub fn parse(challenge: Option<&str>, method: Option<&str>) -> Result<Option<Challenge>, AuthError> {
    let challenge = challenge.filter(|c| !c.is_empty());
    let method = method.filter(|m| !m.is_empty());
    match (challenge, method) {
        (None, None) => Ok(None),
        (Some(c), Some(m)) => {
            let method = match m.to_ascii_lowercase().as_str() {
                "s256" => "s256",
                "plain" => "plain",
                _ => return Err(AuthError::validation(format!("code challenge method not supported: {m}"))),
            };
            let shape = (43..=128).contains(&c.len())
                && c.chars().all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '.' | '_' | '~' | '-'));
            if !shape {
                return Err(AuthError::validation("code challenge has to be between 43 and 128 characters"));
            }
            Ok(Some(Challenge { challenge: c.to_string(), method }))
        }
        _ => Err(AuthError::validation("PKCE flow requires code_challenge_method and code_challenge")),
    }
}

/// Checks a verifier against the stored challenge.
pub fn verify(verifier: &str, challenge: &str, method: &str) -> Result<(), AuthError> {
    let computed = match method {
        "s256" => URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())),
        _ => verifier.to_string(),
    };
    if computed == challenge {
        Ok(())
    } else {
        Err(ErrorCode::BadCodeVerifier.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_verifies_s256_and_plain() {
        let verifier = "a".repeat(50);
        let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
        let c = parse(Some(&challenge), Some("S256")).unwrap().unwrap();
        assert_eq!(c.method, "s256");
        assert!(verify(&verifier, &c.challenge, c.method).is_ok());
        assert_eq!(verify("other", &c.challenge, c.method).unwrap_err().code.as_str(), "bad_code_verifier");
        assert!(verify(&verifier, &verifier, "plain").is_ok());
        assert!(parse(None, None).unwrap().is_none());
        assert!(parse(Some(&challenge), None).is_err());
        assert!(parse(Some("short"), Some("s256")).is_err());
        assert!(parse(Some(&challenge), Some("md5")).is_err());
    }
}
