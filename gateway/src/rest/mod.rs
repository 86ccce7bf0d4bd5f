//! The PostgREST-compatible data API under `/rest/v1`.

use crate::config::{Config, Vars};
use crate::state::AppState;
use axum::Router;
use deadpool_postgres::Pool;

/// The schemas exposed through the API (`PGRST_DB_SCHEMAS`, first one is the default).
pub fn exposed_schemas(vars: &Vars) -> Vec<String> {
    vars.list(&["PGRST_DB_SCHEMAS", "GATEWAY_DB_SCHEMAS"], &["public"])
}

/// The data API's own state (schema cache, settings).
pub struct RestState {}

impl RestState {
    pub async fn load(_config: &Config, _pool: &Pool) -> anyhow::Result<Self> {
        Ok(RestState {})
    }
}

pub fn router() -> Router<AppState> {
    Router::new()
}

/// Background work: the schema-cache reload listener.
pub fn spawn_background(_state: &AppState) {}
