//! The API-key gate of every auth route except the e-mail link (`/verify`), the JWKS and `/health`, as Kong's
//! `key-auth` in front of GoTrue: a route layer, enforced when `GATEWAY_REQUIRE_APIKEY` is on (the `apikey`
//! header or `?apikey=` must verify as a key of this gateway), open otherwise (local development, like the
//! Supabase CLI).

use super::Auth;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

/// Lets the request through when the gate is open or its key verifies as the `anon` or `service_role` key.
pub async fn require(State(auth): State<Auth>, req: Request, next: Next) -> Response {
    if !auth.core.config.require_apikey {
        return next.run(req).await;
    }
    let from_query = req.uri().query().and_then(|q| {
        url::form_urlencoded::parse(q.as_bytes()).find(|(k, _)| k == "apikey").map(|(_, v)| v.into_owned())
    });
    let key = req.headers().get("apikey").and_then(|v| v.to_str().ok()).map(str::to_string).or(from_query);
    let Some(key) = key.filter(|k| !k.is_empty()) else {
        return reject("No API key found in request");
    };
    let options = jwks::VerifyOptions::default();
    match auth.core.keys.load().verify::<Value>(&key, &options) {
        Ok(claims) if matches!(claims.get("role").and_then(Value::as_str), Some("anon" | "service_role")) => {
            next.run(req).await
        }
        _ => reject("Invalid authentication credentials"),
    }
}

fn reject(message: &str) -> Response {
    (StatusCode::UNAUTHORIZED, Json(json!({ "message": message }))).into_response()
}
