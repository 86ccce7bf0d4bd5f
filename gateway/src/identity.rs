//! Who is asking: the bearer token (or the `apikey` header when there is none) verified against the key set,
//! mapped to a database role and the claims SQL sees. The gateway proves identity; access is decided in SQL.

use crate::config::Config;
use http::HeaderMap;
use jwks::{KeySet, VerifyOptions};
use serde_json::{Map, Value};

/// A verified caller.
#[derive(Debug, Clone, PartialEq)]
pub struct Identity {
    /// The database role to switch to.
    pub role: String,
    /// The token's claims with `role` set to the chosen role (`{"role":"anon"}` without a token).
    pub claims: Map<String, Value>,
    /// Whether a token was presented.
    pub has_token: bool,
}

impl Identity {
    pub fn claims_json(&self) -> String {
        Value::Object(self.claims.clone()).to_string()
    }

    pub fn is_anonymous_role(&self, anon_role: Option<&str>) -> bool {
        Some(self.role.as_str()) == anon_role
    }
}

/// Why a caller could not be identified. Each surface maps these to its own wire format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdentityError {
    /// `apikey` is required (strict mode) but absent or unknown.
    MissingApiKey,
    /// The token is not a well-formed JWT.
    Malformed(String),
    /// The token does not verify (signature, algorithm, kid, claims, time).
    Invalid(String),
    /// The token has expired.
    Expired,
    /// No token and no anonymous role configured.
    NoAnonRole,
    /// The role claim names a role the gateway never switches to.
    RoleNotAllowed(String),
}

/// Extracts the bearer token: `Authorization: Bearer …` (scheme case-insensitive), else an `apikey` that is a JWT.
pub fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    if let Some(v) = headers.get(http::header::AUTHORIZATION).and_then(|v| v.to_str().ok()) {
        let v = v.trim();
        if v.len() > 7 && v[..7].eq_ignore_ascii_case("bearer ") {
            return Some(v[7..].trim());
        }
    }
    headers.get("apikey").and_then(|v| v.to_str().ok()).map(str::trim).filter(|k| k.matches('.').count() == 2)
}

/// Verifies the caller. `require_apikey` demands an `apikey` header that verifies as a token of this key set.
pub fn identify(headers: &HeaderMap, keys: &KeySet, config: &Config) -> Result<Identity, IdentityError> {
    if config.require_apikey {
        let ok = headers
            .get("apikey")
            .and_then(|v| v.to_str().ok())
            .and_then(|k| keys.verify::<Value>(k, &verify_options(config)).ok())
            .is_some_and(|c| c.as_object().is_some_and(|m| refuse_other_purposes(m).is_ok()));
        if !ok {
            return Err(IdentityError::MissingApiKey);
        }
    }
    let Some(token) = bearer_token(headers) else {
        let role = config.anon_role.clone().ok_or(IdentityError::NoAnonRole)?;
        let mut claims = Map::new();
        claims.insert("role".into(), Value::String(role.clone()));
        return Ok(Identity { role, claims, has_token: false });
    };
    if token.split('.').count() != 3 {
        return Err(IdentityError::Malformed(format!("Expected 3 parts in JWT; got {}", token.split('.').count())));
    }
    let claims: Value = keys.verify(token, &verify_options(config)).map_err(|e| match e.kind() {
        jwks::ErrorKind::Expired => IdentityError::Expired,
        jwks::ErrorKind::Malformed => IdentityError::Malformed(e.to_string()),
        _ => IdentityError::Invalid(e.to_string()),
    })?;
    let Value::Object(mut claims) = claims else {
        return Err(IdentityError::Invalid("claims are not a JSON object".into()));
    };
    refuse_other_purposes(&claims)?;
    // jsonwebtoken checks `exp` and `nbf`; a token issued in the future (beyond the leeway) is refused too.
    match claims.get("iat") {
        None => {}
        Some(Value::Number(iat)) if iat.as_f64().is_some_and(|t| t <= (chrono::Utc::now().timestamp() + 30) as f64) => {
        }
        Some(Value::Number(_)) => {
            return Err(IdentityError::Invalid("token is not valid yet: issued in the future".into()))
        }
        Some(_) => return Err(IdentityError::Invalid("iat claim is not a number".into())),
    }
    let role = match claims.get("role") {
        Some(Value::String(r)) => r.clone(),
        None => config.anon_role.clone().ok_or(IdentityError::NoAnonRole)?,
        Some(_) => return Err(IdentityError::Invalid("role claim is not a string".into())),
    };
    if !config.allowed_roles.iter().any(|r| r == &role) {
        return Err(IdentityError::RoleNotAllowed(role));
    }
    claims.insert("role".into(), Value::String(role.clone()));
    Ok(Identity { role, claims, has_token: true })
}

/// The `aud` of tokens minted for a signed Storage URL; such a token is never a bearer token.
pub const SIGNED_URL_AUDIENCE: &str = "storage.signed-url";

/// A token minted for one purpose is refused for every other (S8): a signed URL's token (its `url`/`scope` claims,
/// or its audience) grants that one object, never API access as the anonymous role.
fn refuse_other_purposes(claims: &Map<String, Value>) -> Result<(), IdentityError> {
    let signed_url_aud = match claims.get("aud") {
        Some(Value::String(a)) => a == SIGNED_URL_AUDIENCE,
        Some(Value::Array(list)) => list.iter().any(|a| a.as_str() == Some(SIGNED_URL_AUDIENCE)),
        _ => false,
    };
    if signed_url_aud || claims.contains_key("url") || claims.contains_key("scope") {
        return Err(IdentityError::Invalid("the token was issued for a signed URL, not for API access".into()));
    }
    Ok(())
}

fn verify_options(config: &Config) -> VerifyOptions {
    VerifyOptions {
        leeway_secs: 30,
        audience: config.jwt_aud.clone().map(|a| vec![a]),
        required_claims: vec!["exp".into()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Vars;
    use jwks::{KeyStatus, SigningKey};
    use serde_json::json;

    fn setup() -> (KeySet, Config) {
        let keys = KeySet::new(vec![SigningKey::generate_es256(KeyStatus::Current).unwrap()]);
        let vars = Vars([("DATABASE_URL".to_string(), "postgres://x@localhost/db".to_string())].into());
        (keys, Config::from_vars(vars).unwrap())
    }

    fn bearer(token: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(http::header::AUTHORIZATION, format!("Bearer {token}").parse().unwrap());
        h
    }

    #[test]
    fn no_token_is_the_anon_role() {
        let (keys, config) = setup();
        let id = identify(&HeaderMap::new(), &keys, &config).unwrap();
        assert_eq!(id.role, "anon");
        assert_eq!(id.claims_json(), r#"{"role":"anon"}"#);
    }

    #[test]
    fn refuses_future_iat_internal_roles_and_non_string_roles() {
        let (keys, config) = setup();
        let now = chrono::Utc::now().timestamp();
        let future = keys.sign(&json!({"role": "authenticated", "exp": now + 600, "iat": now + 300})).unwrap();
        assert!(matches!(identify(&bearer(&future), &keys, &config), Err(IdentityError::Invalid(_))));
        for role in ["authenticator", "supabase_auth_admin", "postgres"] {
            let t = keys.sign(&json!({"role": role, "exp": now + 600, "iat": now})).unwrap();
            assert_eq!(identify(&bearer(&t), &keys, &config), Err(IdentityError::RoleNotAllowed(role.into())));
        }
        let t = keys.sign(&json!({"role": ["anon"], "exp": now + 600})).unwrap();
        assert!(matches!(identify(&bearer(&t), &keys, &config), Err(IdentityError::Invalid(_))));
        let ok = keys.sign(&json!({"role": "authenticated", "sub": "u1", "exp": now + 600, "iat": now})).unwrap();
        assert_eq!(identify(&bearer(&ok), &keys, &config).unwrap().role, "authenticated");
    }

    #[test]
    fn refuses_tokens_minted_for_a_signed_url() {
        let (keys, config) = setup();
        let exp = chrono::Utc::now().timestamp() + 600;
        for claims in [
            json!({"url": "b/o", "scope": "download", "exp": exp}),
            json!({"url": "b/o", "exp": exp}),
            json!({"aud": SIGNED_URL_AUDIENCE, "exp": exp}),
            json!({"role": "anon", "aud": [SIGNED_URL_AUDIENCE], "exp": exp}),
        ] {
            let t = keys.sign(&claims).unwrap();
            assert!(matches!(identify(&bearer(&t), &keys, &config), Err(IdentityError::Invalid(_))), "{claims}");
        }
    }
}
