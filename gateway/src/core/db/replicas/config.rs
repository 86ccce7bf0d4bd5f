//! The read replicas' configuration: `GATEWAY_READ_REPLICA_URLS` (standbys' connection URLs, comma- or space-separated),
//! `GATEWAY_READ_REPLICA_MAX_LAG_MS` (the lag past which a standby is skipped), `GATEWAY_READ_REPLICA_CHECK_MS`
//! (how often each standby and the primary's WAL position are read) and `GATEWAY_READ_REPLICA_POOL` (connections per
//! standby, split between the HTTP workers as the primary's are).

use crate::core::config::Vars;
use std::time::Duration;

#[derive(Debug, Clone, PartialEq)]
pub struct ReplicaConfig {
    pub urls: Vec<String>,
    pub max_lag: Duration,
    pub check_every: Duration,
    pub pool_size: usize,
}

impl ReplicaConfig {
    /// Reads the configuration; `pool_size` defaults to the primary's (`PGRST_DB_POOL`).
    pub fn from_vars(vars: &Vars, default_pool: usize) -> Self {
        ReplicaConfig {
            urls: vars.first(&["GATEWAY_READ_REPLICA_URLS"]).map(|v| split_urls(&v)).unwrap_or_default(),
            max_lag: Duration::from_millis(vars.num(&["GATEWAY_READ_REPLICA_MAX_LAG_MS"], 5000u64)),
            check_every: Duration::from_millis(vars.num(&["GATEWAY_READ_REPLICA_CHECK_MS"], 500u64).max(10)),
            pool_size: vars.num(&["GATEWAY_READ_REPLICA_POOL"], default_pool).max(1),
        }
    }
}

/// Splits a list of `postgres://` URLs on commas and white space. A URL naming several hosts
/// (`postgres://u@h1:5432,h2:5432/db`) has commas of its own: a piece that does not start a new URL continues the
/// previous one.
fn split_urls(text: &str) -> Vec<String> {
    let mut urls: Vec<String> = vec![];
    for piece in text.split(|c: char| c == ',' || c.is_whitespace()).filter(|p| !p.is_empty()) {
        let starts_url = piece.starts_with("postgres://") || piece.starts_with("postgresql://");
        match urls.last_mut() {
            Some(last) if !starts_url => {
                last.push(',');
                last.push_str(piece);
            }
            _ => urls.push(piece.to_string()),
        }
    }
    urls
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::testing::vars;

    #[test]
    fn lists_urls_including_multi_host_ones() {
        let urls = split_urls(
            "postgres://a:p@r1:5432/app, postgresql://a:p@r2:5433,r3:5434/app?connect_timeout=2\npostgres://x@r4/app",
        );
        assert_eq!(
            urls,
            [
                "postgres://a:p@r1:5432/app",
                "postgresql://a:p@r2:5433,r3:5434/app?connect_timeout=2",
                "postgres://x@r4/app"
            ]
        );
        assert!(split_urls(" , ").is_empty());
    }

    #[test]
    fn defaults_are_a_few_seconds_of_lag_and_the_primary_pool_size() {
        let s = ReplicaConfig::from_vars(&vars(&[]), 10);
        assert!(s.urls.is_empty());
        assert_eq!((s.max_lag, s.check_every, s.pool_size), (Duration::from_secs(5), Duration::from_millis(500), 10));
        let s = ReplicaConfig::from_vars(
            &vars(&[("GATEWAY_READ_REPLICA_MAX_LAG_MS", "800"), ("GATEWAY_READ_REPLICA_POOL", "3")]),
            10,
        );
        assert_eq!((s.max_lag, s.pool_size), (Duration::from_millis(800), 3));
    }
}
