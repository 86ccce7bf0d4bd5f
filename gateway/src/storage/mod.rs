//! The Storage API under `/storage/v1`.

use crate::config::Config;
use crate::state::AppState;
use axum::Router;
use deadpool_postgres::Pool;

pub struct StorageState {}

impl StorageState {
    pub async fn new(_config: &Config, _pool: &Pool) -> anyhow::Result<Self> {
        Ok(StorageState {})
    }
}

pub fn router() -> Router<AppState> {
    Router::new()
}

/// Background work: the mail outbox delivery loop.
pub fn spawn_background(_state: &AppState) {}
