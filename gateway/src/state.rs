//! What every handler shares: configuration, the pool, the key set, and each surface's own state.

use crate::config::Config;
use arc_swap::ArcSwap;
use deadpool_postgres::Pool;
use jwks::KeySet;
use std::sync::Arc;

#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub pool: Pool,
    /// Swapped atomically when keys are rotated.
    pub keys: Arc<ArcSwap<KeySet>>,
    pub rest: Arc<crate::rest::RestState>,
    pub auth: Arc<crate::auth::AuthState>,
    pub storage: Arc<crate::storage::StorageState>,
    pub site: Arc<crate::site::SiteState>,
}
