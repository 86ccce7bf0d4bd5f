//! Supabase Auth (GoTrue) under `/auth/v1`: the route table, the auth state, and the layers every auth route
//! shares (API-version error format, CORS, the API key check).

mod admin;
mod admin_links;
mod admin_users;
mod api_key;
pub mod config;
pub mod domain;
pub mod error;
pub mod error_code;
mod form_value;
mod jwks_document;
mod layers;
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

use crate::core::shared::Shared;
use crate::core::Core;
use axum::extract::FromRef;
use axum::middleware::from_fn_with_state;
use axum::routing::{get, post, MethodRouter};
use axum::Router;

/// Auth's state as its handlers receive it; cloning it is one reference count.
pub type Auth = Shared<AuthState>;

/// What the auth endpoints share: the core, Auth's settings, its rate limits and password hashing.
pub struct AuthState {
    pub core: Core,
    pub config: config::AuthConfig,
    pub limiter: rate_limit::RateLimiter,
    pub hasher: domain::password::PasswordHasher,
}

impl Auth {
    pub fn new(core: &Core) -> anyhow::Result<Self> {
        let auth = config::AuthConfig::from_config(&core.config);
        // its own two connections: a limit checked while a request holds a pooled connection never waits for another
        let buckets = crate::core::db::pool::build(&core.config.db_uri, 2, core.config.pool_timeout)?;
        Ok(Shared::from(AuthState {
            core: core.clone(),
            hasher: domain::password::PasswordHasher::new(auth.hash_concurrency, auth.bcrypt_cost),
            limiter: rate_limit::RateLimiter::shared(buckets),
            config: auth,
        }))
    }
}

impl AuthState {
    /// Takes a request from `key`'s bucket of limit `bucket`; an empty bucket is GoTrue's 429.
    pub async fn admit(&self, bucket: &'static str, key: &str, rate: rate_limit::Rate) -> error::AuthResult<()> {
        match self.limiter.check(bucket, key, rate).await {
            true => Ok(()),
            false => Err(error::AuthError::rate_limited()),
        }
    }
}

/// The routes under `/auth/v1`; every route but the e-mail link (`/verify`), the JWKS and `/health` behind the
/// API-key gate, and the admin API behind the admin gate too.
pub fn router<S>(auth: &Auth) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Auth: FromRef<S>,
{
    let keyed = |route: MethodRouter<S>| route.route_layer(from_fn_with_state(auth.clone(), api_key::require));
    let admin = |route: MethodRouter<S>| keyed(route.route_layer(from_fn_with_state(auth.clone(), admin::require)));
    Router::new()
        .route("/signup", keyed(post(signup::handler)))
        .route("/token", keyed(post(token::handler)))
        .route("/logout", keyed(post(logout::handler)))
        .route("/user", keyed(get(user::get).put(user::put)))
        .route("/reauthenticate", keyed(get(user::reauthenticate)))
        .route("/recover", keyed(post(recover::handler)))
        .route("/otp", keyed(post(magiclink::handler)))
        .route("/magiclink", keyed(post(magiclink::legacy)))
        .route("/resend", keyed(post(resend::handler)))
        .route("/verify", get(verify::get).post(verify::post))
        .route("/settings", keyed(get(settings::handler)))
        .route("/health", get(settings::health))
        .route("/invite", admin(post(admin_links::invite)))
        .route("/admin/generate_link", admin(post(admin_links::generate_link)))
        .route("/admin/users", admin(get(admin_users::list).post(admin_users::create)))
        .route("/admin/users/{id}", admin(get(admin_users::get).put(admin_users::update).delete(admin_users::delete)))
        .route("/.well-known/jwks.json", get(jwks_document::handler))
        .layer(axum::middleware::from_fn(layers::limit_body))
        .layer(axum::extract::DefaultBodyLimit::max(layers::MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn(layers::api_version))
        .layer(axum::middleware::from_fn(layers::log_failures))
        .layer(layers::cors())
}
