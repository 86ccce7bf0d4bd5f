//! The core's state: what every API shares (configuration, the shared pool, the key set, the identity cache, the
//! roles' settings, the mailer), and the request work done on it — identifying a caller, building a request's
//! context.

use super::config::Config;
use super::context::{Request, RequestContext};
use super::identity::cache::IdentityCache;
use super::identity::{Rejection, Verified};
use super::revocation::{self, Revocations};
use super::role_settings::{self, RoleSettings};
use super::shared::Shared;
use super::{keys, mail, outbox};
use arc_swap::ArcSwap;
use deadpool_postgres::Pool;
use http::HeaderMap;
use jwks::KeySet;
use std::sync::Arc;

/// The core's state, shared by every API; cloning it is one reference count.
pub type Core = Shared<CoreState>;

pub struct CoreState {
    pub config: Arc<Config>,
    /// The pool auth, storage, the site and background work share (the data API has its own pipelined pools).
    pub pool: Pool,
    /// Swapped atomically when keys are rotated.
    pub keys: Arc<ArcSwap<KeySet>>,
    /// Verified tokens, so repeated requests skip signature checks.
    pub identities: IdentityCache,
    /// The API roles' own settings, swapped on every schema reload.
    pub role_settings: ArcSwap<RoleSettings>,
    /// Sends auth mail and the outbox's messages.
    pub mailer: mail::Mailer,
    /// Ended sessions and deleted users whose tokens may still be unexpired.
    pub revocations: Arc<Revocations>,
    /// Set when a stop signal came: `/ready` then answers 503 while requests are still served.
    pub stopping: super::stopping::Stopping,
}

impl Core {
    /// Loads the key set and the roles' settings over `client` (a connection of `pool`); either failing stops the
    /// start.
    pub async fn load(config: Arc<Config>, pool: Pool, client: &tokio_postgres::Client) -> anyhow::Result<Self> {
        let keys = keys::load_configured(client, &config).await?;
        if keys.current().is_none() {
            anyhow::bail!("no current signing key; run `gateway migrate` first");
        }
        let role_settings = RoleSettings::load(client, &role_settings::api_roles(&config))
            .await
            .map_err(|e| anyhow::anyhow!("cannot read the API roles' settings: {e}"))?;
        let revocations = Arc::new(Revocations::new(revocation_hold_secs(&config)));
        let held = revocation::listener::load(client, revocations.hold_secs()).await?;
        revocations.replace(held, chrono::Utc::now().timestamp());
        Ok(Shared::from(CoreState {
            mailer: mail::Mailer::from_vars(&config.vars),
            config,
            pool,
            keys: Arc::new(ArcSwap::from_pointee(keys)),
            identities: IdentityCache::default(),
            role_settings: ArcSwap::from_pointee(role_settings),
            revocations,
            stopping: Default::default(),
        }))
    }

    /// The caller a request's headers identify (from the identity cache when the same credentials were verified
    /// before), unless the token's session was ended or its user deleted.
    pub fn identify(&self, headers: &HeaderMap) -> Result<Arc<Verified>, Rejection> {
        let verified = self.identities.identify(headers, &self.keys.load(), &self.config)?;
        match self.revocations.refuses(&verified.identity.claims) {
            true => Err(Rejection::Revoked),
            false => Ok(verified),
        }
    }

    /// The context `caller`'s `request` gives SQL, with the role's own settings.
    pub fn context(&self, caller: &Verified, request: &Request<'_>, search_path: String) -> RequestContext {
        RequestContext::build(caller, request, search_path, &self.role_settings.load())
    }

    /// Rereads the roles' settings; on failure the previous ones stay.
    pub async fn reload_role_settings(&self) {
        let roles = role_settings::api_roles(&self.config);
        let loaded = match self.pool.get().await {
            Ok(client) => RoleSettings::load(&**client, &roles).await,
            Err(e) => Err(e.into()),
        };
        match loaded {
            Ok(settings) => self.role_settings.store(Arc::new(settings)),
            Err(e) => tracing::error!(error = %e, "role settings reload failed; keeping the previous ones"),
        }
    }

    /// The core's background work: the key-set reloader, the revocation listener and the mail outbox (whose worker the caller stops on
    /// shutdown).
    pub fn spawn_background(&self) -> Option<outbox::Worker> {
        keys::spawn_reloader(&self.config, &self.pool, &self.keys);
        revocation::listener::spawn(&self.config, &self.revocations);
        outbox::spawn(&self.config, &self.pool, &self.mailer)
    }
}

/// How long a revocation is held: the lifetime of the access tokens Auth issues (`GOTRUE_JWT_EXP`) and a minute
/// for clock skew and the verification leeway.
fn revocation_hold_secs(config: &Config) -> i64 {
    config.vars.num(&["GOTRUE_JWT_EXP", "JWT_EXPIRY"], 3600i64).max(1) + 60
}
