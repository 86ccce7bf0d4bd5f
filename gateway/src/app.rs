//! Building the application: state from configuration, the router of every surface, and the listener.

use crate::core::config::Config;
use crate::core::location::AllowedTargets;
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
        crate::core::client_addr::TrustedProxies::from_vars(&state.config.vars)
            .unwrap_or_else(|_| crate::core::client_addr::TrustedProxies::none()),
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
        .layer(tower::util::MapResponseLayer::new(move |r| crate::core::location::guard(&targets, r)))
        .layer(crate::core::client_addr::StampLayer(proxies))
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
        crate::core::client_addr::TrustedProxies::from_vars(&config.vars)?;
        crate::monitoring::address(&config.vars)?;
        let listener = TcpListener::bind((config.host.as_str(), config.port)).await?;
        if config.vars.first(&["API_EXTERNAL_URL", "GATEWAY_EXTERNAL_URL"]).is_none() {
            let addr = listener.local_addr()?;
            let host = if addr.ip().is_unspecified() { "127.0.0.1".to_string() } else { addr.ip().to_string() };
            config.external_url = format!("http://{host}:{}", addr.port());
        }
        let config = Arc::new(config);
        let pool = crate::core::db::pool::build(&config.db_uri, config.pool_size, config.pool_timeout)?;
        let client = pool.get().await.map_err(|e| anyhow::anyhow!("cannot connect to the database: {e}"))?;
        crate::core::db::safety::check_pool_user(&client).await?;
        let site_url = crate::auth::config::AuthConfig::from_config(&config).site_url;
        crate::production::check(&config, &client, &site_url).await?;
        let keys = crate::core::keys::load_configured(&client, &config).await?;
        let role_settings =
            crate::core::role_settings::RoleSettings::load(&**client, &crate::core::role_settings::api_roles(&config))
                .await
                .map_err(|e| anyhow::anyhow!("cannot read the API roles' settings: {e}"))?;
        if keys.current().is_none() {
            anyhow::bail!("no current signing key; run `gateway migrate` first");
        }
        drop(client);
        let keys = Arc::new(ArcSwap::from_pointee(keys));
        let rest = Arc::new(crate::rest::RestState::load(&config, &pool).await?);
        let auth = Arc::new(crate::auth::AuthState::new(&config, &pool).await?);
        let storage = Arc::new(crate::storage::StorageState::new(&config).await?);
        let site = Arc::new(crate::site::SiteState::new(&config)?);
        crate::core::db::public_urls::record(&pool, &config.external_url, &auth.config.site_url).await;
        let realtime = Arc::new(crate::realtime::RealtimeState::new(config.clone(), pool.clone(), keys.clone()));
        let state = AppState::new(crate::state::SharedState {
            config: config.clone(),
            pool,
            keys,
            identities: Default::default(),
            role_settings: ArcSwap::from_pointee(role_settings),
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

    /// Starts background work (schema reload listener, mailer, …) and serves until `shutdown` resolves.
    pub async fn serve(self, shutdown: impl std::future::Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        crate::rest::spawn_background(&self.state);
        crate::auth::spawn_background(&self.state);
        crate::storage::spawn_background(&self.state);
        crate::realtime::spawn_background(&self.state.realtime);
        if let Some(addr) = crate::monitoring::address(&self.state.config.vars)? {
            crate::monitoring::start(&self.state, addr)?;
        }
        let workers = self.state.config.http_workers;
        let vars = &self.state.config.vars;
        let proxies = crate::core::client_addr::TrustedProxies::from_vars(vars)?;
        let limits = crate::core::conn::ConnLimits::from_vars(vars, proxies);
        let realtime = self.state.realtime.clone();
        let shutdown = async move {
            shutdown.await;
            crate::realtime::shutdown(&realtime).await;
        };
        crate::core::workers::serve(self.listener, router(self.state), workers, limits, shutdown).await
    }
}
