//! The connection pool of the `authenticator` login role, shared by every HTTP worker and background task.
//!
//! Each HTTP worker runs its own runtime (`core::workers`), and a tokio-postgres connection lives on the runtime
//! that opened its socket and drives its task. A pooled connection opened on a worker's runtime would die with that
//! runtime — at shutdown, a worker that finished draining drops its runtime while another worker, or the outbox,
//! still takes connections from the pool (a request then failed with 503 "database unavailable"). So the pool opens
//! and drives every connection on the runtime that built it (the main one), whichever worker asks.

use deadpool_postgres::{Connect, Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;
use tokio::runtime::Handle;
use tokio::task::JoinHandle;
use tokio_postgres::{Client, Config, NoTls};

/// Builds a pool from a connection string, its connections opened and driven on the current runtime. Connections
/// are made lazily.
pub fn build(db_uri: &str, size: usize, wait: Duration) -> anyhow::Result<Pool> {
    let pg_config: tokio_postgres::Config = db_uri.parse()?;
    let config = ManagerConfig { recycling_method: RecyclingMethod::Fast };
    let manager = Manager::from_connect(pg_config, OnRuntime(Handle::try_current()?), config);
    let pool = Pool::builder(manager)
        .max_size(size.max(1))
        .wait_timeout(Some(wait))
        .create_timeout(Some(Duration::from_secs(10)))
        .runtime(Runtime::Tokio1)
        .build()?;
    Ok(pool)
}

/// Opens connections on one runtime, so they outlive whichever runtime asked for them.
struct OnRuntime(Handle);

type Connected = Result<(Client, JoinHandle<()>), tokio_postgres::Error>;

impl Connect for OnRuntime {
    fn connect(&self, pg_config: &Config) -> Pin<Box<dyn Future<Output = Connected> + Send + '_>> {
        let pg_config = pg_config.clone();
        let opened = self.0.spawn(open(pg_config.clone(), self.0.clone()));
        Box::pin(async move {
            match opened.await {
                Ok(connected) => connected,
                // the owning runtime is shutting down: open the connection where it is asked for
                Err(_) => open(pg_config, Handle::current()).await,
            }
        })
    }
}

/// Opens a connection and drives it on `runtime`.
async fn open(pg_config: Config, runtime: Handle) -> Connected {
    let (client, connection) = pg_config.connect(NoTls).await?;
    let task = runtime.spawn(async move {
        if let Err(e) = connection.await {
            tracing::debug!(error = %e, "pooled database connection closed");
        }
    });
    Ok((client, task))
}

/// Opens one plain connection (for commands such as `migrate`), driving it on a background task. Without a password
/// in `db_uri`, libpq's `PGPASSWORD` / password file supply it (`crate::core::db::passfile`).
pub async fn connect(db_uri: &str) -> anyhow::Result<tokio_postgres::Client> {
    let (client, connection) = super::passfile::config(db_uri)?.connect(NoTls).await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::warn!(error = %e, "database connection closed");
        }
    });
    Ok(client)
}
