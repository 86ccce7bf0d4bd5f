//! PostgREST's texts for rejected tokens (PGRST301 decoding/key errors, PGRST303 claim errors). The verifier has
//! already said no; this only picks the message, reading the token's payload without trusting it where the
//! verifier's reason is coarser than PostgREST's (e.g. `nbf` vs `iat` in the future, a string `exp`).

use crate::identity::IdentityError;
use base64::Engine;
use serde_json::Value;

/// A rejected token as PostgREST reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JwtRejection {
    pub code: &'static str,
    pub message: String,
    pub details: Option<String>,
}

fn rejection(code: &'static str, message: &str) -> JwtRejection {
    JwtRejection { code, message: message.to_string(), details: None }
}

/// A part (0 header, 1 payload), decoded but not trusted (message selection only).
fn untrusted_part(token: &str, index: usize) -> Option<Value> {
    let part = token.split('.').nth(index)?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(part.trim_end_matches('=')).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Maps the verifier's reason to PostgREST's code and message.
pub fn describe(error: &IdentityError, token: Option<&str>) -> JwtRejection {
    let payload = token.and_then(|t| untrusted_part(t, 1));
    let alg_none = token
        .and_then(|t| untrusted_part(t, 0))
        .is_some_and(|h| h.get("alg").and_then(Value::as_str).is_some_and(|a| a.eq_ignore_ascii_case("none")));
    let now = chrono::Utc::now().timestamp();
    match error {
        IdentityError::Expired => rejection("PGRST303", "JWT expired"),
        IdentityError::Malformed(m) if m.starts_with("Expected 3 parts") => rejection("PGRST301", m),
        IdentityError::Malformed(_) | IdentityError::Invalid(_) if alg_none => JwtRejection {
            code: "PGRST301",
            message: "Wrong or unsupported encoding algorithm".into(),
            details: Some("JWT is unsecured but expected 'alg' was not 'none'".into()),
        },
        IdentityError::Malformed(_) => rejection("PGRST301", "JWT cryptographic operation failed"),
        IdentityError::Invalid(m) if m == "algorithm none is not allowed" => JwtRejection {
            code: "PGRST301",
            message: "Wrong or unsupported encoding algorithm".into(),
            details: Some("JWT is unsecured but expected 'alg' was not 'none'".into()),
        },
        IdentityError::Invalid(m) if m.starts_with("algorithm ") => {
            rejection("PGRST301", "Wrong or unsupported encoding algorithm")
        }
        IdentityError::Invalid(m) if m.starts_with("no key matches") => {
            rejection("PGRST301", "No suitable key or wrong key type")
        }
        IdentityError::Invalid(m) if m.starts_with("signature") || m.starts_with("key error") => {
            rejection("PGRST301", "JWT cryptographic operation failed")
        }
        IdentityError::Invalid(m) if m.starts_with("audience") => rejection("PGRST303", "JWT not in audience"),
        // `identify` itself refuses a future `iat` ("JWT issued at future"); the cache refuses future `nbf`/`iat`
        IdentityError::Invalid(m) if m.starts_with("token is not valid yet") || m == "JWT issued at future" => {
            let iat_future =
                payload.as_ref().and_then(|p| p.get("iat")).and_then(Value::as_i64).is_some_and(|iat| iat > now + 30);
            let nbf_future =
                payload.as_ref().and_then(|p| p.get("nbf")).and_then(Value::as_i64).is_some_and(|nbf| nbf > now + 30);
            if iat_future && !nbf_future {
                rejection("PGRST303", "JWT issued at future")
            } else {
                rejection("PGRST303", "JWT not yet valid")
            }
        }
        IdentityError::Invalid(_) => {
            let claims = payload.unwrap_or(Value::Null);
            for claim in ["exp", "nbf", "iat"] {
                if claims.get(claim).is_some_and(|v| !v.is_number()) {
                    return rejection("PGRST303", &format!("The JWT '{claim}' claim must be a number"));
                }
            }
            if claims.get("aud").is_some_and(|v| !v.is_string() && !v.is_array()) {
                return rejection("PGRST303", "The JWT 'aud' claim must be a string or an array of strings");
            }
            rejection("PGRST303", "JWT claims are invalid")
        }
        IdentityError::MissingApiKey => rejection("PGRST301", "No API key found in request"),
        IdentityError::NoAnonRole => rejection("PGRST302", "Anonymous access is disabled"),
        IdentityError::RoleNotAllowed(r) => rejection("42501", &format!("permission denied to set role \"{r}\"")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(payload: Value) -> String {
        let e = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        format!("{}.{}.sig", e.encode(br#"{"alg":"ES256"}"#), e.encode(payload.to_string()))
    }

    #[test]
    fn messages_match_postgrest() {
        let none = describe(&IdentityError::Invalid("algorithm none is not allowed".into()), None);
        assert_eq!(none.message, "Wrong or unsupported encoding algorithm");
        assert!(none.details.is_some());
        let t = token(serde_json::json!({"exp": "123"}));
        let e = describe(&IdentityError::Invalid("invalid claims: bad".into()), Some(&t));
        assert_eq!((e.code, e.message.as_str()), ("PGRST303", "The JWT 'exp' claim must be a number"));
        let future = chrono::Utc::now().timestamp() + 600;
        let t = token(serde_json::json!({"iat": future}));
        let e = describe(&IdentityError::Invalid("token is not valid yet".into()), Some(&t));
        assert_eq!(e.message, "JWT issued at future");
        let t = token(serde_json::json!({"nbf": future}));
        let e = describe(&IdentityError::Invalid("token is not valid yet".into()), Some(&t));
        assert_eq!(e.message, "JWT not yet valid");
        assert_eq!(describe(&IdentityError::Expired, None).message, "JWT expired");
    }
}
