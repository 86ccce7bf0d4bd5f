//! `/admin/users` (list, create) and `/admin/users/{id}` (get, update, delete) for tokens whose role is one of
//! `GOTRUE_JWT_ADMIN_ROLES`.

use crate::auth::domain::email::Email;
use crate::auth::domain::password::check_strength;
use crate::auth::error::{AuthError, AuthResult};
use crate::auth::session::require_admin;
use crate::auth::store::begin;
use crate::auth::store::users::{self, NewUser};
use crate::auth::user::merge_metadata;
use crate::auth::Auth;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::str::FromStr;
use uuid::Uuid;

#[derive(Debug, Default, Deserialize)]
struct AdminUserBody {
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    password: Option<String>,
    #[serde(default)]
    email_confirm: Option<bool>,
    #[serde(default, deserialize_with = "crate::auth::request::object_or_null")]
    user_metadata: Option<Value>,
    #[serde(default, deserialize_with = "crate::auth::request::object_or_null")]
    app_metadata: Option<Value>,
    #[serde(default)]
    role: Option<String>,
    #[serde(default)]
    ban_duration: Option<String>,
    #[serde(default)]
    phone: Option<String>,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    aud: Option<String>,
    #[serde(default)]
    password_hash: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct DeleteBody {
    #[serde(default)]
    should_soft_delete: Option<bool>,
}

fn not_found() -> AuthError {
    AuthError::new(StatusCode::NOT_FOUND, "user_not_found", "User not found")
}

fn parse_id(id: &str) -> AuthResult<Uuid> {
    Uuid::parse_str(id)
        .map_err(|_| AuthError::new(StatusCode::NOT_FOUND, "validation_failed", "user_id must be an UUID"))
}

pub async fn list(
    State(state): State<Auth>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> AuthResult<Response> {
    require_admin(&state, &headers)?;
    let positive = |name: &str, default: i64| match query.get(name).filter(|v| !v.is_empty()) {
        None => Ok(default),
        Some(v) => v.parse::<i64>().ok().filter(|n| *n > 0).ok_or_else(|| {
            AuthError::validation(format!(
                "Bad Pagination Parameters: strconv.ParseUint: parsing {v:?}: invalid syntax"
            ))
        }),
    };
    let page = positive("page", 1)?;
    let per_page = positive("per_page", 50)?.min(1000);
    let aud = request_aud(&state, &headers);
    // GoTrue's `filter`: a substring of the e-mail or of `user_metadata.full_name`.
    let filter = format!("%{}%", query.get("filter").map(String::as_str).unwrap_or(""));
    const MATCHES: &str = "instance_id = $1 and aud = $2 and \
         ($3 = '%%' or email like $3 or raw_user_meta_data->>'full_name' ilike $3)";
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let count_sql = format!("select count(*) from auth.users where {MATCHES}");
    let total: i64 = tx.query_one(count_sql.as_str(), &[&users::INSTANCE_ID, &aud, &filter]).await?.get(0);
    let page_sql = format!("select id from auth.users where {MATCHES} order by created_at desc, id limit $4 offset $5");
    let ids =
        tx.query(page_sql.as_str(), &[&users::INSTANCE_ID, &aud, &filter, &per_page, &((page - 1) * per_page)]).await?;
    let mut list = Vec::with_capacity(ids.len());
    for row in ids {
        if let Some(u) = users::by_id(&tx, row.get(0)).await? {
            list.push(u.to_json());
        }
    }
    tx.commit().await?;
    let mut res = Json(json!({"users": list, "aud": aud})).into_response();
    if let Ok(v) = HeaderValue::from_str(&total.to_string()) {
        res.headers_mut().insert("x-total-count", v);
    }
    if let Ok(v) = HeaderValue::from_str(&pagination_link(&query, page, per_page, total)) {
        res.headers_mut().insert("link", v);
    }
    Ok(res)
}

/// GoTrue's `Link` header: `rel="next"` while pages remain, then `rel="last"`, on the request's own query.
fn pagination_link(query: &HashMap<String, String>, page: i64, per_page: i64, total: i64) -> String {
    let last = (total + per_page - 1) / per_page;
    let url = |p: i64| {
        let mut q: Vec<(String, String)> = query.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        q.retain(|(k, _)| k != "page");
        q.push(("page".into(), p.to_string()));
        q.sort();
        let query = url::form_urlencoded::Serializer::new(String::new()).extend_pairs(q).finish();
        format!("</admin/users?{query}>")
    };
    let next = if last > page { format!("{}; rel=\"next\", ", url(page + 1)) } else { String::new() };
    format!("{next}{}; rel=\"last\"", url(last))
}

/// The audience a request acts in: `X-JWT-AUD` when sent, else `GOTRUE_JWT_AUD`.
fn request_aud(state: &Auth, headers: &HeaderMap) -> String {
    headers
        .get("x-jwt-aud")
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty())
        .map(str::to_string)
        .unwrap_or_else(|| state.config.jwt_aud.clone())
}

fn ban_until(duration: &str) -> AuthResult<Option<chrono::DateTime<chrono::Utc>>> {
    if duration == "none" {
        return Ok(None);
    }
    let d = crate::auth::config::parse_go_duration(duration).ok_or_else(|| {
        AuthError::validation(format!("invalid format for ban duration: time: invalid duration {duration:?}"))
    })?;
    Ok(Some(chrono::Utc::now() + chrono::Duration::from_std(d).unwrap_or_default()))
}

pub async fn create(State(state): State<Auth>, headers: HeaderMap, body: Bytes) -> AuthResult<Json<Value>> {
    require_admin(&state, &headers)?;
    let cfg = &state.config;
    let body: AdminUserBody = crate::auth::request::json_body(&body)?;
    let present = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.is_empty());
    if !present(&body.email) && !present(&body.phone) {
        return Err(AuthError::validation("Cannot create a user without either an email or phone"));
    }
    if present(&body.phone) {
        // No SMS provider: phone numbers are not kept (see tests/conformance/AUDIT.md).
        return Err(AuthError::new(StatusCode::BAD_REQUEST, "phone_provider_disabled", "Phone logins are disabled"));
    }
    let email = Email::parse(body.email.as_deref().unwrap_or_default())?;
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
    let user = users::create(
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
        tx.execute("update auth.users set banned_until = $2 where id = $1", &[&user.id, &ban_until(d)?]).await?;
    }
    let user = users::by_id(&tx, user.id).await?.unwrap_or(user);
    tx.commit().await?;
    Ok(Json(user.to_json()))
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

pub async fn get(State(state): State<Auth>, headers: HeaderMap, Path(id): Path<String>) -> AuthResult<Json<Value>> {
    require_admin(&state, &headers)?;
    let id = parse_id(&id)?;
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let user = users::by_id(&tx, id).await?.ok_or_else(not_found)?;
    tx.commit().await?;
    Ok(Json(user.to_json()))
}

pub async fn update(
    State(state): State<Auth>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> AuthResult<Json<Value>> {
    require_admin(&state, &headers)?;
    let cfg = &state.config;
    let id = parse_id(&id)?;
    let body: AdminUserBody = crate::auth::request::json_body(&body)?;
    let mut client = state.core.pool.get().await?;
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
        let hash = state.hasher.hash(p).await?;
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

/// `DELETE /admin/users/{id}` (`{should_soft_delete}` optional): answers `{}` as GoTrue does. A soft delete keeps
/// the row with its e-mail, password and tokens cleared, `deleted_at` set, identities emptied and sessions ended.
pub async fn delete(
    State(state): State<Auth>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> AuthResult<Json<Value>> {
    require_admin(&state, &headers)?;
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
        soft_delete(&tx, id).await?;
    } else {
        tx.execute("delete from auth.users where id = $1", &[&id]).await?;
    }
    tx.commit().await?;
    Ok(Json(json!({})))
}

async fn soft_delete(tx: &deadpool_postgres::Transaction<'_>, id: Uuid) -> AuthResult<()> {
    tx.execute(
        "update auth.users set email = null, phone = null, encrypted_password = null, email_change = '', \
         phone_change = '', confirmation_token = '', recovery_token = '', email_change_token_current = '', \
         email_change_token_new = '', phone_change_token = '', deleted_at = coalesce(deleted_at, now()), \
         updated_at = now() where id = $1",
        &[&id],
    )
    .await?;
    tx.execute("update auth.identities set identity_data = '{}', updated_at = now() where user_id = $1", &[&id])
        .await?;
    tx.execute("delete from auth.one_time_tokens where user_id = $1", &[&id]).await?;
    tx.execute("delete from auth.sessions where user_id = $1", &[&id]).await?;
    Ok(())
}
