//! Building the application: the core from configuration, each API's state on it, the router of every API, the
//! background work, and the listener.

mod dispatch;
mod router;
mod state;

pub use router::router;
pub use state::{Apis, AppState};

use crate::core::config::Config;
use crate::core::Core;
use crate::monitoring::Sampled;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;

/// A built, bound application, ready to serve.
pub struct Application {
    listener: TcpListener,
    state: AppState,
}

impl Application {
    /// Connects, checks the pool user, loads keys and each API's state, and binds `host:port` (port 0 in tests).
    pub async fn build(mut config: Config) -> anyhow::Result<Self> {
        crate::core::client_addr::TrustedProxies::from_vars(&config.vars)?;
        crate::monitoring::address(&config.vars)?;
        let listener = TcpListener::bind((config.host.as_str(), config.port)).await?;
        if config.vars.first(&["API_EXTERNAL_URL", "GATEWAY_EXTERNAL_URL"]).is_none() {
            let addr = listener.local_addr()?;
            let host = if addr.ip().is_unspecified() { "127.0.0.1".to_string() } else { addr.ip().to_string() };
            config.external_url = format!("http://{host}:{}", addr.port());
        }
        let core = connect(Arc::new(config)).await?;
        let state = AppState::new(Apis {
            rest: crate::rest::Rest::load(&core).await?,
            auth: crate::auth::Auth::new(&core)?,
            storage: crate::storage::Storage::new(&core).await?,
            site: crate::site::Site::new(&core)?,
            realtime: Arc::new(crate::realtime::RealtimeState::new(&core)),
            core,
        });
        let site_url = &state.auth.config.site_url;
        crate::core::db::public_urls::record(&state.core.pool, &state.core.config.external_url, site_url).await;
        Ok(Application { listener, state })
    }

    pub fn local_addr(&self) -> anyhow::Result<SocketAddr> {
        Ok(self.listener.local_addr()?)
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Starts background work (schema reload listener, key reloader, mail outbox, storage sweep, Realtime, …) and
    /// serves until `shutdown` resolves; then `/ready` answers 503 while it serves on for
    /// `GATEWAY_SHUTDOWN_DELAY_SECS`, and within `GATEWAY_SHUTDOWN_TIMEOUT_SECS` after that requests in flight
    /// finish and the outbox sends or releases its message.
    pub async fn serve(self, shutdown: impl std::future::Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        let state = &self.state;
        let outbox = state.core.spawn_background();
        state.reloader().spawn();
        state.rest.spawn_background();
        crate::storage::spawn_background(&state.storage);
        crate::realtime::spawn_background(&state.realtime);
        if let Some(addr) = crate::monitoring::address(&state.core.config.vars)? {
            let sampled =
                Sampled { core: state.core.clone(), rest: state.rest.clone(), realtime: state.realtime.clone() };
            crate::monitoring::start(sampled, addr)?;
        }
        let workers = state.core.config.http_workers;
        let vars = &state.core.config.vars;
        let proxies = crate::core::client_addr::TrustedProxies::from_vars(vars)?;
        let limits = crate::core::conn::ConnLimits::from_vars(vars, proxies);
        let realtime = state.realtime.clone();
        let (bound, outbox_stop) = (limits.drain, outbox.as_ref().map(|o| o.stopper()));
        let (core, delay) = (state.core.clone(), limits.stop_delay);
        let shutdown = async move {
            shutdown.await;
            // out of the balancer's rotation first (`/ready` 503), still serving, then the listeners close
            core.stopping.begin();
            if !delay.is_zero() {
                tracing::info!(
                    secs = delay.as_secs_f64(),
                    "shutdown: /ready answers 503; serving on until the delay ends"
                );
                tokio::time::sleep(delay).await;
            }
            if let Some(outbox) = outbox_stop {
                outbox.stop(bound);
            }
            crate::realtime::shutdown(&realtime).await;
        };
        let served = crate::core::workers::serve(self.listener, router(self.state), workers, limits, shutdown).await;
        if let Some(outbox) = outbox {
            outbox.finished(bound).await;
        }
        served
    }
}

/// The pool, checked (the pool user, production's refusals) before anything is served, and the core on it.
async fn connect(config: Arc<Config>) -> anyhow::Result<Core> {
    let pool = crate::core::db::pool::build(&config.db_uri, config.pool_size, config.pool_timeout)?;
    let client = pool.get().await.map_err(|e| anyhow::anyhow!("cannot connect to the database: {e}"))?;
    crate::core::db::safety::check_pool_user(&client).await?;
    let site_url = crate::auth::config::AuthConfig::from_config(&config).site_url;
    crate::production::check(&config, &client, &site_url).await?;
    Core::load(config.clone(), pool.clone(), &client).await
}
