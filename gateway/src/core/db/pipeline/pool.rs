//! The pool of pipelined connections (deadpool's managed pool): connections are made lazily and handed out as
//! [`Pooled`] (settled in the background when dropped mid-batch); one left broken, mid-batch or inside a
//! transaction is discarded instead of reused. Beside it, the pool's lines: its connections shared by batches
//! (`share.rs`).

use super::conn::{PgConn, TxStatus};
use super::drain::Pooled;
use super::error::PgError;
use super::lines::Lines;
use super::startup;
use deadpool::managed::{self, Metrics, RecycleError, RecycleResult};
use std::ops::Deref;
use std::time::Duration;

pub type PoolError = managed::PoolError<PgError>;

/// Deadpool's pool of pipelined connections, and those of its connections that batches share now.
pub struct Pool {
    inner: managed::Pool<Manager>,
    lines: Lines,
}

impl Deref for Pool {
    type Target = managed::Pool<Manager>;
    fn deref(&self) -> &Self::Target {
        &self.inner
    }
}

impl Pool {
    pub(super) fn lines(&self) -> &Lines {
        &self.lines
    }
}

pub struct Manager {
    config: tokio_postgres::Config,
}

impl managed::Manager for Manager {
    type Type = PgConn;
    type Error = PgError;

    async fn create(&self) -> Result<PgConn, PgError> {
        // boxed: opening a connection (startup, SCRAM) is rare, and inline its state would sit in every request's
        // future (checkout → execute → handler, ~5 KB each in size), copied at each level on every request
        Box::pin(startup::connect(&self.config)).await
    }

    async fn recycle(&self, conn: &mut PgConn, _: &Metrics) -> RecycleResult<PgError> {
        if conn.is_broken() || conn.in_flight() {
            return Err(RecycleError::message("connection left mid-batch"));
        }
        if conn.tx_status() != TxStatus::Idle {
            return Err(RecycleError::message("connection left inside a transaction"));
        }
        Ok(())
    }
}

/// A connection from `pool`, waiting at most the pool's wait time. A free one is taken without arming the wait's
/// timer (the usual case under load: a timer set and cleared on every request showed in profiles); only when none
/// is free does the caller queue for one, as before.
pub async fn checkout(pool: &Pool) -> Result<Pooled, PoolError> {
    match free(pool).await? {
        Some(conn) => Ok(conn),
        None => pool.get().await.map(Pooled::new),
    }
}

/// A connection from `pool` if one is free (or may be opened) now, without waiting.
pub(super) async fn free(pool: &Pool) -> Result<Option<Pooled>, PoolError> {
    let free_now = managed::Timeouts { wait: Some(Duration::ZERO), ..pool.timeouts() };
    match pool.timeout_get(&free_now).await {
        Err(managed::PoolError::Timeout(managed::TimeoutType::Wait)) => Ok(None),
        other => other.map(|conn| Some(Pooled::new(conn))),
    }
}

/// A pool of `size` connections for `db_uri`; a caller waits at most `wait` for one.
pub fn build(db_uri: &str, size: usize, wait: Duration) -> anyhow::Result<Pool> {
    from_config(db_uri.parse()?, size, wait)
}

/// One pool per HTTP worker for `config`, `total` connections split between them (the total stays the configured
/// size; a pool too small to give each worker one stays whole and shared), so a connection is used on the thread
/// that drives it.
pub fn per_worker(
    config: &tokio_postgres::Config,
    total: usize,
    workers: usize,
    wait: Duration,
) -> anyhow::Result<Vec<Pool>> {
    sizes(total, workers).into_iter().map(|size| from_config(config.clone(), size, wait)).collect()
}

/// `total` connections split between `workers`.
fn sizes(total: usize, workers: usize) -> Vec<usize> {
    let (total, workers) = (total.max(1), workers.max(1));
    if total < workers {
        return vec![total];
    }
    (0..workers).map(|i| total / workers + usize::from(i < total % workers)).collect()
}

/// A pool of `size` connections for a parsed connection string.
pub fn from_config(config: tokio_postgres::Config, size: usize, wait: Duration) -> anyhow::Result<Pool> {
    let inner = managed::Pool::builder(Manager { config })
        .max_size(size.max(1))
        .wait_timeout(Some(wait))
        .create_timeout(Some(Duration::from_secs(10)))
        .runtime(deadpool::Runtime::Tokio1)
        .build()?;
    Ok(Pool { inner, lines: Lines::default() })
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes_keep_the_configured_total() {
        assert_eq!(super::sizes(10, 2), [5, 5]);
        assert_eq!(super::sizes(10, 3), [4, 3, 3]);
        assert_eq!(super::sizes(1, 2), [1]);
        assert_eq!(super::sizes(4, 1), [4]);
        assert_eq!(super::sizes(0, 0), [1]);
    }
}
