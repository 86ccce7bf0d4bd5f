//! `/admin/users` (`list`, `create`) and `/admin/users/{id}` (get, `update`, delete) for tokens whose role is one
//! of `GOTRUE_JWT_ADMIN_ROLES`.

mod create;
mod list;
mod update;

pub use create::create;
pub use list::list;
pub use update::update;

use crate::auth::error::{AuthError, AuthResult, ErrorCode};
use crate::auth::store::users;
use crate::auth::store::{account, begin};
use crate::auth::Auth;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use uuid::Uuid;

#[derive(Debug, Default, Deserialize)]
pub(super) struct AdminUserBody {
    #[serde(default)]
    pub(super) email: Option<String>,
    #[serde(default)]
    pub(super) password: Option<String>,
    #[serde(default)]
    pub(super) email_confirm: Option<bool>,
    #[serde(default, deserialize_with = "crate::auth::request::object_or_null")]
    pub(super) user_metadata: Option<Value>,
    #[serde(default, deserialize_with = "crate::auth::request::object_or_null")]
    pub(super) app_metadata: Option<Value>,
    #[serde(default)]
    pub(super) role: Option<String>,
    #[serde(default)]
    pub(super) ban_duration: Option<String>,
    #[serde(default)]
    pub(super) phone: Option<String>,
    #[serde(default)]
    pub(super) id: Option<String>,
    #[serde(default)]
    pub(super) aud: Option<String>,
    #[serde(default)]
    pub(super) password_hash: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct DeleteBody {
    #[serde(default)]
    should_soft_delete: Option<bool>,
}

pub(super) fn not_found() -> AuthError {
    ErrorCode::UserNotFound.into()
}

pub(super) fn parse_id(id: &str) -> AuthResult<Uuid> {
    Uuid::parse_str(id).map_err(|_| AuthError::validation("user_id must be an UUID").at(StatusCode::NOT_FOUND))
}

/// The audience a request acts in: `X-JWT-AUD` when sent, else `GOTRUE_JWT_AUD`.
pub(super) fn request_aud(state: &Auth, headers: &HeaderMap) -> String {
    headers
        .get("x-jwt-aud")
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty())
        .map(str::to_string)
        .unwrap_or_else(|| state.config.jwt_aud.clone())
}

pub(super) fn ban_until(duration: &str) -> AuthResult<Option<chrono::DateTime<chrono::Utc>>> {
    if duration == "none" {
        return Ok(None);
    }
    let d = crate::auth::config::parse_go_duration(duration).ok_or_else(|| {
        AuthError::validation(format!("invalid format for ban duration: time: invalid duration {duration:?}"))
    })?;
    Ok(Some(chrono::Utc::now() + chrono::Duration::from_std(d).unwrap_or_default()))
}

pub async fn get(State(state): State<Auth>, Path(id): Path<String>) -> AuthResult<Json<Value>> {
    let id = parse_id(&id)?;
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let user = users::by_id(&tx, id).await?.ok_or_else(not_found)?;
    tx.commit().await?;
    Ok(Json(user.to_json()))
}

/// `DELETE /admin/users/{id}` (`{should_soft_delete}` optional): answers `{}` as GoTrue does. A soft delete keeps
/// the row with its e-mail, password and tokens cleared, `deleted_at` set, identities emptied and sessions ended.
pub async fn delete(State(state): State<Auth>, Path(id): Path<String>, body: Bytes) -> AuthResult<Json<Value>> {
    let id = parse_id(&id)?;
    let params: DeleteBody = if body.iter().all(u8::is_ascii_whitespace) {
        DeleteBody::default()
    } else {
        crate::auth::request::json_body(&body)?
    };
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    users::by_id(&tx, id).await?.ok_or_else(not_found)?;
    if params.should_soft_delete == Some(true) {
        account::soft_delete(&tx, id).await?;
    } else {
        account::delete(&tx, id).await?;
    }
    tx.commit().await?;
    Ok(Json(json!({})))
}
