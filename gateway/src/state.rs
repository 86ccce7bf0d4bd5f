//! What every handler shares: configuration, the pool, the key set, and each surface's own state.

use crate::core::config::Config;
use arc_swap::ArcSwap;
use deadpool_postgres::Pool;
use jwks::KeySet;
use std::sync::Arc;

/// Shared by every handler; cloning it (axum does, per request) is one reference count.
#[derive(Clone)]
pub struct AppState(Arc<SharedState>);

impl AppState {
    pub fn new(shared: SharedState) -> Self {
        AppState(Arc::new(shared))
    }
}

impl std::ops::Deref for AppState {
    type Target = SharedState;

    fn deref(&self) -> &SharedState {
        &self.0
    }
}

pub struct SharedState {
    pub config: Arc<Config>,
    pub pool: Pool,
    /// Swapped atomically when keys are rotated.
    pub keys: Arc<ArcSwap<KeySet>>,
    /// Verified tokens, so repeated requests skip signature checks.
    pub identities: crate::core::identity::cache::IdentityCache,
    /// The API roles' own settings, swapped on every schema reload.
    pub role_settings: ArcSwap<crate::core::role_settings::RoleSettings>,
    pub rest: Arc<crate::rest::RestState>,
    pub auth: Arc<crate::auth::AuthState>,
    pub storage: Arc<crate::storage::StorageState>,
    pub site: Arc<crate::site::SiteState>,
    pub realtime: Arc<crate::realtime::RealtimeState>,
}
