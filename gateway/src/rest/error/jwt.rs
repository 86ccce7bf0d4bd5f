//! PostgREST's words for a refused token (PGRST301 decoding and key errors, PGRST302 anonymous access, PGRST303
//! claim errors), one line per [`Rejection`]. A role the gateway never switches to is answered as PostgreSQL
//! reports `SET ROLE` (`rest::handler::identity_error`).

use crate::core::identity::token::untrusted_part;
use crate::core::identity::Rejection;
use serde_json::Value;

/// A rejected token as PostgREST reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JwtRejection {
    pub code: &'static str,
    pub message: String,
    pub details: Option<String>,
    /// Whether a token was refused (answered with `WWW-Authenticate: Bearer error="invalid_token"`), rather
    /// than a request without one.
    pub invalid_token: bool,
}

fn rejection(code: &'static str, message: &str) -> JwtRejection {
    JwtRejection { code, message: message.to_string(), details: None, invalid_token: true }
}

/// A request refused for what it lacks (an API key, a token), not for a token it sent.
fn refusal(code: &'static str, message: &str) -> JwtRejection {
    JwtRejection { invalid_token: false, ..rejection(code, message) }
}

/// PostgREST's code and message for a refusal; `token` is the refused token, if one was sent.
pub fn describe(refused: &Rejection, token: Option<&str>) -> JwtRejection {
    match refused {
        Rejection::ApiKeyMissing => refusal("PGRST301", "No API key found in request"),
        Rejection::ApiKeyInvalid => refusal("PGRST301", "Invalid API key"),
        Rejection::TooLarge => rejection("PGRST301", &refused.to_string()),
        Rejection::Revoked => rejection("PGRST303", "JWT session ended or its user no longer exists"),
        Rejection::AnonymousDisabled => refusal("PGRST302", "Anonymous access is disabled"),
        Rejection::RoleNotAllowed(r) => rejection("42501", &format!("permission denied to set role \"{r}\"")),
        Rejection::PartCount(n) => rejection("PGRST301", &format!("Expected 3 parts in JWT; got {n}")),
        Rejection::Malformed | Rejection::BadSignature => rejection("PGRST301", "JWT cryptographic operation failed"),
        Rejection::Unsecured => JwtRejection {
            details: Some("JWT is unsecured but expected 'alg' was not 'none'".into()),
            ..rejection("PGRST301", "Wrong or unsupported encoding algorithm")
        },
        Rejection::WrongAlgorithm(_) => rejection("PGRST301", "Wrong or unsupported encoding algorithm"),
        Rejection::UnknownKey => rejection("PGRST301", "No suitable key or wrong key type"),
        Rejection::Expired => rejection("PGRST303", "JWT expired"),
        Rejection::NotYetValid => rejection("PGRST303", "JWT not yet valid"),
        Rejection::IssuedInFuture => rejection("PGRST303", "JWT issued at future"),
        Rejection::WrongAudience => rejection("PGRST303", "JWT not in audience"),
        Rejection::InvalidClaims(_)
        | Rejection::ClaimsNotObject
        | Rejection::IatNotNumber
        | Rejection::RoleNotString
        | Rejection::PurposeRefused => invalid_claims(token),
    }
}

/// PostgREST names the registered claim whose type is wrong, where the key set reports only that a claim is
/// missing or unreadable: the refused token's payload is read (untrusted) to name it.
fn invalid_claims(token: Option<&str>) -> JwtRejection {
    let claims = token.and_then(|t| untrusted_part(t, 1)).unwrap_or(Value::Null);
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

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;

    fn token(payload: Value) -> String {
        let e = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        format!("{}.{}.sig", e.encode(br#"{"alg":"ES256"}"#), e.encode(payload.to_string()))
    }

    #[test]
    fn messages_match_postgrest() {
        let none = describe(&Rejection::Unsecured, None);
        assert_eq!(none.message, "Wrong or unsupported encoding algorithm");
        assert!(none.details.is_some());
        let t = token(serde_json::json!({"exp": "123"}));
        let e = describe(&Rejection::InvalidClaims("missing exp".into()), Some(&t));
        assert_eq!((e.code, e.message.as_str()), ("PGRST303", "The JWT 'exp' claim must be a number"));
        let t = token(serde_json::json!({"aud": 5}));
        let e = describe(&Rejection::InvalidClaims("missing exp".into()), Some(&t));
        assert_eq!(e.message, "The JWT 'aud' claim must be a string or an array of strings");
        assert_eq!(describe(&Rejection::IssuedInFuture, None).message, "JWT issued at future");
        assert_eq!(describe(&Rejection::NotYetValid, None).message, "JWT not yet valid");
        assert_eq!(describe(&Rejection::Expired, None).message, "JWT expired");
        assert_eq!(describe(&Rejection::AnonymousDisabled, None).code, "PGRST302");
    }
}
