//! The connection pool of the `authenticator` login role.

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use std::time::Duration;
use tokio_postgres::NoTls;

/// Builds a pool from a connection string. Connections are made lazily.
pub fn build(db_uri: &str, size: usize, wait: Duration) -> anyhow::Result<Pool> {
    let pg_config: tokio_postgres::Config = db_uri.parse()?;
    let manager = Manager::from_config(pg_config, NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
    let pool = Pool::builder(manager)
        .max_size(size.max(1))
        .wait_timeout(Some(wait))
        .create_timeout(Some(Duration::from_secs(10)))
        .runtime(Runtime::Tokio1)
        .build()?;
    Ok(pool)
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
