//! Who is on a socket or channel: a JWT verified against the gateway's key set with Realtime's rules (`role` and
//! `exp` required, no leeway) and Realtime's error texts, refused when its session has ended or its user was
//! deleted; or an opaque `sb_` key, checked against the configured keys as on every API (`core::identity::
//! api_key_role`: publishable → the anonymous role, secret → `service_role`, anything else refused). With
//! `GATEWAY_REQUIRE_APIKEY` the socket's connect key and the broadcast API's `apikey` must be keys of this
//! gateway ([`require_api_key`]).

use crate::core::api_keys::is_opaque;
use crate::core::config::Config;
use crate::core::identity::{api_key_role, token, Rejection, MAX_CREDENTIAL_BYTES};
use crate::core::revocation::Revocations;
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
    Expired {
        seconds_ago: i64,
    },
    RoleAndExpRequired,
    Malformed,
    Signature,
    Signer,
    RoleNotAllowed(String),
    /// An opaque key that is not configured, or (with the key required) no key of this gateway.
    ApiKey,
    /// A token larger than the gateway reads.
    TooLarge,
    /// The token's session has ended or its user was deleted.
    Revoked,
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
            TokenError::ApiKey => "Invalid authentication credentials".into(),
            TokenError::TooLarge => format!("The token is larger than {MAX_CREDENTIAL_BYTES} bytes"),
            TokenError::Revoked => "The session of this token has ended or its user no longer exists".into(),
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
            Rejection::ApiKeyMissing => TokenError::Missing,
            Rejection::ApiKeyInvalid => TokenError::ApiKey,
            Rejection::TooLarge => TokenError::TooLarge,
            Rejection::Revoked => TokenError::Revoked,
            _ => TokenError::Signature,
        }
    }
}

/// What a token is checked against: the key set, the configuration (its opaque keys, the allowed roles) and the
/// revocations.
pub struct Checks<'a> {
    pub keys: &'a KeySet,
    pub config: &'a Config,
    pub revocations: &'a Revocations,
}

/// Verifies a connect or channel token.
pub fn verify(token: &str, checks: &Checks<'_>) -> Result<Credentials, TokenError> {
    if token.len() > MAX_CREDENTIAL_BYTES {
        return Err(TokenError::TooLarge);
    }
    if is_opaque(token) {
        let role =
            api_key_role(token, checks.keys, checks.config).map_err(|e| TokenError::from_rejection(&e, token))?;
        return Ok(api_key_caller(token, role));
    }
    let caller = verify_jwt(token, checks.keys, checks.config)?;
    match checks.revocations.refuses(&caller.claims) {
        true => Err(TokenError::Revoked),
        false => Ok(caller),
    }
}

/// With `GATEWAY_REQUIRE_APIKEY`, `key` (the socket's connect key, the broadcast API's `apikey`) must be a key of
/// this gateway, as on every API.
pub fn require_api_key(key: Option<&str>, checks: &Checks<'_>) -> Result<(), TokenError> {
    if !checks.config.require_apikey {
        return Ok(());
    }
    let key = key.unwrap_or("");
    api_key_role(key, checks.keys, checks.config).map(|_| ()).map_err(|e| TokenError::from_rejection(&e, key))
}

/// A JWT with Realtime's rules.
fn verify_jwt(token: &str, keys: &KeySet, config: &Config) -> Result<Credentials, TokenError> {
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

/// A configured opaque key: the role it stands for, never expiring.
fn api_key_caller(token: &str, role: String) -> Credentials {
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
    use crate::core::config::Vars;
    use crate::core::testing::{config, key_set};
    use jwks::{KeyStatus, SigningKey};
    use serde_json::json;

    const SECRET: &str = "sb_secret_0123456789abcdefghijklmnopqrstuv";

    fn with_keys(require: bool) -> Config {
        let mut vars = config().vars.0;
        vars.insert("SUPABASE_PUBLISHABLE_KEY".into(), "sb_publishable_abc".into());
        vars.insert("SUPABASE_SECRET_KEY".into(), SECRET.into());
        vars.insert("GATEWAY_REQUIRE_APIKEY".into(), require.to_string());
        Config::from_vars(Vars(vars)).unwrap()
    }

    #[test]
    fn realtime_rules_and_messages() {
        let (keys, config, revocations) = (key_set(), config(), Revocations::new(60));
        let checks = Checks { keys: &keys, config: &config, revocations: &revocations };
        let verify = |t: &str| verify(t, &checks);
        let now = chrono::Utc::now().timestamp();
        let ok = keys.sign(&json!({"role": "authenticated", "sub": "u1", "exp": now + 60})).unwrap();
        let caller = verify(&ok).unwrap();
        assert_eq!((caller.role.as_str(), caller.sub(), caller.exp), ("authenticated", Some("u1"), Some(now + 60)));
        let expired = keys.sign(&json!({"role": "anon", "exp": now - 5})).unwrap();
        let e = verify(&expired).unwrap_err();
        assert!(matches!(e, TokenError::Expired { seconds_ago } if (5..=7).contains(&seconds_ago)));
        assert!(e.join_reason().starts_with("InvalidJWTToken: Token has expired "));
        let no_role = keys.sign(&json!({"exp": now + 60})).unwrap();
        assert_eq!(verify(&no_role), Err(TokenError::RoleAndExpRequired));
        let no_exp = keys.sign(&json!({"role": "anon"})).unwrap();
        assert_eq!(verify(&no_exp), Err(TokenError::RoleAndExpRequired));
        assert_eq!(verify("abc").unwrap_err().join_reason(), "MalformedJWT: The token provided is not a valid JWT");
        let other = KeySet::new(vec![SigningKey::generate_es256(KeyStatus::Current).unwrap()]);
        let foreign = other.sign(&json!({"role": "anon", "exp": now + 60})).unwrap();
        assert_eq!(verify(&foreign), Err(TokenError::Signer));
        let admin = keys.sign(&json!({"role": "postgres", "exp": now + 60})).unwrap();
        assert_eq!(verify(&admin), Err(TokenError::RoleNotAllowed("postgres".into())));
        assert_eq!(verify(&"x".repeat(MAX_CREDENTIAL_BYTES + 1)), Err(TokenError::TooLarge));
    }

    #[test]
    fn opaque_keys_are_checked_against_the_configured_ones() {
        let (keys, revocations) = (key_set(), Revocations::new(60));
        let unconfigured = config();
        let checks = Checks { keys: &keys, config: &unconfigured, revocations: &revocations };
        for key in ["sb_publishable_abc", "sb_secret_abc", "sb_garbage"] {
            assert_eq!(verify(key, &checks), Err(TokenError::ApiKey), "{key}: none is configured");
        }
        let configured = with_keys(false);
        let checks = Checks { keys: &keys, config: &configured, revocations: &revocations };
        let public = verify("sb_publishable_abc", &checks).unwrap();
        assert_eq!(
            (public.role.as_str(), public.exp, public.claims_json.as_str()),
            ("anon", None, r#"{"role":"anon"}"#)
        );
        assert_eq!(verify(SECRET, &checks).unwrap().role, "service_role");
        assert_eq!(verify("sb_garbage", &checks).unwrap_err().message(), "Invalid authentication credentials");
    }

    #[test]
    fn a_required_api_key_must_be_one_of_the_gateways() {
        let (keys, revocations, config) = (key_set(), Revocations::new(60), with_keys(true));
        let checks = Checks { keys: &keys, config: &config, revocations: &revocations };
        let now = chrono::Utc::now().timestamp();
        let anon = keys.sign(&json!({"role": "anon", "exp": now + 600})).unwrap();
        let user = keys.sign(&json!({"role": "authenticated", "sub": "u1", "exp": now + 600})).unwrap();
        assert_eq!(require_api_key(None, &checks), Err(TokenError::Missing));
        assert_eq!(require_api_key(Some("sb_garbage"), &checks), Err(TokenError::ApiKey));
        assert_eq!(require_api_key(Some(&user), &checks), Err(TokenError::ApiKey), "a user's token is no API key");
        assert!(require_api_key(Some(&anon), &checks).is_ok());
        assert!(require_api_key(Some("sb_publishable_abc"), &checks).is_ok());
        let open = config_without_requirement();
        let checks = Checks { keys: &keys, config: &open, revocations: &revocations };
        assert!(require_api_key(None, &checks).is_ok());
    }

    fn config_without_requirement() -> Config {
        with_keys(false)
    }

    #[test]
    fn a_revoked_session_is_refused() {
        let (keys, config, revocations) = (key_set(), config(), Revocations::new(600));
        let checks = Checks { keys: &keys, config: &config, revocations: &revocations };
        let now = chrono::Utc::now().timestamp();
        let session = uuid::Uuid::new_v4();
        let claims =
            json!({"role": "authenticated", "sub": uuid::Uuid::new_v4(), "session_id": session, "exp": now + 60});
        let token = keys.sign(&claims).unwrap();
        assert!(verify(&token, &checks).is_ok());
        use crate::core::revocation::{Kind, Revoked};
        revocations.add([Revoked { kind: Kind::Session, id: session, at: now }], now);
        assert_eq!(verify(&token, &checks), Err(TokenError::Revoked));
    }
}
