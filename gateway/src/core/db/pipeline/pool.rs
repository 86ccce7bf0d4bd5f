//! The pool of pipelined connections (deadpool's managed pool): connections are made lazily, and one left
//! broken by an unfinished batch is discarded instead of reused.

use super::conn::PgConn;
use super::error::PgError;
use super::startup;
use deadpool::managed::{self, Metrics, RecycleError, RecycleResult};
use std::time::Duration;

pub type Pool = managed::Pool<Manager>;
pub type PoolError = managed::PoolError<PgError>;

pub struct Manager {
    config: tokio_postgres::Config,
}

impl managed::Manager for Manager {
    type Type = PgConn;
    type Error = PgError;

    async fn create(&self) -> Result<PgConn, PgError> {
        startup::connect(&self.config).await
    }

    async fn recycle(&self, conn: &mut PgConn, _: &Metrics) -> RecycleResult<PgError> {
        if conn.is_broken() {
            return Err(RecycleError::message("connection left mid-batch"));
        }
        Ok(())
    }
}

/// A pool of `size` connections for `db_uri`; a caller waits at most `wait` for one.
pub fn build(db_uri: &str, size: usize, wait: Duration) -> anyhow::Result<Pool> {
    let config: tokio_postgres::Config = db_uri.parse()?;
    Ok(managed::Pool::builder(Manager { config })
        .max_size(size.max(1))
        .wait_timeout(Some(wait))
        .create_timeout(Some(Duration::from_secs(10)))
        .runtime(deadpool::Runtime::Tokio1)
        .build()?)
}
