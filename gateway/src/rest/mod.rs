//! The PostgREST-compatible data API under `/rest/v1`: request → parse → plan → SQL → execute → response.

pub mod allow_on_options;
pub mod caller;
pub mod config;
pub mod error;
pub mod execute;
pub mod fragment;
mod handler;
pub mod openapi;
pub mod plan;
pub mod replica;
pub mod request;
pub mod response;
mod run;
pub mod schema_cache;
pub mod service;
pub mod sql;
mod statement;

use crate::core::db::replicas::{ReplicaConfig, Replicas};
use crate::core::reload::Hook;
use crate::core::shared::Shared;
use crate::core::Core;
use arc_swap::ArcSwap;
use axum::http::{HeaderName, Method};
use config::RestConfig;
use schema_cache::SchemaCache;
use std::sync::Arc;
use tower_http::cors::{AllowHeaders, AllowOrigin, CorsLayer};

/// The data API's state as its handlers receive it; cloning it is one reference count (axum clones it per
/// request).
pub type Rest = Shared<RestState>;

/// The data API's own state: the core, its configuration and the schema cache (swapped atomically on reload).
pub struct RestState {
    pub core: Core,
    pub config: RestConfig,
    pub cache: ArcSwap<SchemaCache>,
    /// Pipelined connections for request transactions, one pool per HTTP worker so a connection is used on the
    /// thread that drives it (the shared pool serves everything else).
    pools: Vec<crate::core::db::pipeline::Pool>,
    /// Standbys that may carry GET and HEAD (`GATEWAY_READ_REPLICA_URLS`; none by default).
    pub replicas: Arc<Replicas>,
}

impl Rest {
    /// Reads the `pgrst.*` settings and the schema cache, and opens the pipelined pools.
    pub async fn load(core: &Core) -> anyhow::Result<Self> {
        let core_config = &core.config;
        let client = core.pool.get().await.map_err(|e| anyhow::anyhow!("cannot connect to the database: {e}"))?;
        let db_config = config::load_db_config(&client).await?;
        let config = RestConfig::new(core_config, &db_config);
        let cache = schema_cache::load::load(&**client, &config.schemas, &config.roles).await?;
        let replicas = ReplicaConfig::from_vars(&core_config.vars, core_config.pool_size);
        let replicas = Replicas::build(replicas, core_config.http_workers, core_config.pool_timeout)?;
        replicas.hold_until_replayed(&client).await;
        let pools = crate::core::db::pipeline::pool::per_worker(
            &core_config.db_uri.parse()?,
            core_config.pool_size,
            core_config.http_workers,
            core_config.pool_timeout,
        )?;
        let cache = ArcSwap::from_pointee(cache);
        Ok(Shared::from(RestState { core: core.clone(), config, cache, pools, replicas }))
    }

    /// Starts the read replicas' monitor (nothing without replicas).
    pub fn spawn_background(&self) {
        self.replicas.spawn_monitor(self.core.pool.clone());
    }

    /// Rebuilds the schema cache and swaps it in; on failure the old cache stays.
    pub async fn reload_cache(&self) {
        match self.load_cache().await {
            Ok(cache) => {
                self.cache.store(Arc::new(cache));
                tracing::info!("rest: schema cache reloaded");
            }
            Err(e) => tracing::error!(error = %e, "rest: schema cache reload failed; keeping the previous cache"),
        }
    }

    /// The data API's part of a schema reload (`core::reload`): its schema cache.
    pub fn reload_hook(&self) -> Hook {
        let rest = self.clone();
        Arc::new(move || {
            let rest = rest.clone();
            Box::pin(async move { rest.reload_cache().await })
        })
    }
}

impl RestState {
    /// The pipelined pool of the HTTP worker this runs on.
    pub fn pool(&self) -> &crate::core::db::pipeline::Pool {
        &self.pools[crate::core::workers::current() % self.pools.len()]
    }

    /// The state of each worker's pipelined pool (for the metrics).
    pub fn pool_statuses(&self) -> Vec<deadpool::Status> {
        self.pools.iter().map(|p| p.status()).collect()
    }

    /// Builds a fresh cache (the caller swaps it in); reads stay off the standbys until they have replayed it.
    async fn load_cache(&self) -> anyhow::Result<SchemaCache> {
        let client = self.core.pool.get().await.map_err(|e| anyhow::anyhow!("cannot connect to the database: {e}"))?;
        let cache = schema_cache::load::load(&**client, &self.config.schemas, &self.config.roles).await?;
        self.replicas.hold_until_replayed(&client).await;
        Ok(cache)
    }
}

/// CORS for browsers on every data API answer (any origin, request headers mirrored, counts and profiles exposed).
fn cors() -> CorsLayer {
    let expose = [
        "content-encoding",
        "content-location",
        "content-range",
        "content-type",
        "content-profile",
        "date",
        "location",
        "preference-applied",
        "server",
        "transfer-encoding",
        "range-unit",
        "proxy-status",
    ];
    CorsLayer::new()
        // PostgREST without configured origins answers `*` (credentials are bearer tokens, never cookies)
        .allow_origin(AllowOrigin::any())
        .allow_methods([
            Method::GET,
            Method::HEAD,
            Method::POST,
            Method::PATCH,
            Method::PUT,
            Method::DELETE,
            Method::OPTIONS,
        ])
        .allow_headers(AllowHeaders::mirror_request())
        .expose_headers(expose.map(HeaderName::from_static))
        .max_age(std::time::Duration::from_secs(86400))
        // the layer would join its `Vary` list into a fresh value on every answer; the same text is added as a
        // constant instead (`allow_on_options::VARY`, on preflights there and on every other answer in `service`)
        .vary(Vec::<HeaderName>::new())
}
