//! The whole HTTP surface: the data API's service, the probes and every other API's router at its mount, then the
//! layers every answer passes (security headers, HSTS, the `Location` guard, the client's address, the request id).

use super::dispatch::Dispatch;
use super::AppState;
use crate::core::location::AllowedTargets;
use axum::extract::Request;
use axum::response::Response;
use axum::Router;
use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;

/// Every API over `state`, as the one service each connection serves.
pub fn router(
    state: AppState,
) -> impl tower::Service<
    Request,
    Response = Response,
    Error = Infallible,
    Future = impl Future<Output = Result<Response, Infallible>> + Send + 'static,
> + Clone
       + Send
       + Sync
       + 'static {
    let config = &state.core.config;
    let targets = redirect_targets(&state);
    let measured = matches!(crate::monitoring::address(&config.vars), Ok(Some(_)));
    // Application::build refuses a malformed list; a router built otherwise trusts no proxy.
    let proxies = Arc::new(
        crate::core::client_addr::TrustedProxies::from_vars(&config.vars)
            .unwrap_or_else(|_| crate::core::client_addr::TrustedProxies::none()),
    );
    let hsts = crate::site::headers::hsts(&config.external_url);
    let rest = crate::rest::service::service(state.rest.clone());
    let apis = Router::new()
        .merge(crate::health::router(&state.core))
        .nest("/auth/v1", crate::auth::router(&state.auth))
        .nest("/storage/v1", crate::storage::router())
        .nest("/realtime/v1", crate::realtime::router())
        .merge(crate::site::router())
        .with_state(state);
    // Around the whole surface rather than `Router::layer` (which wraps every route in a boxed service of its own,
    // cloned and boxed again on every request), and served as it is (no router around it, whose fallback would box
    // it once more): the first layer listed is the outermost. Nothing here reads what routing adds to a request
    // (matched path, nesting).
    let layers = tower::ServiceBuilder::new()
        .layer(crate::monitoring::RequestIdLayer { measured })
        .layer(crate::core::client_addr::StampLayer(proxies))
        .layer(tower::util::MapResponseLayer::new(move |r| crate::core::location::guard(&targets, r)))
        .layer(tower::util::option_layer(hsts))
        .layer(crate::site::headers::security_headers());
    layers.service(Dispatch { rest, apis })
}

/// Where a `Location` may point: this gateway, the site, and Auth's redirect allow-list.
fn redirect_targets(state: &AppState) -> Arc<AllowedTargets> {
    let auth = &state.auth.config;
    Arc::new(AllowedTargets {
        external_url: state.core.config.external_url.clone(),
        site_url: auth.site_url.clone(),
        allow_list: auth.uri_allow_list.clone(),
    })
}
