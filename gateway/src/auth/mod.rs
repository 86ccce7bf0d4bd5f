//! Supabase Auth (GoTrue) under `/auth/v1`: the route table, the auth state, and the layers every auth route
//! shares (API-version error format, CORS, the API key check).

mod admin_links;
mod admin_users;
pub mod config;
pub mod domain;
pub mod error;
mod form_value;
mod jwks_document;
mod logout;
mod magiclink;
pub mod mail;
mod otp;
pub mod rate_limit;
mod recover;
pub mod request;
mod resend;
pub mod session;
mod settings;
mod signup;
pub mod store;
mod token;
mod user;
mod verify;

use crate::auth::error::RenderedError;
use crate::config::Config;
use crate::state::AppState;
use axum::extract::Request;
use axum::http::{HeaderValue, Method};
use axum::middleware::{from_fn, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use deadpool_postgres::Pool;
use tower_http::cors::{AllowOrigin, CorsLayer};

/// What the auth endpoints share besides `AppState`.
pub struct AuthState {
    pub config: config::AuthConfig,
    pub limiter: rate_limit::RateLimiter,
    pub hasher: domain::password::PasswordHasher,
    pub mailer: crate::mail::Mailer,
}

impl AuthState {
    pub async fn new(config: &Config, _pool: &Pool) -> anyhow::Result<Self> {
        let auth = config::AuthConfig::from_config(config);
        // its own two connections: a limit checked while a request holds a pooled connection never waits for another
        let buckets = crate::db::pool::build(&config.db_uri, 2, config.pool_timeout)?;
        Ok(AuthState {
            hasher: domain::password::PasswordHasher::new(auth.hash_concurrency, auth.bcrypt_cost),
            limiter: rate_limit::RateLimiter::shared(buckets),
            mailer: crate::mail::Mailer::from_vars(&config.vars),
            config: auth,
        })
    }
}

/// The routes under `/auth/v1`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/signup", post(signup::handler))
        .route("/token", post(token::handler))
        .route("/logout", post(logout::handler))
        .route("/user", get(user::get).put(user::put))
        .route("/reauthenticate", get(user::reauthenticate))
        .route("/recover", post(recover::handler))
        .route("/otp", post(magiclink::handler))
        .route("/magiclink", post(magiclink::handler))
        .route("/resend", post(resend::handler))
        .route("/verify", get(verify::get).post(verify::post))
        .route("/settings", get(settings::handler))
        .route("/health", get(settings::health))
        .route("/invite", post(admin_links::invite))
        .route("/admin/generate_link", post(admin_links::generate_link))
        .route("/admin/users", get(admin_users::list).post(admin_users::create))
        .route("/admin/users/{id}", get(admin_users::get).put(admin_users::update).delete(admin_users::delete))
        .route("/.well-known/jwks.json", get(jwks_document::handler))
        .layer(from_fn(limit_body))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(from_fn(api_version))
        .layer(cors())
}

/// GoTrue's request body limit.
const MAX_BODY_BYTES: usize = 1024 * 1024;

/// Refuses a declared body over the limit with GoTrue's 413 (chunked bodies stop at the same limit while read).
async fn limit_body(req: Request, next: Next) -> Response {
    if crate::body::declared_length(req.headers()).is_some_and(|n| n > MAX_BODY_BYTES) {
        crate::body::drain(req.into_body()).await;
        return error::AuthError::new(
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            "request_entity_too_large",
            format!("Request body too large (max {MAX_BODY_BYTES} bytes)"),
        )
        .into_response();
    }
    next.run(req).await
}

/// Renders errors in the 2024-01-01 format and echoes the version when the client sent
/// `X-Supabase-Api-Version` (auth-js always does).
async fn api_version(req: Request, next: Next) -> Response {
    let versioned = req.headers().get("x-supabase-api-version").is_some();
    let mut res = next.run(req).await;
    if !versioned {
        return res;
    }
    if let Some(RenderedError(err)) = res.extensions().get::<RenderedError>().cloned() {
        let headers = res.headers().clone();
        res = (err.status, Json(err.versioned_body())).into_response();
        for (name, value) in headers.iter() {
            if name != axum::http::header::CONTENT_TYPE && name != axum::http::header::CONTENT_LENGTH {
                res.headers_mut().insert(name.clone(), value.clone());
            }
        }
    }
    res.headers_mut().insert("x-supabase-api-version", HeaderValue::from_static("2024-01-01"));
    res
}

/// GoTrue's CORS (plus `apikey`, as Kong allows it): any origin, credentials, and the exposed headers auth-js reads.
fn cors() -> CorsLayer {
    use axum::http::HeaderName;
    let h = |s: &'static str| HeaderName::from_static(s);
    CorsLayer::new()
        .allow_origin(AllowOrigin::mirror_request())
        .allow_credentials(true)
        .allow_methods([Method::GET, Method::POST, Method::PUT, Method::PATCH, Method::DELETE])
        .allow_headers([
            h("accept"),
            h("authorization"),
            h("content-type"),
            h("apikey"),
            h("x-client-ip"),
            h("x-client-info"),
            h("x-jwt-aud"),
            h("x-use-cookie"),
            h("x-supabase-api-version"),
            h("x-retry-count"),
        ])
        .expose_headers([h("x-total-count"), h("link"), h("x-supabase-api-version"), h("x-sb-error-code")])
}

/// Starts the key-set reloader (keys changed by `gateway keys` reach every running gateway).
pub fn spawn_background(state: &AppState) {
    crate::keystore::spawn_reloader(state);
}
