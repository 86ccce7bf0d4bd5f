//! Request plumbing shared by the endpoints: JSON bodies as GoTrue reads them (unknown keys ignored, `null` as
//! absent, empty body as `{}`), the client address for rate limits, and the origin recorded on sessions.

use crate::auth::error::{AuthError, AuthResult};
use crate::auth::store::sessions::Origin;
use crate::state::AppState;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use serde::de::DeserializeOwned;
use std::net::{IpAddr, SocketAddr};

/// Parses a JSON body; malformed JSON is 400 `bad_json`.
pub fn json_body<T: DeserializeOwned>(body: &[u8]) -> AuthResult<T> {
    let text = if body.iter().all(u8::is_ascii_whitespace) { &b"{}"[..] } else { body };
    serde_json::from_slice(text).map_err(|e| {
        AuthError::new(StatusCode::BAD_REQUEST, "bad_json", format!("Could not parse request body as JSON: {e}"))
    })
}

/// The caller's address as `crate::client_addr` resolved it (the socket peer unless that is a trusted proxy).
#[derive(Debug, Clone)]
pub struct ClientIp(pub Option<IpAddr>);

impl ClientIp {
    /// The rate-limit key (one shared bucket when the address is unknown: limits never fail open).
    pub fn key(&self) -> String {
        self.0.map(|ip| ip.to_string()).unwrap_or_else(|| "unknown".into())
    }
}

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &AppState) -> Result<Self, Self::Rejection> {
        let resolved = parts.extensions.get::<crate::client_addr::ClientAddr>().map(|c| c.0);
        let peer = || parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
        Ok(ClientIp(resolved.unwrap_or_else(peer)))
    }
}

pub fn origin(ip: &ClientIp, headers: &HeaderMap) -> Origin {
    Origin {
        ip: ip.0,
        user_agent: headers.get("user-agent").and_then(|v| v.to_str().ok()).map(|s| s.chars().take(512).collect()),
    }
}

/// The `Authorization: Bearer …` token, if any (scheme case-insensitive). `Bearer sb_…` keys are not user tokens.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let v = headers.get(axum::http::header::AUTHORIZATION)?.to_str().ok()?.trim();
    let token = v.get(..7).filter(|p| p.eq_ignore_ascii_case("bearer "))?;
    let _ = token;
    let t = v[7..].trim();
    (!t.is_empty() && !t.contains(' ') && !t.starts_with("sb_")).then_some(t)
}

/// The API-key gate of every auth route except the e-mail link (`/verify`) and the JWKS, as Kong's `key-auth` in
/// front of GoTrue: enforced when `GATEWAY_REQUIRE_APIKEY` is on (the `apikey` header or `?apikey=` must verify
/// as a key of this gateway), open otherwise (local development, like the Supabase CLI).
pub struct ApiKey;

impl FromRequestParts<AppState> for ApiKey {
    type Rejection = axum::response::Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        use axum::response::IntoResponse;
        if !state.config.require_apikey {
            return Ok(ApiKey);
        }
        let from_query = parts.uri.query().and_then(|q| {
            url::form_urlencoded::parse(q.as_bytes()).find(|(k, _)| k == "apikey").map(|(_, v)| v.into_owned())
        });
        let key = parts.headers.get("apikey").and_then(|v| v.to_str().ok()).map(str::to_string).or(from_query);
        let reject = |message: &str| {
            (StatusCode::UNAUTHORIZED, axum::Json(serde_json::json!({ "message": message }))).into_response()
        };
        let Some(key) = key.filter(|k| !k.is_empty()) else {
            return Err(reject("No API key found in request"));
        };
        let options = jwks::VerifyOptions::default();
        match state.keys.load().verify::<serde_json::Value>(&key, &options) {
            Ok(claims) if matches!(claims.get("role").and_then(|r| r.as_str()), Some("anon" | "service_role")) => {
                Ok(ApiKey)
            }
            _ => Err(reject("Invalid authentication credentials")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_accept_empty_and_unknown_keys_and_reject_bad_json() {
        #[derive(serde::Deserialize, Default)]
        struct B {
            #[serde(default)]
            email: Option<String>,
        }
        assert!(json_body::<B>(b"").unwrap().email.is_none());
        assert_eq!(json_body::<B>(br#"{"email":"a","x":null}"#).unwrap().email.as_deref(), Some("a"));
        assert!(json_body::<B>(br#"{"email":null}"#).unwrap().email.is_none());
        assert_eq!(json_body::<B>(b"{nope").err().unwrap().code, "bad_json");
    }

    #[test]
    fn bearer_ignores_opaque_keys() {
        let mut h = HeaderMap::new();
        h.insert("authorization", "bearer abc.def.ghi".parse().unwrap());
        assert_eq!(bearer(&h), Some("abc.def.ghi"));
        h.insert("authorization", "Bearer sb_publishable_x".parse().unwrap());
        assert_eq!(bearer(&h), None);
    }
}
