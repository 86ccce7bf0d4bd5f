//! Who is asking: the bearer token (or the `apikey` header when there is none) verified against the key set,
//! mapped to a database role and the claims SQL sees. The gateway proves identity; access is decided in SQL.

pub mod cache;
mod rejection;
pub mod token;

use crate::core::api_keys;
use crate::core::config::Config;
use http::header::AUTHORIZATION;
use http::{HeaderMap, HeaderName};
use jwks::{KeySet, VerifyOptions};
pub use rejection::Rejection;
use serde_json::{Map, Value};
use std::sync::Arc;

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

/// A verified caller with its claims already rendered as the JSON text `request.jwt.claims` gets, shared (`Arc`)
/// by the identity cache's entries and the requests they answer.
#[derive(Debug, PartialEq)]
pub struct Verified {
    pub identity: Identity,
    /// `identity.claims` serialised (what `Identity::claims_json` returns).
    pub claims_json: String,
}

impl Verified {
    pub fn new(identity: Identity) -> Arc<Self> {
        let claims_json = identity.claims_json();
        Arc::new(Verified { identity, claims_json })
    }

    /// A caller without a token (the anonymous role, or a role an API acts as): `role`, and claims that say only
    /// that.
    pub fn tokenless(role: &str) -> Arc<Self> {
        let mut claims = Map::new();
        claims.insert("role".into(), Value::String(role.to_string()));
        Verified::new(Identity { role: role.to_string(), claims, has_token: false })
    }
}

/// The largest `Authorization` or `apikey` value read: 8 KiB, the header line the proxy in front of Supabase's
/// services accepts. Anything larger is refused before it is parsed, hashed or verified; the metadata caps of the
/// auth API keep every token it issues well below it.
pub const MAX_CREDENTIAL_BYTES: usize = 8 * 1024;

/// Refuses a request whose `Authorization` or `apikey` value is larger than [`MAX_CREDENTIAL_BYTES`].
pub fn check_size(headers: &HeaderMap) -> Result<(), Rejection> {
    let oversized = |name: &HeaderName| headers.get_all(name).iter().any(|v| v.len() > MAX_CREDENTIAL_BYTES);
    match oversized(&AUTHORIZATION) || oversized(&APIKEY) {
        true => Err(Rejection::TooLarge),
        false => Ok(()),
    }
}

/// The `apikey` header, named once (looked up on every request: a name given as text is parsed each time).
pub static APIKEY: HeaderName = HeaderName::from_static("apikey");

fn header<'h>(headers: &'h HeaderMap, name: &HeaderName) -> Option<&'h str> {
    headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim).filter(|v| !v.is_empty())
}

/// The `Authorization: Bearer …` value (scheme case-insensitive), whatever it is.
fn authorization_bearer(headers: &HeaderMap) -> Option<&str> {
    let v = header(headers, &AUTHORIZATION)?;
    (v.len() > 7 && v[..7].eq_ignore_ascii_case("bearer ")).then(|| v[7..].trim())
}

/// Extracts the bearer token: `Authorization: Bearer …` (scheme case-insensitive) unless it is an opaque `sb_` key,
/// else an `apikey` that is a JWT.
pub fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    if let Some(t) = authorization_bearer(headers).filter(|t| !api_keys::is_opaque(t)) {
        return Some(t);
    }
    header(headers, &APIKEY).filter(|k| k.matches('.').count() == 2)
}

/// The role an API key of this gateway stands for: a configured opaque key (publishable: the anonymous role;
/// secret: `service_role`), or a JWT of this key set for API access whose role is the anonymous role or
/// `service_role` (the keys `gateway keys` prints). The one definition every API's key check uses.
pub fn api_key_role(key: &str, keys: &KeySet, config: &Config) -> Result<String, Rejection> {
    let key = key.trim();
    if key.is_empty() {
        return Err(Rejection::ApiKeyMissing);
    }
    if key.len() > MAX_CREDENTIAL_BYTES {
        return Err(Rejection::TooLarge);
    }
    let anon = config.anon_role.clone().unwrap_or_else(|| "anon".into());
    if api_keys::is_opaque(key) {
        return match config.api_keys.kind_of(key) {
            Some(api_keys::KeyKind::Publishable) => Ok(anon),
            Some(api_keys::KeyKind::Secret) => Ok(SERVICE_ROLE.into()),
            None => Err(Rejection::ApiKeyInvalid),
        };
    }
    let claims = token::verify::<Map<String, Value>>(keys, key, &VerifyOptions::default())
        .map_err(|_| Rejection::ApiKeyInvalid)?;
    refuse_other_purposes(&claims).map_err(|_| Rejection::ApiKeyInvalid)?;
    match claims.get("role").and_then(Value::as_str) {
        Some(role) if role == anon || role == "anon" || role == SERVICE_ROLE => Ok(role.to_string()),
        _ => Err(Rejection::ApiKeyInvalid),
    }
}

/// The role Supabase's secret keys stand for.
pub const SERVICE_ROLE: &str = "service_role";

/// Every opaque key a request presents (its `apikey`, or `Authorization: Bearer sb_…`) must be a configured one;
/// the role the first of them stands for.
fn opaque_key_role(headers: &HeaderMap, keys: &KeySet, config: &Config) -> Result<Option<String>, Rejection> {
    let presented = [header(headers, &APIKEY), authorization_bearer(headers)];
    let mut role = None;
    for key in presented.into_iter().flatten().filter(|k| api_keys::is_opaque(k)) {
        let r = api_key_role(key, keys, config)?;
        role.get_or_insert(r);
    }
    Ok(role)
}

/// Verifies the caller. `require_apikey` demands an `apikey` header that is an API key of this gateway
/// ([`api_key_role`]); an opaque `sb_` key anywhere must be a configured one. The caller is the bearer token
/// (`Authorization`, unless it is an opaque key), else the opaque key's role, else an `apikey` that is a JWT, else
/// the anonymous role.
pub fn identify(headers: &HeaderMap, keys: &KeySet, config: &Config) -> Result<Identity, Rejection> {
    check_size(headers)?;
    let key_role = opaque_key_role(headers, keys, config)?;
    if config.require_apikey {
        api_key_role(header(headers, &APIKEY).unwrap_or(""), keys, config)?;
    }
    if let Some(token) = authorization_bearer(headers).filter(|t| !api_keys::is_opaque(t)) {
        return verify_token(token, keys, config);
    }
    if let Some(role) = key_role {
        return key_identity(role, config);
    }
    match bearer_token(headers) {
        Some(token) => verify_token(token, keys, config),
        None => {
            let role = config.anon_role.clone().ok_or(Rejection::AnonymousDisabled)?;
            let mut claims = Map::new();
            claims.insert("role".into(), Value::String(role.clone()));
            Ok(Identity { role, claims, has_token: false })
        }
    }
}

/// The caller an opaque key stands for: its role and claims that say only that (a credential was presented, as a
/// token would be, but one that never expires and so is never cached).
fn key_identity(role: String, config: &Config) -> Result<Identity, Rejection> {
    if !config.allowed_roles.iter().any(|r| r == &role) {
        return Err(Rejection::RoleNotAllowed(role));
    }
    let mut claims = Map::new();
    claims.insert("role".into(), Value::String(role.clone()));
    Ok(Identity { role, claims, has_token: true })
}

/// A bearer token verified for API access: its claims with the role it asks for (or the anonymous role).
fn verify_token(token: &str, keys: &KeySet, config: &Config) -> Result<Identity, Rejection> {
    let Value::Object(mut claims) = token::verify(keys, token, &verify_options(config))? else {
        return Err(Rejection::ClaimsNotObject);
    };
    refuse_other_purposes(&claims)?;
    refuse_future_iat(&claims)?;
    let role = match claims.get("role") {
        Some(Value::String(r)) => r.clone(),
        None => config.anon_role.clone().ok_or(Rejection::AnonymousDisabled)?,
        Some(_) => return Err(Rejection::RoleNotString),
    };
    if !config.allowed_roles.iter().any(|r| r == &role) {
        return Err(Rejection::RoleNotAllowed(role));
    }
    claims.insert("role".into(), Value::String(role.clone()));
    Ok(Identity { role, claims, has_token: true })
}

/// The key set checks `exp` and `nbf`; a token issued in the future (beyond the leeway) is refused too.
fn refuse_future_iat(claims: &Map<String, Value>) -> Result<(), Rejection> {
    match claims.get("iat") {
        None => Ok(()),
        Some(Value::Number(iat)) if iat.as_f64().is_some_and(|t| t <= (chrono::Utc::now().timestamp() + 30) as f64) => {
            Ok(())
        }
        Some(Value::Number(_)) => Err(Rejection::IssuedInFuture),
        Some(_) => Err(Rejection::IatNotNumber),
    }
}

/// The `aud` of tokens minted for a signed Storage URL; such a token is never a bearer token.
pub const SIGNED_URL_AUDIENCE: &str = "storage.signed-url";

/// A token minted for one purpose is refused for every other (S8): a signed URL's token (its `url`/`scope` claims,
/// or its audience) grants that one object, never API access as the anonymous role.
fn refuse_other_purposes(claims: &Map<String, Value>) -> Result<(), Rejection> {
    let signed_url_aud = match claims.get("aud") {
        Some(Value::String(a)) => a == SIGNED_URL_AUDIENCE,
        Some(Value::Array(list)) => list.iter().any(|a| a.as_str() == Some(SIGNED_URL_AUDIENCE)),
        _ => false,
    };
    if signed_url_aud || claims.contains_key("url") || claims.contains_key("scope") {
        return Err(Rejection::PurposeRefused);
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
    use crate::core::testing::{bearer, config, key_set};
    use serde_json::json;

    fn setup() -> (KeySet, Config) {
        (key_set(), config())
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
        assert_eq!(identify(&bearer(&future), &keys, &config), Err(Rejection::IssuedInFuture));
        for role in ["authenticator", "supabase_auth_admin", "postgres"] {
            let t = keys.sign(&json!({"role": role, "exp": now + 600, "iat": now})).unwrap();
            assert_eq!(identify(&bearer(&t), &keys, &config), Err(Rejection::RoleNotAllowed(role.into())));
        }
        let t = keys.sign(&json!({"role": ["anon"], "exp": now + 600})).unwrap();
        assert_eq!(identify(&bearer(&t), &keys, &config), Err(Rejection::RoleNotString));
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
            assert_eq!(identify(&bearer(&t), &keys, &config), Err(Rejection::PurposeRefused), "{claims}");
        }
    }
}
