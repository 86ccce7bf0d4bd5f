//! Running storage SQL as the caller: identify the request (`crate::identity`), open a transaction, and switch
//! role with the shared preamble (`crate::db::request_tx`), so row-level security on `storage.*` decides access.
//! Routes that Storage serves as its superuser (public and signed reads, bucket limits) switch to service_role.

use super::error::{Result, StorageError};
use crate::db::request_tx::{preamble, RequestSettings};
use crate::identity::Identity;
use crate::state::AppState;
use axum::http::{HeaderMap, Method};
use deadpool_postgres::{Object, Transaction};
use serde_json::{Map, Value};

/// Who is asking and what SQL should see about the request.
#[derive(Debug, Clone)]
pub struct Caller {
    pub identity: Identity,
    pub settings: RequestSettings,
}

impl Caller {
    /// The `sub` claim when it is a UUID (the object's `owner`).
    pub fn owner(&self) -> Option<uuid::Uuid> {
        self.identity.claims.get("sub").and_then(Value::as_str).and_then(|s| uuid::Uuid::parse_str(s).ok())
    }

    pub fn owner_id(&self) -> Option<String> {
        self.identity.claims.get("sub").and_then(Value::as_str).map(str::to_string)
    }
}

fn headers_json(headers: &HeaderMap) -> String {
    let mut map = Map::new();
    for (name, value) in headers {
        if name == http::header::COOKIE || name == http::header::AUTHORIZATION {
            continue;
        }
        if let Ok(v) = value.to_str() {
            map.insert(name.as_str().to_string(), Value::String(v.to_string()));
        }
    }
    Value::Object(map).to_string()
}

fn settings_for(
    state: &AppState,
    identity: &Identity,
    method: &Method,
    path: &str,
    headers: &HeaderMap,
) -> RequestSettings {
    RequestSettings {
        role: identity.role.clone(),
        claims_json: identity.claims_json(),
        method: method.to_string(),
        path: path.to_string(),
        headers_json: headers_json(headers),
        cookies_json: "{}".into(),
        search_path: r#""public", "extensions""#.into(),
        role_settings: state.storage.role_settings.get(&identity.role).cloned().unwrap_or_default(),
    }
}

/// The verified caller of a request. Like Storage, these routes need a token (supabase-js always sends one: the
/// anon key at least); a request with none is refused.
pub fn caller(state: &AppState, headers: &HeaderMap, method: &Method, path: &str) -> Result<Caller> {
    let identity = crate::identity::identify(headers, &state.keys.load(), &state.config)?;
    if !identity.has_token {
        return Err(StorageError::AccessDenied("Invalid Compact JWS".into()));
    }
    let settings = settings_for(state, &identity, method, path, headers);
    Ok(Caller { identity, settings })
}

/// Storage's superuser: service_role, which bypasses row-level security.
pub fn service(state: &AppState, headers: &HeaderMap, method: &Method, path: &str) -> Caller {
    let mut claims = Map::new();
    claims.insert("role".into(), Value::String("service_role".into()));
    let identity = Identity { role: "service_role".into(), claims, has_token: false };
    let settings = settings_for(state, &identity, method, path, headers);
    Caller { identity, settings }
}

/// The caller a signed upload URL stands for: the role that minted it (with its `sub` as owner), so row-level
/// security and the triggers on `storage.objects` (e.g. rate limits on anonymous uploads) see the same caller as a
/// direct upload. Tokens without `owner_role` (minted before it existed) keep Storage's rule: service_role.
pub fn minted_by(
    state: &AppState,
    headers: &HeaderMap,
    method: &Method,
    path: &str,
    role: Option<&str>,
    owner: Option<&str>,
) -> Caller {
    let Some(role) = role.filter(|r| state.config.allowed_roles.iter().any(|a| a == r)) else {
        return with_owner(service(state, headers, method, path), owner);
    };
    let mut claims = Map::new();
    claims.insert("role".into(), Value::String(role.to_string()));
    if let Some(o) = owner {
        claims.insert("sub".into(), Value::String(o.to_string()));
    }
    let identity = Identity { role: role.to_string(), claims, has_token: true };
    let settings = settings_for(state, &identity, method, path, headers);
    Caller { identity, settings }
}

/// Replaces the service caller's claims (e.g. a signed upload's `owner`) while keeping service_role.
pub fn with_owner(mut caller: Caller, owner: Option<&str>) -> Caller {
    if let Some(o) = owner {
        caller.identity.claims.insert("sub".into(), Value::String(o.to_string()));
    }
    caller
}

pub async fn client(state: &AppState) -> Result<Object> {
    state.pool.get().await.map_err(|e| {
        tracing::warn!(error = %e, "storage: no database connection");
        StorageError::DatabaseUnavailable
    })
}

pub async fn begin(client: &mut Object, read_only: bool) -> Result<Transaction<'_>> {
    client
        .build_transaction()
        .isolation_level(tokio_postgres::IsolationLevel::ReadCommitted)
        .read_only(read_only)
        .start()
        .await
        .map_err(StorageError::from)
}

/// A transaction already switched to `caller`: how a statement that RLS decides on starts.
pub async fn begin_as<'c>(client: &'c mut Object, caller: &Caller, read_only: bool) -> Result<Transaction<'c>> {
    let tx = begin(client, read_only).await?;
    switch(&tx, caller).await?;
    Ok(tx)
}

/// Switches the transaction to the caller's role and settings (a statement of its own, before any data statement).
pub async fn switch(tx: &Transaction<'_>, caller: &Caller) -> Result<()> {
    let (sql, params) = preamble(&caller.settings);
    tx.execute(sql.as_str(), &params).await?;
    Ok(())
}
