//! The one builder of a request's context for SQL: the role to switch to with its own settings, and the
//! `request.*` settings — `jwt.claims`, `headers` (every header but Cookie, `authorization` included), `cookies`,
//! `method`, `path` — that every API's preamble (`db::request_tx`) gives PostgreSQL, as PostgREST's `txVarQuery`.

use crate::core::identity::Verified;
use crate::core::role_settings::RoleSettings;
use http::{header, HeaderMap};
use serde_json::{Map, Value};

/// What a request tells SQL about itself.
#[derive(Debug, Clone)]
pub struct RequestContext {
    /// The database role to switch to (already checked against the allowed roles).
    pub role: String,
    /// `request.jwt.claims` as JSON text; always includes `role`.
    pub claims_json: String,
    pub method: String,
    /// The path under the API's mount (`/items` for `/rest/v1/items`).
    pub path: String,
    /// `request.headers` as a JSON object of lower-cased names (Cookie excluded).
    pub headers_json: String,
    /// `request.cookies` as a JSON object.
    pub cookies_json: String,
    /// The `search_path` value, already quoted.
    pub search_path: String,
    /// The role's own settings (`ALTER ROLE … SET`), which `SET ROLE` does not apply by itself.
    pub role_settings: Vec<(String, String)>,
}

/// The request as its API sees it.
pub struct Request<'a> {
    pub method: &'a str,
    /// The path under the API's mount.
    pub path: &'a str,
    pub headers: &'a HeaderMap,
}

impl<'a> Request<'a> {
    /// The request an axum handler receives (its path under the router's mount).
    pub fn of(parts: &'a http::request::Parts) -> Self {
        Request { method: parts.method.as_str(), path: parts.uri.path(), headers: &parts.headers }
    }
}

/// The `search_path` of requests outside the data API's schemas (Storage, site pages).
pub const DEFAULT_SEARCH_PATH: &str = "\"public\", \"extensions\"";

impl RequestContext {
    /// The context of `request` made by `caller`, with the caller's role's own settings.
    pub fn build(caller: &Verified, request: &Request<'_>, search_path: String, roles: &RoleSettings) -> Self {
        let role = &caller.identity.role;
        RequestContext {
            role: role.clone(),
            claims_json: caller.claims_json.clone(),
            method: request.method.to_string(),
            path: request.path.to_string(),
            headers_json: headers_json(request.headers),
            cookies_json: cookies_json(request.headers),
            search_path,
            role_settings: roles.of(role).to_vec(),
        }
    }
}

/// `request.cookies`: each cookie by name.
fn cookies_json(headers: &HeaderMap) -> String {
    let mut values = headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).peekable();
    if values.peek().is_none() {
        // the usual API request carries no cookie: no map to build
        return "{}".to_string();
    }
    let mut cookies = Map::new();
    for value in values {
        for pair in value.split(';') {
            if let Some((k, v)) = pair.split_once('=') {
                cookies.insert(k.trim().to_string(), Value::String(v.trim().to_string()));
            }
        }
    }
    if cookies.is_empty() {
        "{}".to_string()
    } else {
        Value::Object(cookies).to_string()
    }
}

/// `request.headers`: every header but Cookie as a JSON object with names in sorted order and, for a repeated
/// name, its last value readable as text — the object a JSON map built header by header gives, written without
/// the intermediate map. One pass over the map (its iterator yields a name's values one after the other), so no
/// name is looked up again; each value's bytes are checked once for what JSON needs escaped, which also proves the
/// usual value text.
fn headers_json(headers: &HeaderMap) -> String {
    // (name, value, whether the value needs no escaping)
    let mut pairs: Vec<(&str, &str, bool)> = Vec::with_capacity(headers.keys_len());
    let mut last: Option<&http::HeaderName> = None;
    for (name, value) in headers {
        if name == header::COOKIE {
            continue;
        }
        let plain = is_plain(value.as_bytes());
        // printable ASCII is text; anything else is text only as `to_str` reads it (tab allowed, bytes ≥ 0x80 not)
        let text = if plain { std::str::from_utf8(value.as_bytes()).ok() } else { value.to_str().ok() };
        let Some(text) = text else { continue };
        match pairs.last_mut() {
            // a later value of the same name replaces the earlier one
            Some(pair) if last == Some(name) => (pair.1, pair.2) = (text, plain),
            _ => pairs.push((name.as_str(), text, plain)),
        }
        last = Some(name);
    }
    pairs.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let mut out = String::with_capacity(2 + pairs.iter().map(|(n, v, _)| n.len() + v.len() + 6).sum::<usize>());
    out.push('{');
    for (i, (name, value, plain)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        // a header name is lower-case token characters (`http` refuses any other): never escaped
        debug_assert!(is_plain(name.as_bytes()));
        push_quoted(&mut out, name);
        out.push(':');
        if *plain {
            push_quoted(&mut out, value);
        } else {
            // a JSON string of a `str` always serialises
            out.push_str(&serde_json::to_string(value).unwrap_or_default());
        }
    }
    out.push('}');
    out
}

fn push_quoted(out: &mut String, s: &str) {
    out.push('"');
    out.push_str(s);
    out.push('"');
}

/// Whether every byte is printable ASCII other than `"` and `\` (copied into a JSON string as is). A fold without
/// an early exit, which the compiler vectorises: about one instruction per byte.
fn is_plain(bytes: &[u8]) -> bool {
    bytes.iter().fold(true, |ok, &b| ok & (b >= 0x20 && b != b'"' && b != b'\\' && b < 0x7f))
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    /// The object a JSON map built header by header gives (the definition `headers_json` must match).
    fn headers_json_by_map(headers: &HeaderMap) -> String {
        let mut map = Map::new();
        for (name, value) in headers {
            if name == header::COOKIE {
                continue;
            }
            if let Ok(v) = value.to_str() {
                map.insert(name.as_str().to_string(), Value::String(v.to_string()));
            }
        }
        Value::Object(map).to_string()
    }

    #[test]
    fn headers_json_matches_a_json_map_of_the_headers() {
        let mut h = HeaderMap::new();
        assert_eq!(headers_json(&h), "{}");
        h.append("x-b", HeaderValue::from_static("one"));
        h.append("apikey", HeaderValue::from_static("k\\\"q"));
        h.append("x-b", HeaderValue::from_static("two"));
        h.append(header::COOKIE, HeaderValue::from_static("a=1"));
        h.append("accept", HeaderValue::from_static("*/*"));
        h.append("x-bin", HeaderValue::from_static("ok"));
        h.append("x-bin", HeaderValue::from_bytes(b"caf\xc3\xa9").unwrap());
        h.append("x-only-bin", HeaderValue::from_bytes(b"\xff").unwrap());
        h.append("x-tab", HeaderValue::from_static("a\tb"));
        h.append("x-q", HeaderValue::from_static("plain"));
        h.append("x-q", HeaderValue::from_static("q\"x"));
        assert_eq!(headers_json(&h), headers_json_by_map(&h));
        assert_eq!(
            headers_json(&h),
            r#"{"accept":"*/*","apikey":"k\\\"q","x-b":"two","x-bin":"ok","x-q":"q\"x","x-tab":"a\tb"}"#
        );
    }

    #[test]
    fn plain_strings_are_told_from_those_that_need_escaping_at_every_position() {
        let long = "abcdefghijklmnopqrstuvwxyz0123456789-_.~ABCDEFGHIJ";
        assert!(is_plain(long.as_bytes()) && is_plain(b""));
        for i in 0..long.len() {
            for bad in [b'"', b'\\', b'\t', 0x1f, 0x7f, 0xc3] {
                let mut bytes = long.as_bytes().to_vec();
                bytes[i] = bad;
                assert!(!is_plain(&bytes), "byte {bad:#x} at {i}");
            }
        }
    }

    #[test]
    fn the_context_carries_the_caller_the_request_and_the_roles_settings() {
        let mut h = HeaderMap::new();
        h.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer t"));
        h.insert(header::COOKIE, HeaderValue::from_static("a=1; b = 2"));
        let roles = RoleSettings::from_pairs([("anon", "statement_timeout", "3s")]);
        let request = Request { method: "GET", path: "/items", headers: &h };
        let ctx = RequestContext::build(&Verified::tokenless("anon"), &request, DEFAULT_SEARCH_PATH.into(), &roles);
        assert_eq!((ctx.role.as_str(), ctx.claims_json.as_str()), ("anon", r#"{"role":"anon"}"#));
        assert_eq!(ctx.headers_json, r#"{"authorization":"Bearer t"}"#);
        assert_eq!(ctx.cookies_json, r#"{"a":"1","b":"2"}"#);
        assert_eq!((ctx.method.as_str(), ctx.path.as_str()), ("GET", "/items"));
        assert_eq!(ctx.role_settings, vec![("statement_timeout".to_string(), "3s".to_string())]);
    }
}
