//! Building the application: state from configuration, the router of every surface, and the listener.

use crate::config::Config;
use crate::location::AllowedTargets;
use crate::state::AppState;
use arc_swap::ArcSwap;
use axum::Router;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;

/// The whole HTTP surface.
pub fn router(state: AppState) -> Router {
    let targets = redirect_targets(&state);
    let measured = matches!(crate::monitoring::address(&state.config.vars), Ok(Some(_)));
    // Application::build refuses a malformed list; a router built otherwise trusts no proxy.
    let proxies = Arc::new(
        crate::client_addr::TrustedProxies::from_vars(&state.config.vars)
            .unwrap_or_else(|_| crate::client_addr::TrustedProxies::none()),
    );
    Router::new()
        .merge(crate::health::router(&state))
        .nest("/rest/v1", crate::rest::router())
        .merge(crate::rest::root_with_slash())
        .nest("/auth/v1", crate::auth::router())
        .nest("/storage/v1", crate::storage::router())
        .nest("/realtime/v1", crate::realtime::router(state.realtime.clone()))
        .merge(crate::site::router())
        .layer(crate::site::headers::security_headers())
        .layer(tower::util::option_layer(crate::site::headers::hsts(&state.config.external_url)))
        .layer(tower::util::MapResponseLayer::new(move |r| crate::location::guard(&targets, r)))
        .layer(crate::client_addr::StampLayer(proxies))
        .layer(crate::monitoring::RequestIdLayer { measured })
        .with_state(state)
}

/// Where a `Location` may point: this gateway, the site, and Auth's redirect allow-list.
fn redirect_targets(state: &AppState) -> Arc<AllowedTargets> {
    let auth = &state.auth.config;
    Arc::new(AllowedTargets {
        external_url: state.config.external_url.clone(),
        site_url: auth.site_url.clone(),
        allow_list: auth.uri_allow_list.clone(),
    })
}

/// A built, bound application, ready to serve.
pub struct Application {
    listener: TcpListener,
    state: AppState,
}

impl Application {
    /// Connects, checks the pool user, loads keys and each surface's state, and binds `host:port` (port 0 in tests).
    pub async fn build(mut config: Config) -> anyhow::Result<Self> {
        crate::client_addr::TrustedProxies::from_vars(&config.vars)?;
        crate::monitoring::address(&config.vars)?;
        let listener = TcpListener::bind((config.host.as_str(), config.port)).await?;
        if config.vars.first(&["API_EXTERNAL_URL", "GATEWAY_EXTERNAL_URL"]).is_none() {
            let addr = listener.local_addr()?;
            let host = if addr.ip().is_unspecified() { "127.0.0.1".to_string() } else { addr.ip().to_string() };
            config.external_url = format!("http://{host}:{}", addr.port());
        }
        let config = Arc::new(config);
        let pool = crate::db::pool::build(&config.db_uri, config.pool_size, config.pool_timeout)?;
        let client = pool.get().await.map_err(|e| anyhow::anyhow!("cannot connect to the database: {e}"))?;
        crate::db::safety::check_pool_user(&client).await?;
        let site_url = crate::auth::config::AuthConfig::from_config(&config).site_url;
        crate::production::check(&config, &client, &site_url).await?;
        let keys = crate::keystore::load_configured(&client, &config).await?;
        if keys.current().is_none() {
            anyhow::bail!("no current signing key; run `gateway migrate` first");
        }
        drop(client);
        let keys = Arc::new(ArcSwap::from_pointee(keys));
        let rest = Arc::new(crate::rest::RestState::load(&config, &pool).await?);
        let auth = Arc::new(crate::auth::AuthState::new(&config, &pool).await?);
        let storage = Arc::new(crate::storage::StorageState::new(&config, &pool).await?);
        let site = Arc::new(crate::site::SiteState::new(&config)?);
        crate::db::public_urls::record(&pool, &config.external_url, &auth.config.site_url).await;
        let realtime = Arc::new(crate::realtime::RealtimeState::new(config.clone(), pool.clone(), keys.clone()));
        let state = AppState::new(crate::state::SharedState {
            config: config.clone(),
            pool,
            keys,
            rest,
            auth,
            storage,
            site,
            realtime,
        });
        Ok(Application { listener, state })
    }

    pub fn local_addr(&self) -> anyhow::Result<SocketAddr> {
        Ok(self.listener.local_addr()?)
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Starts background work (schema reload listener, mailer, …) and serves until `shutdown` resolves; then, within
    /// `GATEWAY_SHUTDOWN_TIMEOUT_SECS`, requests in flight finish and the outbox sends or releases its message.
    pub async fn serve(self, shutdown: impl std::future::Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        crate::rest::spawn_background(&self.state);
        crate::auth::spawn_background(&self.state);
        crate::storage::spawn_background(&self.state);
        let outbox = crate::outbox::spawn(&self.state);
        crate::realtime::spawn_background(&self.state.realtime);
        if let Some(addr) = crate::monitoring::address(&self.state.config.vars)? {
            crate::monitoring::start(&self.state, addr)?;
        }
        let workers = self.state.config.http_workers;
        let vars = &self.state.config.vars;
        let proxies = crate::client_addr::TrustedProxies::from_vars(vars)?;
        let limits = crate::conn::ConnLimits::from_vars(vars, proxies);
        let realtime = self.state.realtime.clone();
        let (bound, outbox_stop) = (limits.drain, outbox.as_ref().map(|o| o.stopper()));
        let shutdown = async move {
            shutdown.await;
            if let Some(outbox) = outbox_stop {
                outbox.stop(bound);
            }
            crate::realtime::shutdown(&realtime).await;
        };
        let served = crate::workers::serve(self.listener, router(self.state), workers, limits, shutdown).await;
        if let Some(outbox) = outbox {
            outbox.finished(bound).await;
        }
        served
    }
}
