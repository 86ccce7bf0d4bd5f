//! `POST /logout?scope=global|local|others`: ends sessions; 204 with no body.

use crate::auth::error::{AuthError, AuthResult};
use crate::auth::session::require_signed_in;
use crate::auth::store::begin;
use crate::auth::store::sessions::{self, Scope};
use crate::auth::Auth;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use std::collections::HashMap;

pub async fn handler(
    State(state): State<Auth>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> AuthResult<StatusCode> {
    let scope = match query.get("scope").map(String::as_str).unwrap_or("") {
        "" | "global" => Scope::Global,
        "local" => Scope::Local,
        "others" => Scope::Others,
        other => return Err(AuthError::validation(format!("Unsupported logout scope {other:?}"))),
    };
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let caller = require_signed_in(&state, &tx, &headers).await?;
    sessions::logout(&tx, caller.user.id, caller.session_id, scope).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}
