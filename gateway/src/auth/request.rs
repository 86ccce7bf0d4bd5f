//! Request plumbing shared by the endpoints: JSON bodies as GoTrue's `encoding/json` reads them (unknown keys
//! ignored, `null` as absent, field names matched case-insensitively, an empty body refused as bad JSON), the client
//! address for rate limits, the origin recorded on sessions, and the bearer token.

use crate::auth::error::{AuthError, AuthResult, ErrorCode};
use crate::auth::store::sessions::Origin;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::HeaderMap;
use serde::de::DeserializeOwned;
use std::net::{IpAddr, SocketAddr};

fn bad_json(reason: impl std::fmt::Display) -> AuthError {
    AuthError::detail(ErrorCode::BadJson, format!("{}: {reason}", ErrorCode::BadJson.message()))
}

/// Parses a JSON body as GoTrue does: malformed or empty JSON, or a value of the wrong type, is 400 `bad_json`.
pub fn json_body<T: DeserializeOwned>(body: &[u8]) -> AuthResult<T> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(bad_json("unexpected end of JSON input"));
    }
    let value: serde_json::Value = serde_json::from_slice(body).map_err(bad_json)?;
    serde_json::from_value(fold_field_names(value)).map_err(bad_json)
}

/// Go's `encoding/json` matches a field name case-insensitively when no key matches exactly (`"Email"` fills
/// `email`). Every parameter struct here uses lower-case names, so top-level keys are folded to lower case.
fn fold_field_names(value: serde_json::Value) -> serde_json::Value {
    let serde_json::Value::Object(map) = value else { return value };
    let mut out = serde_json::Map::new();
    for (key, v) in &map {
        let lower = key.to_lowercase();
        if lower == *key || !map.contains_key(&lower) {
            out.insert(lower, v.clone());
        }
    }
    serde_json::Value::Object(out)
}

/// A Go `map[string]interface{}` parameter (`data`, `user_metadata`, `app_metadata`): an object or `null`; any other
/// JSON value is refused as GoTrue refuses it (400 `bad_json`). Use with `#[serde(default, deserialize_with)]`.
pub fn object_or_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<serde_json::Value>, D::Error> {
    use serde::de::Error;
    match <Option<serde_json::Value> as serde::Deserialize>::deserialize(d)? {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(v @ serde_json::Value::Object(_)) => Ok(Some(v)),
        Some(other) => Err(D::Error::custom(format!("cannot unmarshal {other} into a map of string to any"))),
    }
}

/// The caller's address as `crate::core::client_addr` resolved it (the socket peer unless that is a trusted proxy).
#[derive(Debug, Clone)]
pub struct ClientIp(pub Option<IpAddr>);

impl ClientIp {
    /// The rate-limit key: the client's address, or its /64 network for IPv6 (`core::client_addr::limit_key`); one
    /// shared bucket when the address is unknown (limits never fail open).
    pub fn key(&self) -> String {
        self.0.map(crate::core::client_addr::limit_key).unwrap_or_else(|| "unknown".into())
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let resolved = parts.extensions.get::<crate::core::client_addr::ClientAddr>().map(|c| c.0);
        let peer = || parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
        Ok(ClientIp(resolved.unwrap_or_else(peer)))
    }
}

/// The `redirect_to` query parameter as sent (the last one, as a map of the query keeps it).
#[derive(Debug, Clone, Default)]
pub struct RedirectTo(pub Option<String>);

impl RedirectTo {
    pub fn get(&self) -> Option<&str> {
        self.0.as_deref()
    }
}

impl<S: Send + Sync> FromRequestParts<S> for RedirectTo {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let query = parts.uri.query().unwrap_or("");
        let last = url::form_urlencoded::parse(query.as_bytes()).filter(|(k, _)| k == "redirect_to").last();
        Ok(RedirectTo(last.map(|(_, v)| v.into_owned())))
    }
}

pub fn origin(ip: &ClientIp, headers: &HeaderMap) -> Origin {
    Origin {
        ip: ip.0,
        user_agent: headers.get("user-agent").and_then(|v| v.to_str().ok()).map(|s| s.chars().take(512).collect()),
    }
}

/// The `Authorization: Bearer …` value, if any (scheme case-insensitive).
fn bearer_value(headers: &HeaderMap) -> Option<&str> {
    let v = headers.get(axum::http::header::AUTHORIZATION)?.to_str().ok()?.trim();
    v.get(..7).filter(|p| p.eq_ignore_ascii_case("bearer "))?;
    let t = v[7..].trim();
    (!t.is_empty() && !t.contains(' ')).then_some(t)
}

/// The `Authorization: Bearer …` token, if any (scheme case-insensitive). `Bearer sb_…` keys are not user tokens.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    bearer_value(headers).filter(|t| !crate::core::api_keys::is_opaque(t))
}

/// An opaque API key sent as `Authorization: Bearer sb_…` (what supabase-js sends with the new keys).
pub fn opaque_bearer(headers: &HeaderMap) -> Option<&str> {
    bearer_value(headers).filter(|t| crate::core::api_keys::is_opaque(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_read_like_go_encoding_json() {
        #[derive(serde::Deserialize, Default)]
        struct B {
            #[serde(default)]
            email: Option<String>,
            #[serde(default)]
            data: Option<serde_json::Map<String, serde_json::Value>>,
        }
        assert_eq!(
            json_body::<B>(b"").err().unwrap().message,
            "Could not parse request body as JSON: unexpected end of JSON input"
        );
        assert_eq!(json_body::<B>(br#"{"email":"a","x":null}"#).unwrap().email.as_deref(), Some("a"));
        assert!(json_body::<B>(br#"{"email":null}"#).unwrap().email.is_none());
        assert_eq!(json_body::<B>(b"{nope").err().unwrap().code.as_str(), "bad_json");
        assert_eq!(json_body::<B>(br#"{"Email":"b"}"#).unwrap().email.as_deref(), Some("b"));
        assert_eq!(json_body::<B>(br#"{"EMAIL":"b","email":"a"}"#).unwrap().email.as_deref(), Some("a"));
        let b = json_body::<B>(br#"{"data":{"Full_Name":"x"}}"#).unwrap();
        assert!(b.data.unwrap().contains_key("Full_Name"), "nested keys keep their case");
        assert_eq!(json_body::<B>(br#"{"data":"x"}"#).err().unwrap().code.as_str(), "bad_json");
        assert_eq!(json_body::<B>(br#"{"email":5}"#).err().unwrap().code.as_str(), "bad_json");
    }

    #[test]
    fn bearer_ignores_opaque_keys() {
        let mut h = HeaderMap::new();
        h.insert("authorization", "bearer abc.def.ghi".parse().unwrap());
        assert_eq!(bearer(&h), Some("abc.def.ghi"));
        h.insert("authorization", "Bearer sb_publishable_x".parse().unwrap());
        assert_eq!(bearer(&h), None);
        assert_eq!(opaque_bearer(&h), Some("sb_publishable_x"));
    }
}
