//! A lean PostgreSQL connection for request transactions: all of a request's statements (BEGIN, the preamble,
//! the statement, COMMIT) go out as one pipeline under a single Sync — one write, one flush and one wake-up each
//! way — which tokio-postgres cannot do (it ends every query with its own Sync). Parameters and results travel
//! in text format, so no type lookups are needed; statements are prepared once per connection, inside the
//! pipeline, at first use. Under load, self-contained batches of several requests may share one connection
//! (`share`).

mod answer;
mod cancel;
mod catalog;
mod conn;
mod drain;
mod error;
mod line;
mod lines;
pub mod pool;
pub mod share;
mod startup;
mod step;

pub use conn::{PgConn, TextRow, TxStatus};
pub use drain::{settle, Pooled};
pub use error::{DbError, PgError};
pub use pool::Pool;
pub use startup::connect_replication;
pub use step::Step;
