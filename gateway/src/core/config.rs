//! Configuration from environment variables. Where PostgREST or Supabase Auth has the same setting, its own
//! variable name is accepted too, so an existing env file carries over. Each surface reads its own section.

use std::collections::HashMap;
use std::time::Duration;

/// The longest duration a `*_SECS` setting takes (about 31 years); longer values are cut to it.
pub const MAX_SECS: f64 = 1e9;

/// A snapshot of the environment (or of a test's variables), read through PostgREST/GoTrue-compatible names.
#[derive(Debug, Clone, Default)]
pub struct Vars(pub HashMap<String, String>);

impl Vars {
    /// The process environment.
    pub fn from_env() -> Self {
        Vars(std::env::vars().collect())
    }

    /// Reads the first variable that is set and not empty.
    pub fn first(&self, names: &[&str]) -> Option<String> {
        names.iter().find_map(|n| self.0.get(*n).filter(|v| !v.trim().is_empty()).cloned())
    }

    /// Parses a boolean the way PostgREST and GoTrue do (`true`/`false`, `1`/`0`, `yes`/`no`, `on`/`off`).
    pub fn bool(&self, names: &[&str], default: bool) -> bool {
        match self.first(names).map(|v| v.trim().to_ascii_lowercase()) {
            Some(v) if ["true", "1", "yes", "on"].contains(&v.as_str()) => true,
            Some(v) if ["false", "0", "no", "off"].contains(&v.as_str()) => false,
            _ => default,
        }
    }

    /// Parses a number, falling back to the default when unset or malformed.
    pub fn num<T: std::str::FromStr>(&self, names: &[&str], default: T) -> T {
        self.first(names).and_then(|v| v.trim().parse().ok()).unwrap_or(default)
    }

    /// A duration in seconds (fractions allowed), at least `min`: the default when unset, malformed or not finite,
    /// and at most [`MAX_SECS`], so no value can overflow a `Duration` (which would panic).
    pub fn secs(&self, names: &[&str], default: f64, min: f64) -> Duration {
        let value = self.num(names, default);
        let value = if value.is_finite() { value } else { default };
        Duration::from_secs_f64(value.clamp(min, MAX_SECS))
    }

    /// Splits a comma-separated list, trimming blanks.
    pub fn list(&self, names: &[&str], default: &[&str]) -> Vec<String> {
        match self.first(names) {
            Some(v) => v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
            None => default.iter().map(|s| s.to_string()).collect(),
        }
    }
}

/// Reads the first process environment variable that is set and not empty.
pub fn env_first(names: &[&str]) -> Option<String> {
    Vars::from_env().first(names)
}

/// The schemas exposed through the data API (`PGRST_DB_SCHEMAS`, first one is the default); `lint` and `types`
/// read them too.
pub fn exposed_schemas(vars: &Vars) -> Vec<String> {
    vars.list(&["PGRST_DB_SCHEMAS", "GATEWAY_DB_SCHEMAS"], &["public"])
}

/// Roles no token may ever switch to, whatever `GATEWAY_ALLOWED_ROLES` says: the pool's login role, the role the auth
/// module uses for `auth.*`, and the usual superusers.
pub const NEVER_ALLOWED_ROLES: &[&str] = &["authenticator", "supabase_auth_admin", "supabase_admin", "postgres"];

/// Settings shared by every surface.
#[derive(Debug, Clone)]
pub struct Config {
    /// Pool connection string (the `authenticator` login role).
    pub db_uri: String,
    /// Owner connection for `migrate` and `keys` (falls back to `db_uri`).
    pub admin_db_uri: Option<String>,
    pub host: String,
    pub port: u16,
    /// Pool size (`PGRST_DB_POOL`).
    pub pool_size: usize,
    /// HTTP worker threads, each with its own single-threaded runtime (`GATEWAY_HTTP_WORKERS`, default: one per
    /// CPU).
    pub http_workers: usize,
    /// How long a request waits for a pooled connection before 503 (`PGRST_DB_POOL_ACQUISITION_TIMEOUT`, seconds).
    pub pool_timeout: Duration,
    /// Where app migrations live.
    pub migrations_dir: String,
    /// The built site to serve (`GATEWAY_SITE_DIR`), if any.
    pub site_dir: Option<String>,
    /// Identity: which roles a token may ask for, the anon role, the legacy HS256 secret, the audience.
    pub anon_role: Option<String>,
    pub allowed_roles: Vec<String>,
    pub jwt_secret: Option<String>,
    pub jwt_aud: Option<String>,
    /// When true, requests without a known `apikey` header are refused with 401 (as hosted Kong does).
    pub require_apikey: bool,
    /// The configured opaque keys (`SUPABASE_PUBLISHABLE_KEY`, `SUPABASE_SECRET_KEY`); none by default.
    pub api_keys: super::api_keys::ApiKeys,
    /// The public URL the site and API are reached at (`API_EXTERNAL_URL`).
    pub external_url: String,
    /// Request bodies larger than this answer 413.
    pub max_body_bytes: usize,
    /// Every variable, for the surfaces' own sections (`rest`, `auth`, `storage` read theirs from here).
    pub vars: Vars,
}

impl Config {
    pub fn from_env() -> anyhow::Result<Self> {
        Self::from_vars(Vars::from_env())
    }

    pub fn from_vars(vars: Vars) -> anyhow::Result<Self> {
        let env_first = |n: &[&str]| vars.first(n);
        let db_uri = env_first(&["PGRST_DB_URI", "DATABASE_URL", "GATEWAY_DB_URI"])
            .ok_or_else(|| anyhow::anyhow!("set DATABASE_URL (or PGRST_DB_URI) to the pool's connection string"))?;
        let port = vars.num(&["PORT", "GATEWAY_PORT"], 54321u16);
        let host = env_first(&["GATEWAY_HOST", "HOST"]).unwrap_or_else(|| "127.0.0.1".into());
        let external_url = env_first(&["API_EXTERNAL_URL", "GATEWAY_EXTERNAL_URL"])
            .unwrap_or_else(|| format!("http://{}:{port}", if host == "0.0.0.0" { "127.0.0.1" } else { &host }));
        Ok(Config {
            db_uri,
            admin_db_uri: env_first(&["GATEWAY_ADMIN_DB_URI"]),
            host,
            port,
            pool_size: vars.num(&["PGRST_DB_POOL", "GATEWAY_DB_POOL"], 10usize),
            http_workers: vars
                .num(&["GATEWAY_HTTP_WORKERS"], std::thread::available_parallelism().map(usize::from).unwrap_or(1))
                .max(1),
            pool_timeout: Duration::from_secs(vars.num(&["PGRST_DB_POOL_ACQUISITION_TIMEOUT"], 10u64)),
            migrations_dir: env_first(&["GATEWAY_MIGRATIONS_DIR"]).unwrap_or_else(|| "sql/migrations".into()),
            site_dir: env_first(&["GATEWAY_SITE_DIR"]),
            anon_role: Some(env_first(&["PGRST_DB_ANON_ROLE"]).unwrap_or_else(|| "anon".into())),
            allowed_roles: vars
                .list(&["GATEWAY_ALLOWED_ROLES"], &["anon", "authenticated", "service_role"])
                .into_iter()
                .filter(|r| !NEVER_ALLOWED_ROLES.contains(&r.as_str()))
                .collect(),
            jwt_secret: env_first(&["PGRST_JWT_SECRET", "GOTRUE_JWT_SECRET", "JWT_SECRET"]),
            jwt_aud: env_first(&["PGRST_JWT_AUD"]),
            require_apikey: vars.bool(&["GATEWAY_REQUIRE_APIKEY"], false),
            api_keys: super::api_keys::ApiKeys::new(
                &vars.list(&["SUPABASE_PUBLISHABLE_KEY", "SUPABASE_PUBLISHABLE_KEYS"], &[]),
                &vars.list(&["SUPABASE_SECRET_KEY", "SUPABASE_SECRET_KEYS"], &[]),
            )?,
            external_url,
            max_body_bytes: vars.num(&["GATEWAY_MAX_BODY_BYTES"], 1024 * 1024usize),
            vars: vars.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secs_never_panics_and_stays_in_bounds() {
        let vars = |v: &str| Vars(HashMap::from([("T".to_string(), v.to_string())]));
        let secs = |v: &str| vars(v).secs(&["T"], 30.0, 0.05);
        assert_eq!(secs("1.5"), Duration::from_millis(1500));
        assert_eq!(secs("0"), Duration::from_millis(50));
        assert_eq!(secs("-3"), Duration::from_millis(50));
        for unusable in ["inf", "-inf", "NaN", "soon"] {
            assert_eq!(secs(unusable), Duration::from_secs(30), "{unusable}");
        }
        assert_eq!(secs("1e300"), Duration::from_secs(1_000_000_000));
        assert_eq!(Vars::default().secs(&["T"], 0.0, 0.0), Duration::ZERO);
    }

    #[test]
    fn allowed_roles_never_include_internal_roles() {
        let vars = Vars(HashMap::from([
            ("DATABASE_URL".to_string(), "postgres://x@localhost/db".to_string()),
            (
                "GATEWAY_ALLOWED_ROLES".to_string(),
                "anon, supabase_auth_admin,authenticator,postgres, editor".to_string(),
            ),
        ]));
        let config = Config::from_vars(vars).unwrap();
        assert_eq!(config.allowed_roles, vec!["anon".to_string(), "editor".to_string()]);
    }
}
