//! Verifying one token against the key set, with every refusal typed ([`Rejection`]): the one verification
//! every API uses, each with its own options (leeway, audience, required claims).

use super::Rejection;
use base64::Engine;
use jwks::{KeySet, VerifyOptions};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Verifies `token` and decodes its claims; a token larger than `MAX_CREDENTIAL_BYTES` is refused unread.
pub fn verify<C: DeserializeOwned>(keys: &KeySet, token: &str, options: &VerifyOptions) -> Result<C, Rejection> {
    if token.len() > super::MAX_CREDENTIAL_BYTES {
        return Err(Rejection::TooLarge);
    }
    let parts = token.split('.').count();
    if parts != 3 {
        return Err(Rejection::PartCount(parts));
    }
    keys.verify(token, options).map_err(|e| Rejection::from_key_set(&e, token))
}

/// Whether the token's header, decoded without trusting it, says `alg: none`.
pub(super) fn is_unsecured(token: &str) -> bool {
    untrusted_part(token, 0)
        .is_some_and(|h| h.get("alg").and_then(Value::as_str).is_some_and(|a| a.eq_ignore_ascii_case("none")))
}

/// A part of a token (0 the header, 1 the payload) decoded but not verified: for choosing what to say about a
/// token already refused, never for deciding anything.
pub fn untrusted_part(token: &str, index: usize) -> Option<Value> {
    let part = token.split('.').nth(index)?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(part.trim_end_matches('=')).ok()?;
    serde_json::from_slice(&bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use jwks::{KeyStatus, SigningKey};
    use serde_json::json;

    fn b64(s: &str) -> String {
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s)
    }

    #[test]
    fn every_refusal_is_typed() {
        let keys = KeySet::new(vec![SigningKey::generate_es256(KeyStatus::Current).unwrap()]);
        let options = VerifyOptions::default();
        let now = chrono::Utc::now().timestamp();
        let refuse = |t: &str| verify::<Value>(&keys, t, &options).unwrap_err();
        assert_eq!(refuse("abc"), Rejection::PartCount(1));
        assert_eq!(refuse("not.a.jwt"), Rejection::Malformed);
        assert_eq!(refuse(&format!("{}.{}.", b64(r#"{"alg":"none"}"#), b64("{}"))), Rejection::Unsecured);
        let stranger = KeySet::new(vec![SigningKey::generate_es256(KeyStatus::Current).unwrap()]);
        assert_eq!(refuse(&stranger.sign(&json!({"exp": now + 60})).unwrap()), Rejection::UnknownKey);
        assert_eq!(refuse(&keys.sign(&json!({"exp": now - 120})).unwrap()), Rejection::Expired);
        let early = keys.sign(&json!({"exp": now + 600, "nbf": now + 300})).unwrap();
        assert_eq!(refuse(&early), Rejection::NotYetValid);
        assert_eq!(refuse(&keys.sign(&json!({})).unwrap()), Rejection::InvalidClaims("missing exp".into()));
        let valid = keys.sign(&json!({"exp": now + 60})).unwrap();
        let mut parts: Vec<&str> = valid.split('.').collect();
        let other = b64(r#"{"exp":1}"#);
        parts[1] = &other;
        assert_eq!(refuse(&parts.join(".")), Rejection::BadSignature);
        let secret = jsonwebtoken::EncodingKey::from_secret(b"not this gateway's");
        let hs = jsonwebtoken::encode(&jsonwebtoken::Header::default(), &json!({"exp": now + 60}), &secret).unwrap();
        assert_eq!(refuse(&hs), Rejection::WrongAlgorithm("HS256".into()));
        let audience = VerifyOptions { audience: Some(vec!["a".into()]), ..VerifyOptions::default() };
        let to_b = keys.sign(&json!({"exp": now + 60, "aud": "b"})).unwrap();
        assert_eq!(verify::<Value>(&keys, &to_b, &audience).unwrap_err(), Rejection::WrongAudience);
    }
}
