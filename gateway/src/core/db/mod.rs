//! PostgreSQL access: the pool, the read replicas, the per-request transaction, migrations, and start-up safety checks.

pub mod lint;
pub mod lsn;
pub mod migrate;
pub mod passfile;
pub mod pipeline;
pub mod pool;
pub mod public_urls;
pub mod replicas;
pub mod request_tx;
pub mod safety;

/// Whether an error means the database is away (connection lost or refused, server shutting down) rather than a
/// fault of the request: answered 503, never 500.
pub fn is_unavailable(e: &tokio_postgres::Error) -> bool {
    match e.as_db_error() {
        None => e.is_closed() || std::error::Error::source(e).is_some_and(|s| s.is::<std::io::Error>()),
        Some(db) => {
            let code = db.code().code();
            code.starts_with("08") || code.starts_with("57P")
        }
    }
}
