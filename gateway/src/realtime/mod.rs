//! Supabase Realtime (`/realtime/v1`): the WebSocket at `/websocket` (Phoenix framing, vsn 1.0.0 and 2.0.0),
//! broadcast (public and private channels, from clients, REST and the database), presence, and postgres_changes
//! from logical replication — generic, configured by Realtime's own conventions. The module owns its state,
//! router and background tasks and uses the request core only through the pool, the key set and the
//! configuration.

pub mod admission;
pub mod changes;
pub mod channel_policies;
pub mod cluster;
pub mod config;
pub mod credentials;
mod db_broadcast;
pub mod frames;
pub mod hub;
pub mod limits;
pub mod message;
pub mod outbound;
pub mod presence;
pub mod protocol;
mod rest;
mod session;
mod socket;

use crate::core::config::Config;
use crate::core::Core;
use arc_swap::ArcSwap;
use axum::extract::FromRef;
use axum::routing::{get, post};
use axum::Router;
use jwks::KeySet;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Realtime's state as its handlers receive it; cloning it is one reference count.
pub type Realtime = Arc<RealtimeState>;

pub struct RealtimeState {
    /// The gateway's configuration (API keys, the database).
    pub core_config: Arc<Config>,
    /// Realtime's own.
    pub config: config::RealtimeConfig,
    pub pool: deadpool_postgres::Pool,
    pub keys: Arc<ArcSwap<KeySet>>,
    /// Ended sessions and deleted users (the core's, fed by PostgreSQL).
    pub revocations: Arc<crate::core::revocation::Revocations>,
    pub hub: Arc<hub::Hub>,
    pub cluster: Arc<cluster::Cluster>,
    pub changes: Arc<changes::Changes>,
    pub joins: limits::Rate,
    pub events: limits::Rate,
    sockets: Arc<AtomicUsize>,
    next_id: AtomicU64,
}

/// Counts a socket while it is open.
pub struct SocketGuard(Arc<AtomicUsize>);

impl Drop for SocketGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl RealtimeState {
    pub fn new(core: &Core) -> Self {
        let (core_config, pool, keys) = (core.config.clone(), core.pool.clone(), core.keys.clone());
        let config = config::RealtimeConfig::from_vars(
            &core_config.vars,
            &core_config.db_uri,
            core_config.admin_db_uri.as_deref(),
        );
        let node = uuid::Uuid::new_v4();
        let cluster = Arc::new(cluster::Cluster::new(node));
        let alive: changes::Liveness = {
            let cluster = cluster.clone();
            Arc::new(move |other| cluster.is_alive(other))
        };
        let changes = changes::Changes::new(pool.clone(), core_config.db_uri.clone(), &config, node, alive);
        RealtimeState {
            joins: limits::Rate::new(config.max_joins_per_second),
            events: limits::Rate::new(config.max_events_per_second),
            hub: Arc::new(hub::Hub::new(node)),
            cluster,
            changes: Arc::new(changes),
            config,
            core_config,
            pool,
            keys,
            revocations: core.revocations.clone(),
            sockets: Arc::new(AtomicUsize::new(0)),
            next_id: AtomicU64::new(1),
        }
    }

    /// Verifies a connect or channel token (`credentials::verify`) against the key set in force.
    pub fn verify(&self, token: &str) -> Result<credentials::Credentials, credentials::TokenError> {
        credentials::verify(token, &self.checks(&self.keys.load()))
    }

    /// With `GATEWAY_REQUIRE_APIKEY`, refuses a connect key or `apikey` that is not a key of this gateway.
    pub fn require_api_key(&self, key: Option<&str>) -> Result<(), credentials::TokenError> {
        credentials::require_api_key(key, &self.checks(&self.keys.load()))
    }

    /// What tokens are checked against, with the key set in force.
    fn checks<'a>(&'a self, keys: &'a KeySet) -> credentials::Checks<'a> {
        credentials::Checks { keys, config: &self.core_config, revocations: &self.revocations }
    }

    pub fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Takes a socket slot, unless the instance is at its cap.
    pub fn admit_socket(&self) -> Option<SocketGuard> {
        let now = self.sockets.fetch_add(1, Ordering::SeqCst);
        let guard = SocketGuard(self.sockets.clone());
        (now < self.config.max_concurrent_users).then_some(guard)
    }

    pub fn socket_count(&self) -> usize {
        self.sockets.load(Ordering::SeqCst)
    }
}

/// The routes under `/realtime/v1`.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Realtime: FromRef<S>,
{
    let cors = tower_http::cors::CorsLayer::new()
        .allow_origin(tower_http::cors::AllowOrigin::any())
        .allow_methods([http::Method::POST, http::Method::OPTIONS])
        .allow_headers(tower_http::cors::Any);
    Router::new()
        .route("/websocket", get(socket::upgrade))
        .route("/api/broadcast", post(rest::batch).layer(cors.clone()))
        .route("/api/broadcast/{topic}/events/{event}", post(rest::single).layer(cors))
        .route("/api/ping", get(|| async { axum::Json(serde_json::json!({ "message": "Success" })) }))
}

/// Background work: the cluster bus, the change stream manager, retention.
pub fn spawn_background(state: &Arc<RealtimeState>) {
    cluster::spawn(state.cluster.clone(), state.hub.clone(), state.core_config.db_uri.clone());
    let changes = state.changes.clone();
    tokio::spawn(async move {
        changes.check_capability().await;
        changes.run().await;
    });
    let (pool, retention) = (state.pool.clone(), state.config.messages_retention);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(60));
        loop {
            every.tick().await;
            if let Ok(client) = pool.get().await {
                let secs = retention.as_secs() as f64;
                if let Err(e) =
                    client.execute("select realtime.delete_expired(make_interval(secs => $1))", &[&secs]).await
                {
                    tracing::debug!(error = %e, "realtime retention sweep failed");
                }
            }
        }
    });
}

/// On shutdown: tell the other instances this one's presences are gone, and drop this instance's replication slot.
pub async fn shutdown(state: &RealtimeState) {
    if state.cluster.has_peers() {
        state.cluster.leave(&state.core_config.db_uri).await;
    }
    state.changes.stop().await;
}
