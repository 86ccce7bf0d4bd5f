//! The data API's configuration, read from PostgREST's variable names (and from `pgrst.*` settings of the pool role,
//! PostgREST's in-database configuration).

use crate::core::config::{Config, Vars};
use std::collections::HashMap;

/// How transactions end (`PGRST_DB_TX_END`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxEnd {
    Commit,
    CommitAllowOverride,
    Rollback,
    RollbackAllowOverride,
}

#[derive(Debug, Clone)]
pub struct RestConfig {
    /// Exposed schemas; the first is the default profile.
    pub schemas: Vec<String>,
    pub extra_search_path: Vec<String>,
    pub max_rows: Option<i64>,
    pub aggregates_enabled: bool,
    pub plan_enabled: bool,
    pub tx_end: TxEnd,
    pub anon_role: Option<String>,
    pub roles: Vec<String>,
    pub max_body_bytes: usize,
    /// `PGRST_DB_PRE_REQUEST`: a function (`schema.fn` or `fn` in the default schema) called before each statement.
    pub pre_request: Option<(String, String)>,
    /// Refuse `UPDATE`/`DELETE` without a filter with pg-safeupdate's error (`GATEWAY_SAFE_UPDATE`, default on, as
    /// Supabase loads safeupdate for its API role).
    pub safe_update: bool,
    /// The OpenAPI document at `/` (`PGRST_OPENAPI_*`).
    pub openapi: OpenApiConfig,
    /// The quoted `search_path` of each exposed schema (the schema, then `extra_search_path`), built once.
    search_paths: HashMap<String, String>,
}

/// `PGRST_OPENAPI_MODE` (`follow-privileges`, the default; `ignore-privileges`; `disabled` → `mode: None`),
/// `PGRST_OPENAPI_SECURITY_ACTIVE`, and where the document says the API lives (`PGRST_OPENAPI_SERVER_PROXY_URI`,
/// else `API_EXTERNAL_URL` + `/rest/v1`).
#[derive(Debug, Clone)]
pub struct OpenApiConfig {
    pub mode: Option<crate::rest::openapi::Mode>,
    pub options: crate::rest::openapi::Options,
}

impl OpenApiConfig {
    fn new(mode: Option<&str>, security: bool, proxy_uri: Option<&str>, external_url: &str) -> Self {
        use crate::rest::openapi::{Mode, Options};
        let mode = match mode.map(str::trim) {
            Some("disabled") => None,
            Some("ignore-privileges") => Some(Mode::IgnorePrivileges),
            _ => Some(Mode::FollowPrivileges),
        };
        let base = match proxy_uri {
            Some(uri) => uri.trim().to_string(),
            None => format!("{}/rest/v1", external_url.trim_end_matches('/')),
        };
        let (scheme, rest) = base.split_once("://").unwrap_or(("http", base.as_str()));
        let (host, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/"),
        };
        let options = Options {
            mode: mode.unwrap_or(Mode::FollowPrivileges),
            version: crate::rest::openapi::serve::POSTGREST_VERSION.into(),
            scheme: scheme.to_string(),
            host: host.to_string(),
            base_path: path.to_string(),
            security,
        };
        OpenApiConfig { mode, options }
    }
}

impl RestConfig {
    /// From the environment, overridden by `pgrst.*` role settings of the pool role where the environment is silent.
    pub fn new(config: &Config, db_config: &HashMap<String, String>) -> Self {
        let vars = &config.vars;
        let get = |env: &str, db: &str| vars.first(&[env]).or_else(|| db_config.get(db).cloned());
        let flag = |env: &str, db: &str| {
            get(env, db).is_some_and(|v| Vars(HashMap::from([("x".into(), v)])).bool(&["x"], false))
        };
        RestConfig {
            schemas: list(
                get("PGRST_DB_SCHEMAS", "pgrst.db_schemas").or_else(|| vars.first(&["GATEWAY_DB_SCHEMAS"])),
                &["public"],
            ),
            extra_search_path: list(
                get("PGRST_DB_EXTRA_SEARCH_PATH", "pgrst.db_extra_search_path"),
                &["public", "extensions"],
            ),
            max_rows: get("PGRST_DB_MAX_ROWS", "pgrst.db_max_rows").and_then(|v| v.trim().parse().ok()),
            aggregates_enabled: flag("PGRST_DB_AGGREGATES_ENABLED", "pgrst.db_aggregates_enabled"),
            plan_enabled: flag("PGRST_DB_PLAN_ENABLED", "pgrst.db_plan_enabled"),
            tx_end: tx_end(get("PGRST_DB_TX_END", "pgrst.db_tx_end").as_deref()),
            anon_role: config.anon_role.clone(),
            roles: config.allowed_roles.clone(),
            max_body_bytes: config.max_body_bytes,
            pre_request: None,
            safe_update: vars.bool(&["GATEWAY_SAFE_UPDATE"], true),
            openapi: OpenApiConfig::new(
                get("PGRST_OPENAPI_MODE", "pgrst.openapi_mode").as_deref(),
                flag("PGRST_OPENAPI_SECURITY_ACTIVE", "pgrst.openapi_security_active"),
                get("PGRST_OPENAPI_SERVER_PROXY_URI", "pgrst.openapi_server_proxy_uri").as_deref(),
                &config.external_url,
            ),
            search_paths: HashMap::new(),
        }
        .with_pre_request(get("PGRST_DB_PRE_REQUEST", "pgrst.db_pre_request"))
        .with_search_paths()
    }

    fn with_search_paths(mut self) -> Self {
        self.search_paths = self.schemas.iter().map(|s| (s.clone(), self.build_search_path(s))).collect();
        self
    }

    fn build_search_path(&self, schema: &str) -> String {
        use crate::rest::fragment::quote_ident;
        let quoted: Vec<String> =
            std::iter::once(schema).chain(self.extra_search_path.iter().map(String::as_str)).map(quote_ident).collect();
        quoted.join(", ")
    }

    /// The `search_path` value (quoted) for a request on `schema`.
    pub fn search_path(&self, schema: &str) -> String {
        match self.search_paths.get(schema) {
            Some(path) => path.clone(),
            None => self.build_search_path(schema),
        }
    }

    fn with_pre_request(mut self, name: Option<String>) -> Self {
        self.pre_request = name.map(|n| match n.trim().split_once('.') {
            Some((schema, f)) => (schema.to_string(), f.to_string()),
            None => (self.schemas.first().cloned().unwrap_or_else(|| "public".into()), n.trim().to_string()),
        });
        self
    }

    /// `SELECT "schema"."fn"()` for the pre-request function, if configured.
    pub fn pre_request_sql(&self) -> Option<String> {
        use crate::rest::fragment::quote_ident;
        self.pre_request.as_ref().map(|(s, f)| format!("SELECT {}.{}()", quote_ident(s), quote_ident(f)))
    }
}

/// A comma-separated list, or `default` when unset.
fn list(v: Option<String>, default: &[&str]) -> Vec<String> {
    match v {
        Some(v) => v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
        None => default.iter().map(|s| s.to_string()).collect(),
    }
}

/// `PGRST_DB_TX_END` (default `commit`).
fn tx_end(v: Option<&str>) -> TxEnd {
    match v.map(str::trim) {
        Some("commit-allow-override") => TxEnd::CommitAllowOverride,
        Some("rollback") => TxEnd::Rollback,
        Some("rollback-allow-override") => TxEnd::RollbackAllowOverride,
        _ => TxEnd::Commit,
    }
}

/// The pool role's `pgrst.*` settings.
pub async fn load_db_config(client: &tokio_postgres::Client) -> anyhow::Result<HashMap<String, String>> {
    let rows = client
        .query(
            "select s.setting from pg_db_role_setting d join pg_roles r on r.oid = d.setrole \
             cross join lateral unnest(d.setconfig) as s(setting) \
             where r.rolname = current_user \
               and d.setdatabase in (0, (select oid from pg_database where datname = current_database())) \
             order by d.setdatabase",
            &[],
        )
        .await?;
    Ok(rows
        .iter()
        .filter_map(|r| {
            let s: String = r.get(0);
            let (k, v) = s.split_once('=')?;
            k.starts_with("pgrst.").then(|| (k.to_string(), v.to_string()))
        })
        .collect())
}
