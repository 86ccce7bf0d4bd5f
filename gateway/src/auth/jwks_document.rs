//! `GET /auth/v1/.well-known/jwks.json`: the public keys, open to anyone, cacheable for ten minutes.

use crate::auth::Auth;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::Json;

pub async fn handler(State(state): State<Auth>) -> impl IntoResponse {
    let doc = state.core.keys.load().jwks_document();
    ([(header::CACHE_CONTROL, "public, max-age=600")], Json(doc))
}
