//! PostgreSQL access: the pool, the per-request transaction, migrations, and start-up safety checks.

pub mod lint;
pub mod migrate;
pub mod passfile;
pub mod pipeline;
pub mod pool;
pub mod public_urls;
pub mod request_tx;
pub mod safety;
