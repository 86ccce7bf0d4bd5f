//! Read replicas: PostgreSQL standbys fed by streaming replication, which may carry reads. Each standby has its own
//! pipelined pools (one per HTTP worker, as the primary's) and a health the monitor keeps (`monitor`: up, a standby,
//! within the lag bound of `lag`). A standby is picked only while healthy and once it has replayed the primary's
//! position at the last schema load, so the schema cache never runs ahead of a standby's catalog. Which requests
//! may read from a standby is the caller's decision (the data API's GET and HEAD); this module knows no API.

pub mod config;
pub mod lag;
mod monitor;

use super::lsn::Lsn;
use super::pipeline::{self, PgError};
pub use config::ReplicaConfig;
use lag::Health;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A standby's connection wait when its URL sets none: a vanished standby is given up on quickly.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// The schema mark while the primary's position is unknown: no standby is picked until the monitor reads it.
const UNKNOWN: u64 = u64::MAX;

/// The configured standbys (possibly none).
pub struct Replicas {
    list: Vec<Replica>,
    /// Round-robin position.
    next: AtomicUsize,
    /// The primary's WAL position when the schema cache was last loaded.
    schema_mark: AtomicU64,
    config: ReplicaConfig,
}

/// One standby: its pools and its health.
pub struct Replica {
    /// `host:port/database`, for logs (never the password).
    name: String,
    index: usize,
    config: tokio_postgres::Config,
    pools: Vec<pipeline::Pool>,
    usable: AtomicBool,
    replayed: AtomicU64,
    /// The last judgement (for logging changes).
    health: Mutex<Health>,
}

impl Replicas {
    /// Pools for each configured standby (connections are opened when first needed). Nothing is used before the
    /// monitor has judged a standby healthy.
    pub fn build(config: ReplicaConfig, workers: usize, wait: Duration) -> anyhow::Result<Arc<Self>> {
        let list = config
            .urls
            .iter()
            .enumerate()
            .map(|(index, url)| Replica::build(index, url, config.pool_size, workers, wait))
            .collect::<anyhow::Result<_>>()?;
        let schema_mark = AtomicU64::new(UNKNOWN);
        Ok(Arc::new(Replicas { list, next: AtomicUsize::new(0), schema_mark, config }))
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// A standby that may serve a read now (healthy, and past the schema mark), in turn; `None` sends the read to
    /// the primary.
    pub fn pick(&self) -> Option<&Replica> {
        let n = self.list.len();
        if n == 0 {
            return None;
        }
        let mark = self.schema_mark.load(Relaxed);
        let start = self.next.fetch_add(1, Relaxed);
        (0..n).map(|i| &self.list[(start + i) % n]).find(|r| r.usable.load(Relaxed) && r.replayed.load(Relaxed) >= mark)
    }

    /// Called with a connection to the primary right after the schema cache was loaded and before it is used:
    /// reads stay on the primary until each standby has replayed what the primary has written now (the schema
    /// change among it), and the standbys' idle connections are closed (their prepared statements may describe the
    /// old row types).
    pub async fn hold_until_replayed(&self, primary: &tokio_postgres::Client) {
        if self.list.is_empty() {
            return;
        }
        let mark = primary_position(primary).await.map_or(UNKNOWN, |lsn| lsn.0);
        self.schema_mark.store(mark, Relaxed);
        for replica in &self.list {
            replica.close_idle();
        }
    }

    /// Checks every standby from now on (nothing to do without standbys).
    pub fn spawn_monitor(self: &Arc<Self>, primary: deadpool_postgres::Pool) {
        if !self.list.is_empty() {
            tokio::spawn(monitor::run(self.clone(), primary));
        }
    }

    /// Each standby's pools' state (for the metrics).
    pub fn pool_statuses(&self) -> Vec<deadpool::Status> {
        self.list.iter().flat_map(|r| r.pools.iter().map(|p| p.status())).collect()
    }

    /// The schema mark, once the primary's position is known after a failed read of it.
    fn learn_mark(&self, primary: Lsn) {
        let _ = self.schema_mark.compare_exchange(UNKNOWN, primary.0, Relaxed, Relaxed);
    }
}

impl Replica {
    fn build(index: usize, url: &str, size: usize, workers: usize, wait: Duration) -> anyhow::Result<Replica> {
        let mut config: tokio_postgres::Config =
            url.parse().map_err(|e| anyhow::anyhow!("GATEWAY_READ_REPLICA_URLS: URL {} is invalid: {e}", index + 1))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        let pools = pipeline::pool::per_worker(&config, size, workers, wait)?;
        Ok(Replica {
            name: describe(&config),
            index,
            config,
            pools,
            usable: AtomicBool::new(false),
            replayed: AtomicU64::new(0),
            health: Mutex::new(Health::Down),
        })
    }

    /// The pipelined pool of the HTTP worker this runs on.
    pub fn pool(&self) -> &pipeline::Pool {
        &self.pools[crate::core::workers::current() % self.pools.len()]
    }

    /// Stops using this standby until the monitor finds it healthy again (a read on it failed with the connection
    /// or the server), closing its idle connections, which are likely dead too.
    pub fn skip(&self, error: &PgError) {
        if self.usable.swap(false, Relaxed) {
            tracing::warn!(replica = %self.name, %error, "read replica failed a read; reads go to the primary until it is healthy again");
        }
        self.close_idle();
    }

    fn close_idle(&self) {
        for pool in &self.pools {
            pool.retain(|_, _| false);
        }
    }
}

/// What a read that failed on a standby should do instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// The error is the request's own (the primary would answer the same): answer it.
    None,
    /// Run the read on the primary; the standby stays in use (a query cancelled by a conflict with recovery, a
    /// statement prepared before a schema change, an object or feature the standby does not have yet).
    Primary,
    /// Run it on the primary and skip the standby until a check finds it healthy (the connection failed, the server
    /// is shutting down, starting or refusing connections).
    PrimaryAndSkip,
}

/// How to recover from `e`, raised by a standby while running a read.
pub fn fallback(e: &PgError) -> Fallback {
    let Some(db) = e.as_db() else { return Fallback::PrimaryAndSkip };
    let code = db.code.as_str();
    if code.starts_with("08") || code.starts_with("57P") {
        return Fallback::PrimaryAndSkip;
    }
    // 40001/40P01: cancelled by recovery; 0A000: cached plan changed, NOTIFY during recovery; 25006/55000: refused
    // on a standby (no transaction ids there); 26000: statement gone; 42P01/42703/42883/3F000: not replayed yet
    const PRIMARY: &[&str] =
        &["40001", "40P01", "0A000", "25006", "55000", "26000", "42P01", "42703", "42883", "3F000"];
    if PRIMARY.contains(&code) {
        Fallback::Primary
    } else {
        Fallback::None
    }
}

/// The primary's WAL write position.
async fn primary_position(client: &tokio_postgres::Client) -> Option<Lsn> {
    let row = client.query_one("select pg_current_wal_lsn()::text", &[]).await.ok()?;
    Lsn::parse(row.get::<_, &str>(0))
}

/// `host:port/database` of a connection string.
fn describe(config: &tokio_postgres::Config) -> String {
    let host = match config.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(h)) => h.clone(),
        Some(tokio_postgres::config::Host::Unix(p)) => p.display().to_string(),
        None => "localhost".into(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    format!("{host}:{port}/{}", config.get_dbname().unwrap_or(""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::db::pipeline::DbError;

    fn db(code: &str) -> PgError {
        PgError::Db(DbError { code: code.into(), message: String::new(), detail: None, hint: None })
    }

    #[test]
    fn connection_failures_skip_the_standby() {
        assert_eq!(fallback(&PgError::Io(std::io::ErrorKind::ConnectionReset.into())), Fallback::PrimaryAndSkip);
        assert_eq!(fallback(&PgError::Protocol("x".into())), Fallback::PrimaryAndSkip);
        for code in ["57P01", "57P03", "08006", "08001"] {
            assert_eq!(fallback(&db(code)), Fallback::PrimaryAndSkip, "{code}");
        }
    }

    #[test]
    fn standby_only_refusals_retry_on_the_primary() {
        for code in ["40001", "0A000", "25006", "42P01"] {
            assert_eq!(fallback(&db(code)), Fallback::Primary, "{code}");
        }
    }

    #[test]
    fn the_requests_own_errors_are_answered() {
        for code in ["42501", "22P02", "P0001", "57014", "23505"] {
            assert_eq!(fallback(&db(code)), Fallback::None, "{code}");
        }
    }

    #[test]
    fn a_standby_is_described_without_its_password() {
        let config: tokio_postgres::Config = "postgres://authenticator:secret@10.0.0.5:5433/app".parse().unwrap();
        assert_eq!(describe(&config), "10.0.0.5:5433/app");
    }
}
