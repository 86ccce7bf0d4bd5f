//! Serving the built site: static files, prerendered pages, pages rendered from data, and 404s.

pub mod headers;

use crate::config::Config;
use crate::state::AppState;
use axum::Router;

pub struct SiteState {}

impl SiteState {
    pub fn new(_config: &Config) -> anyhow::Result<Self> {
        Ok(SiteState {})
    }
}

pub fn router() -> Router<AppState> {
    Router::new()
}
