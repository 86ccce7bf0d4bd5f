//! `/admin/users` (list, create) and `/admin/users/{id}` (get, update, delete) for tokens whose role is one of
//! `GOTRUE_JWT_ADMIN_ROLES`.

use crate::auth::domain::email::Email;
use crate::auth::domain::password::check_strength;
use crate::auth::error::{AuthError, AuthResult};
use crate::auth::session::require_admin;
use crate::auth::store::begin;
use crate::auth::store::users::{self, NewUser};
use crate::auth::user::merge_metadata;
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use uuid::Uuid;

#[derive(Debug, Default, Deserialize)]
struct AdminUserBody {
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    password: Option<String>,
    #[serde(default)]
    email_confirm: Option<bool>,
    #[serde(default)]
    user_metadata: Option<Value>,
    #[serde(default)]
    app_metadata: Option<Value>,
    #[serde(default)]
    role: Option<String>,
    #[serde(default)]
    ban_duration: Option<String>,
    #[serde(default)]
    phone: Option<String>,
}

fn not_found() -> AuthError {
    AuthError::new(StatusCode::NOT_FOUND, "user_not_found", "User not found")
}

fn parse_id(id: &str) -> AuthResult<Uuid> {
    Uuid::parse_str(id).map_err(|_| not_found())
}

pub async fn list(
    _key: crate::auth::request::ApiKey,
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> AuthResult<Response> {
    require_admin(&state, &headers)?;
    let positive = |name: &str, default: i64| match query.get(name).filter(|v| !v.is_empty()) {
        None => Ok(default),
        Some(v) => {
            v.parse::<i64>().ok().filter(|n| *n > 0).ok_or_else(|| AuthError::validation("Bad Pagination Parameters"))
        }
    };
    let page = positive("page", 1)?;
    let per_page = positive("per_page", 50)?.min(1000);
    let mut client = state.pool.get().await?;
    let tx = begin(&mut client).await?;
    let total: i64 =
        tx.query_one("select count(*) from auth.users where instance_id = $1", &[&users::INSTANCE_ID]).await?.get(0);
    let ids = tx
        .query(
            "select id from auth.users where instance_id = $1 order by created_at desc, id limit $2 offset $3",
            &[&users::INSTANCE_ID, &per_page, &((page - 1) * per_page)],
        )
        .await?;
    let mut list = Vec::with_capacity(ids.len());
    for row in ids {
        if let Some(u) = users::by_id(&tx, row.get(0)).await? {
            list.push(u.to_json());
        }
    }
    tx.commit().await?;
    let mut res = Json(json!({"users": list, "aud": state.auth.config.jwt_aud})).into_response();
    if let Ok(v) = HeaderValue::from_str(&total.to_string()) {
        res.headers_mut().insert("x-total-count", v);
    }
    let last = ((total + per_page - 1) / per_page).max(1);
    let link = format!("</admin/users?page={last}&per_page={per_page}>; rel=\"last\"");
    if let Ok(v) = HeaderValue::from_str(&link) {
        res.headers_mut().insert("link", v);
    }
    Ok(res)
}

fn ban_until(duration: &str) -> AuthResult<Option<chrono::DateTime<chrono::Utc>>> {
    if duration == "none" {
        return Ok(None);
    }
    let d = crate::auth::config::parse_duration(duration)
        .ok_or_else(|| AuthError::validation("invalid format for ban duration"))?;
    Ok(Some(chrono::Utc::now() + chrono::Duration::from_std(d).unwrap_or_default()))
}

pub async fn create(
    _key: crate::auth::request::ApiKey,
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> AuthResult<Json<Value>> {
    require_admin(&state, &headers)?;
    let cfg = &state.auth.config;
    let body: AdminUserBody = crate::auth::request::json_body(&body)?;
    let email = match body.email.as_deref().filter(|e| !e.is_empty()) {
        Some(e) => Some(Email::parse(e)?),
        None => None,
    };
    if email.is_none() && body.phone.as_deref().is_none_or(str::is_empty) {
        return Err(AuthError::validation("Unable to validate email address: invalid format"));
    }
    let Some(email) = email else {
        return Err(AuthError::new(StatusCode::BAD_REQUEST, "phone_provider_disabled", "Phone logins are disabled"));
    };
    let hash = match body.password.as_deref().filter(|p| !p.is_empty()) {
        Some(p) => {
            check_strength(p, cfg.password_min_length, &cfg.password_required_characters)?;
            Some(state.auth.hasher.hash(p).await?)
        }
        None => None,
    };
    let mut app_metadata = json!({"provider": "email", "providers": ["email"]});
    if let (Some(Value::Object(extra)), Some(obj)) = (&body.app_metadata, app_metadata.as_object_mut()) {
        for (k, v) in extra {
            obj.insert(k.clone(), v.clone());
        }
    }
    let mut client = state.pool.get().await?;
    let tx = begin(&mut client).await?;
    if users::by_email(&tx, email.as_str()).await?.is_some() {
        return Err(AuthError::email_exists());
    }
    let user = users::create(
        &tx,
        NewUser {
            email: Some(email.as_str()),
            password_hash: hash.as_deref(),
            aud: &cfg.jwt_aud,
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
        tx.execute("update auth.users set banned_until = $2 where id = $1", &[&user.id, &ban_until(d)?]).await?;
    }
    let user = users::by_id(&tx, user.id).await?.unwrap_or(user);
    tx.commit().await?;
    Ok(Json(user.to_json()))
}

pub async fn get(
    _key: crate::auth::request::ApiKey,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> AuthResult<Json<Value>> {
    require_admin(&state, &headers)?;
    let id = parse_id(&id)?;
    let mut client = state.pool.get().await?;
    let tx = begin(&mut client).await?;
    let user = users::by_id(&tx, id).await?.ok_or_else(not_found)?;
    tx.commit().await?;
    Ok(Json(user.to_json()))
}

pub async fn update(
    _key: crate::auth::request::ApiKey,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> AuthResult<Json<Value>> {
    require_admin(&state, &headers)?;
    let cfg = &state.auth.config;
    let id = parse_id(&id)?;
    let body: AdminUserBody = crate::auth::request::json_body(&body)?;
    let mut client = state.pool.get().await?;
    let tx = begin(&mut client).await?;
    let user = users::by_id(&tx, id).await?.ok_or_else(not_found)?;
    if let Some(raw) = body.email.as_deref().filter(|e| !e.is_empty()) {
        let email = Email::parse(raw)?;
        if email.as_str() != user.email {
            if users::by_email(&tx, email.as_str()).await?.is_some() {
                return Err(AuthError::email_exists());
            }
            tx.execute("update auth.users set email = $2, updated_at = now() where id = $1", &[&id, &email.as_str()])
                .await?;
            tx.execute(
                "update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text) \
                 where user_id = $1 and provider = 'email'",
                &[&id, &email.as_str()],
            )
            .await?;
        }
    }
    if let Some(p) = body.password.as_deref().filter(|p| !p.is_empty()) {
        check_strength(p, cfg.password_min_length, &cfg.password_required_characters)?;
        let hash = state.auth.hasher.hash(p).await?;
        tx.execute("update auth.users set encrypted_password = $2, updated_at = now() where id = $1", &[&id, &hash])
            .await?;
    }
    if body.email_confirm == Some(true) {
        users::confirm_email(&tx, id).await?;
    }
    if let Some(Value::Object(data)) = &body.user_metadata {
        let merged = merge_metadata(&user.user_metadata, data);
        tx.execute("update auth.users set raw_user_meta_data = $2, updated_at = now() where id = $1", &[&id, &merged])
            .await?;
    }
    if let Some(Value::Object(data)) = &body.app_metadata {
        let merged = merge_metadata(&user.app_metadata, data);
        tx.execute("update auth.users set raw_app_meta_data = $2, updated_at = now() where id = $1", &[&id, &merged])
            .await?;
    }
    if let Some(role) = body.role.as_deref().filter(|r| !r.is_empty()) {
        tx.execute("update auth.users set role = $2, updated_at = now() where id = $1", &[&id, &role]).await?;
    }
    if let Some(d) = body.ban_duration.as_deref() {
        tx.execute("update auth.users set banned_until = $2, updated_at = now() where id = $1", &[&id, &ban_until(d)?])
            .await?;
    }
    let user = users::by_id(&tx, id).await?.ok_or_else(not_found)?;
    tx.commit().await?;
    Ok(Json(user.to_json()))
}

pub async fn delete(
    _key: crate::auth::request::ApiKey,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> AuthResult<Json<Value>> {
    require_admin(&state, &headers)?;
    let id = parse_id(&id)?;
    let mut client = state.pool.get().await?;
    let tx = begin(&mut client).await?;
    let user = users::by_id(&tx, id).await?.ok_or_else(not_found)?;
    tx.execute("delete from auth.users where id = $1", &[&id]).await?;
    tx.commit().await?;
    Ok(Json(user.to_json()))
}
