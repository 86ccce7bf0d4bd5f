//! `POST /admin/users`: an e-mail user with a password (or a bcrypt hash), metadata, role, audience, chosen id,
//! confirmation and ban, as GoTrue's admin API creates them (no phone users: no SMS provider).

use super::{ban_until, request_aud, AdminUserBody};
use crate::auth::domain::email::Email;
use crate::auth::domain::password::check_strength;
use crate::auth::error::{AuthError, AuthResult, ErrorCode};
use crate::auth::store::new_user::{self, NewUser};
use crate::auth::store::users;
use crate::auth::store::{account, begin};
use crate::auth::Auth;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use serde_json::{json, Value};
use std::str::FromStr;
use uuid::Uuid;

pub async fn create(State(state): State<Auth>, headers: HeaderMap, body: Bytes) -> AuthResult<Json<Value>> {
    let cfg = &state.config;
    let body: AdminUserBody = crate::auth::request::json_body(&body)?;
    let email = new_user_email(&body)?;
    let hash = new_user_password(&state, &body).await?;
    let id = new_user_id(body.id.as_deref())?;
    let mut app_metadata = json!({"provider": "email", "providers": ["email"]});
    if let (Some(Value::Object(extra)), Some(obj)) = (&body.app_metadata, app_metadata.as_object_mut()) {
        for (k, v) in extra {
            obj.insert(k.clone(), v.clone());
        }
    }
    let aud = body.aud.clone().filter(|a| !a.is_empty()).unwrap_or_else(|| request_aud(&state, &headers));
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    if users::by_email(&tx, email.as_str()).await?.is_some() {
        return Err(AuthError::email_exists());
    }
    let user = new_user::create(
        &tx,
        NewUser {
            id,
            email: Some(email.as_str()),
            password_hash: hash.as_deref(),
            aud: &aud,
            role: body.role.as_deref().unwrap_or(&cfg.default_role),
            user_metadata: body.user_metadata.unwrap_or_else(|| json!({})),
            app_metadata,
            confirmed: body.email_confirm.unwrap_or(false),
            is_anonymous: false,
            identity_in_metadata: false,
        },
    )
    .await?;
    if let Some(d) = body.ban_duration.as_deref() {
        account::set_banned_until(&tx, user.id, ban_until(d)?).await?;
    }
    let user = users::by_id(&tx, user.id).await?.unwrap_or(user);
    tx.commit().await?;
    Ok(Json(user.to_json()))
}

/// The new user's address: an e-mail is required, a phone refused (no SMS provider: phone numbers are not kept,
/// see tests/conformance/AUDIT.md).
fn new_user_email(body: &AdminUserBody) -> AuthResult<Email> {
    let present = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.is_empty());
    if !present(&body.email) && !present(&body.phone) {
        return Err(AuthError::validation("Cannot create a user without either an email or phone"));
    }
    if present(&body.phone) {
        return Err(ErrorCode::PhoneProviderDisabled.into());
    }
    Email::parse(body.email.as_deref().unwrap_or_default())
}

/// The stored hash for a new user: the `password` hashed (after the strength rules), or a bcrypt `password_hash`
/// taken as it is (GoTrue also takes Argon2 and Firebase scrypt hashes; this gateway verifies bcrypt only).
async fn new_user_password(state: &Auth, body: &AdminUserBody) -> AuthResult<Option<String>> {
    let cfg = &state.config;
    let hash = body.password_hash.as_deref().filter(|h| !h.is_empty());
    if body.password.is_some() && hash.is_some() {
        return Err(AuthError::validation("Only a password or a password hash should be provided"));
    }
    if let Some(h) = hash {
        if bcrypt::HashParts::from_str(h).is_err() {
            return Err(AuthError::validation("Only bcrypt password hashes are supported"));
        }
        return Ok(Some(h.to_string()));
    }
    match body.password.as_deref().filter(|p| !p.is_empty()) {
        Some(p) => {
            check_strength(p, cfg.password_min_length, &cfg.password_required_characters)?;
            Ok(Some(state.hasher.hash(p).await?))
        }
        None => Ok(None),
    }
}

/// A chosen user id: a UUID other than the nil one, as GoTrue requires.
fn new_user_id(id: Option<&str>) -> AuthResult<Option<Uuid>> {
    let Some(id) = id.filter(|i| !i.is_empty()) else { return Ok(None) };
    match Uuid::parse_str(id) {
        Err(_) => Err(AuthError::validation("ID must conform to the uuid v4 format")),
        Ok(u) if u.is_nil() => Err(AuthError::validation("ID cannot be a nil uuid")),
        Ok(u) => Ok(Some(u)),
    }
}
