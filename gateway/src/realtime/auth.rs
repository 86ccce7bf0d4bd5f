//! Who is on a socket or channel: a JWT verified against the gateway's key set with Realtime's rules (`role` and
//! `exp` required, no leeway) and Realtime's error texts, or an `sb_` API key, which — as the gateway treats
//! non-JWT API keys everywhere — stands for the anonymous role.

use crate::core::config::Config;
use crate::core::identity::{token, Rejection};
use jwks::{KeySet, VerifyOptions};
use serde_json::{Map, Value};

/// A verified caller of Realtime.
#[derive(Debug, Clone, PartialEq)]
pub struct Credentials {
    pub role: String,
    pub claims: Map<String, Value>,
    /// `claims` as JSON text (what `request.jwt.claims` gets).
    pub claims_json: String,
    /// Expiry in Unix seconds; `None` for an API key.
    pub exp: Option<i64>,
    /// The token exactly as presented (compared on `access_token` refreshes).
    pub token: String,
}

impl Credentials {
    pub fn sub(&self) -> Option<&str> {
        self.claims.get("sub").and_then(Value::as_str)
    }
}

/// Why a token was refused, each with Realtime's code and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenError {
    Missing,
    Expired { seconds_ago: i64 },
    RoleAndExpRequired,
    Malformed,
    Signature,
    Signer,
    RoleNotAllowed(String),
}

impl TokenError {
    pub fn message(&self) -> String {
        match self {
            TokenError::Missing => "API key is missing".into(),
            TokenError::Expired { seconds_ago } => format!("Token has expired {seconds_ago} seconds ago"),
            TokenError::RoleAndExpRequired => "Fields `role` and `exp` are required in JWT".into(),
            TokenError::Malformed => "The token provided is not a valid JWT".into(),
            TokenError::Signature => "Failed to validate JWT signature".into(),
            TokenError::Signer => "Failed to generate JWT signer, check your JWT secret or JWKS configuration".into(),
            TokenError::RoleNotAllowed(role) => format!("The role {role} is not allowed"),
        }
    }

    /// The join error code that prefixes the message.
    pub fn code(&self) -> &'static str {
        match self {
            TokenError::Malformed => "MalformedJWT",
            TokenError::Signature => "JwtSignatureError",
            TokenError::Signer => "JwtSignerError",
            _ => "InvalidJWTToken",
        }
    }

    /// `"<Code>: <message>"`, the reason of a join error reply.
    pub fn join_reason(&self) -> String {
        format!("{}: {}", self.code(), self.message())
    }
}

impl TokenError {
    /// Realtime's reading of a refused token.
    fn from_rejection(refused: &Rejection, token: &str) -> Self {
        match refused {
            Rejection::Expired => TokenError::Expired { seconds_ago: seconds_since_exp(token) },
            Rejection::PartCount(_) | Rejection::Malformed | Rejection::Unsecured | Rejection::InvalidClaims(_) => {
                TokenError::Malformed
            }
            Rejection::UnknownKey | Rejection::WrongAlgorithm(_) => TokenError::Signer,
            _ => TokenError::Signature,
        }
    }
}

/// Verifies a connect or channel token.
pub fn verify(token: &str, keys: &KeySet, config: &Config) -> Result<Credentials, TokenError> {
    if token.starts_with("sb_") {
        return Ok(api_key_caller(token, config));
    }
    let options =
        VerifyOptions { leeway_secs: 0, audience: config.jwt_aud.clone().map(|a| vec![a]), required_claims: vec![] };
    let claims: Value = token::verify(keys, token, &options).map_err(|e| TokenError::from_rejection(&e, token))?;
    let Value::Object(claims) = claims else { return Err(TokenError::Malformed) };
    let (Some(Value::String(role)), Some(exp)) = (claims.get("role"), claims.get("exp").and_then(Value::as_f64)) else {
        return Err(TokenError::RoleAndExpRequired);
    };
    let role = role.clone();
    let exp = exp as i64;
    if exp - chrono::Utc::now().timestamp() <= 0 {
        return Err(TokenError::Expired { seconds_ago: 0 });
    }
    if !config.allowed_roles.iter().any(|r| r == &role) {
        return Err(TokenError::RoleNotAllowed(role));
    }
    let claims_json = Value::Object(claims.clone()).to_string();
    Ok(Credentials { role, claims, claims_json, exp: Some(exp), token: token.to_string() })
}

/// An `sb_publishable_…`/`sb_secret_…` key: the anonymous role, never expiring.
fn api_key_caller(token: &str, config: &Config) -> Credentials {
    let role = config.anon_role.clone().unwrap_or_else(|| "anon".into());
    let mut claims = Map::new();
    claims.insert("role".into(), Value::String(role.clone()));
    let claims_json = Value::Object(claims.clone()).to_string();
    Credentials { role, claims, claims_json, exp: None, token: token.to_string() }
}

/// How long ago an (already refused) token expired, read from its unverified payload.
fn seconds_since_exp(token: &str) -> i64 {
    let exp = token::untrusted_part(token, 1).and_then(|v| v.get("exp").and_then(Value::as_f64));
    exp.map(|e| (chrono::Utc::now().timestamp() - e as i64).max(0)).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::testing::{config, key_set};
    use jwks::{KeyStatus, SigningKey};
    use serde_json::json;

    fn setup() -> (KeySet, Config) {
        (key_set(), config())
    }

    #[test]
    fn realtime_rules_and_messages() {
        let (keys, config) = setup();
        let now = chrono::Utc::now().timestamp();
        let ok = keys.sign(&json!({"role": "authenticated", "sub": "u1", "exp": now + 60})).unwrap();
        let caller = verify(&ok, &keys, &config).unwrap();
        assert_eq!((caller.role.as_str(), caller.sub(), caller.exp), ("authenticated", Some("u1"), Some(now + 60)));
        let expired = keys.sign(&json!({"role": "anon", "exp": now - 5})).unwrap();
        let e = verify(&expired, &keys, &config).unwrap_err();
        assert!(matches!(e, TokenError::Expired { seconds_ago } if (5..=7).contains(&seconds_ago)));
        assert!(e.join_reason().starts_with("InvalidJWTToken: Token has expired "));
        let no_role = keys.sign(&json!({"exp": now + 60})).unwrap();
        assert_eq!(verify(&no_role, &keys, &config), Err(TokenError::RoleAndExpRequired));
        let no_exp = keys.sign(&json!({"role": "anon"})).unwrap();
        assert_eq!(verify(&no_exp, &keys, &config), Err(TokenError::RoleAndExpRequired));
        assert_eq!(
            verify("abc", &keys, &config).unwrap_err().join_reason(),
            "MalformedJWT: The token provided is not a valid JWT"
        );
        let other = KeySet::new(vec![SigningKey::generate_es256(KeyStatus::Current).unwrap()]);
        let foreign = other.sign(&json!({"role": "anon", "exp": now + 60})).unwrap();
        assert_eq!(verify(&foreign, &keys, &config), Err(TokenError::Signer));
        let admin = keys.sign(&json!({"role": "postgres", "exp": now + 60})).unwrap();
        assert_eq!(verify(&admin, &keys, &config), Err(TokenError::RoleNotAllowed("postgres".into())));
    }

    #[test]
    fn api_keys_are_the_anonymous_role() {
        let (keys, config) = setup();
        for key in ["sb_publishable_abc", "sb_secret_abc"] {
            let caller = verify(key, &keys, &config).unwrap();
            assert_eq!(
                (caller.role.as_str(), caller.exp, caller.claims_json.as_str()),
                ("anon", None, r#"{"role":"anon"}"#)
            );
        }
    }
}
