//! `PUT /admin/users/{id}`: the e-mail (kept unique), password, confirmation, metadata (merged, capped in size),
//! role and ban of a user, each changed only when given.

use super::{ban_until, not_found, parse_id, AdminUserBody};
use crate::auth::domain::email::Email;
use crate::auth::domain::metadata::{merged, Field};
use crate::auth::domain::password::check_strength;
use crate::auth::error::{AuthError, AuthResult};
use crate::auth::store::account::{self, Column};
use crate::auth::store::begin;
use crate::auth::store::users::{self, User};
use crate::auth::Auth;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::Json;
use deadpool_postgres::Transaction;
use serde_json::Value;

pub async fn update(State(state): State<Auth>, Path(id): Path<String>, body: Bytes) -> AuthResult<Json<Value>> {
    let id = parse_id(&id)?;
    let body: AdminUserBody = crate::auth::request::json_body(&body)?;
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let user = users::by_id(&tx, id).await?.ok_or_else(not_found)?;
    if let Some(raw) = body.email.as_deref().filter(|e| !e.is_empty()) {
        change_email(&tx, &user, raw).await?;
    }
    if let Some(p) = body.password.as_deref().filter(|p| !p.is_empty()) {
        let cfg = &state.config;
        check_strength(p, cfg.password_min_length, &cfg.password_required_characters)?;
        account::set(&tx, Column::EncryptedPassword, id, &state.hasher.hash(p).await?).await?;
    }
    if body.email_confirm == Some(true) {
        users::confirm_email(&tx, id).await?;
    }
    if let Some(Value::Object(data)) = &body.user_metadata {
        account::set(&tx, Column::UserMetadata, id, &merged(Field::User, &user.user_metadata, data)?).await?;
    }
    if let Some(Value::Object(data)) = &body.app_metadata {
        account::set(&tx, Column::AppMetadata, id, &merged(Field::App, &user.app_metadata, data)?).await?;
    }
    if let Some(role) = body.role.as_deref().filter(|r| !r.is_empty()) {
        account::set(&tx, Column::Role, id, &role).await?;
    }
    if let Some(d) = body.ban_duration.as_deref() {
        account::set(&tx, Column::BannedUntil, id, &ban_until(d)?).await?;
    }
    let user = users::by_id(&tx, id).await?.ok_or_else(not_found)?;
    tx.commit().await?;
    Ok(Json(user.to_json()))
}

/// A new address for the user and its e-mail identity, unless another account has it.
async fn change_email(tx: &Transaction<'_>, user: &User, raw: &str) -> AuthResult<()> {
    let email = Email::parse(raw)?;
    if email.as_str() == user.email {
        return Ok(());
    }
    if users::by_email(tx, email.as_str()).await?.is_some() {
        return Err(AuthError::email_exists());
    }
    account::set_email(tx, user.id, email.as_str()).await
}
