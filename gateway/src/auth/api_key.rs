//! The API-key gate of every auth route except the e-mail link (`/verify`), the JWKS and `/health`, as Kong's
//! `key-auth` in front of GoTrue: a route layer. An opaque `sb_` key (in `apikey`, `?apikey=` or
//! `Authorization: Bearer`) is always checked against the configured ones; when `GATEWAY_REQUIRE_APIKEY` is on,
//! the `apikey` header or `?apikey=` must also be a key of this gateway (`core::identity::api_key_role`), open
//! otherwise (local development, like the Supabase CLI).

use super::Auth;
use crate::core::api_keys::is_opaque;
use crate::core::identity::{api_key_role, Rejection};
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// Lets the request through when every key it presents is one of this gateway's (and, with the gate on, it
/// presents one).
pub async fn require(State(auth): State<Auth>, req: Request, next: Next) -> Response {
    let core = &auth.core;
    let from_query = req.uri().query().and_then(|q| {
        url::form_urlencoded::parse(q.as_bytes()).find(|(k, _)| k == "apikey").map(|(_, v)| v.into_owned())
    });
    let key = req.headers().get("apikey").and_then(|v| v.to_str().ok()).map(str::to_string).or(from_query);
    let key = key.filter(|k| !k.is_empty());
    let opaque_bearer = super::request::opaque_bearer(req.headers()).map(str::to_string);
    let keys = core.keys.load();
    let presented = key.iter().chain(opaque_bearer.iter());
    for k in presented.filter(|k| is_opaque(k) || core.config.require_apikey) {
        if let Err(refused) = api_key_role(k, &keys, &core.config) {
            return reject(&refused);
        }
    }
    if core.config.require_apikey && key.is_none() {
        return reject(&Rejection::ApiKeyMissing);
    }
    next.run(req).await
}

/// Kong's answers: no key, or a key it does not know.
fn reject(refused: &Rejection) -> Response {
    let message = match refused {
        Rejection::ApiKeyMissing => "No API key found in request",
        _ => "Invalid authentication credentials",
    };
    (StatusCode::UNAUTHORIZED, Json(json!({ "message": message }))).into_response()
}
