//! Supabase Auth (GoTrue) under `/auth/v1`: the route table.

mod jwks_document;

use crate::config::Config;
use crate::state::AppState;
use axum::routing::get;
use axum::Router;
use deadpool_postgres::Pool;

pub struct AuthState {}

impl AuthState {
    pub async fn new(_config: &Config, _pool: &Pool) -> anyhow::Result<Self> {
        Ok(AuthState {})
    }
}

pub fn router() -> Router<AppState> {
    Router::new().route("/.well-known/jwks.json", get(jwks_document::handler))
}

pub fn spawn_background(_state: &AppState) {}
