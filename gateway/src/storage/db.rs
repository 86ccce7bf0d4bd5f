//! Running storage SQL as the caller: identify the request (`crate::core::identity`), build its context
//! (`crate::core::context`), open a transaction, and switch role with the shared preamble (`crate::core::db::request_tx`), so
//! row-level security on `storage.*` decides access.
//! Routes that Storage serves as its superuser (public and signed reads, bucket limits) switch to service_role.

use super::error::{Result, StorageError};
use crate::core::context::{self, RequestContext};
use crate::core::db::request_tx::preamble;
use crate::core::identity::{Identity, Verified};
use crate::state::AppState;
use axum::http::{HeaderMap, Method};
use deadpool_postgres::{Object, Transaction};
use serde_json::{Map, Value};
use std::sync::Arc;

/// Who is asking and what SQL should see about the request.
#[derive(Debug, Clone)]
pub struct Caller {
    pub verified: Arc<Verified>,
    pub context: RequestContext,
}

impl Caller {
    /// The caller `verified` making this request, with the context every API builds.
    fn new(state: &AppState, verified: Arc<Verified>, method: &Method, path: &str, headers: &HeaderMap) -> Self {
        let request = context::Request { method: method.as_str(), path, headers };
        let search_path = context::DEFAULT_SEARCH_PATH.to_string();
        let context = RequestContext::build(&verified, &request, search_path, &state.role_settings.load());
        Caller { verified, context }
    }

    /// The `sub` claim when it is a UUID (the object's `owner`).
    pub fn owner(&self) -> Option<uuid::Uuid> {
        self.owner_id().and_then(|s| uuid::Uuid::parse_str(&s).ok())
    }

    pub fn owner_id(&self) -> Option<String> {
        self.verified.identity.claims.get("sub").and_then(Value::as_str).map(str::to_string)
    }
}

/// The verified caller of a request. Like Storage, these routes need a token (supabase-js always sends one: the
/// anon key at least); a request with none is refused.
pub fn caller(state: &AppState, headers: &HeaderMap, method: &Method, path: &str) -> Result<Caller> {
    let verified = state.identities.identify(headers, &state.keys.load(), &state.config)?;
    if !verified.identity.has_token {
        return Err(StorageError::AccessDenied("Invalid Compact JWS".into()));
    }
    Ok(Caller::new(state, verified, method, path, headers))
}

/// Storage's superuser: service_role, which bypasses row-level security.
pub fn service(state: &AppState, headers: &HeaderMap, method: &Method, path: &str) -> Caller {
    Caller::new(state, Verified::tokenless("service_role"), method, path, headers)
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
    let verified = Verified::new(Identity { role: role.to_string(), claims, has_token: true });
    Caller::new(state, verified, method, path, headers)
}

/// Names `owner` as the service caller's `sub` (a signed upload's owner) while its context keeps service_role's
/// claims, as Storage does.
pub fn with_owner(mut caller: Caller, owner: Option<&str>) -> Caller {
    if let Some(o) = owner {
        let mut identity = caller.verified.identity.clone();
        identity.claims.insert("sub".into(), Value::String(o.to_string()));
        caller.verified = Verified::new(identity);
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
    let (sql, params) = preamble(&caller.context);
    tx.execute(sql.as_str(), &params).await?;
    Ok(())
}
