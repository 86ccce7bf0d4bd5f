//! A pooled connection whose caller went away mid-batch (the HTTP client closed its connection, so the request's
//! future was dropped) is settled in the background and handed back healthy, instead of being closed and replaced
//! by a new connection (a TCP connect, SCRAM's 4,096 PBKDF2 rounds and a PostgreSQL backend start per cancelled
//! request — cheap for a client to cause, costly for the server). Settling is bounded: the batch gets a short
//! grace to finish, then PostgreSQL is asked to cancel it, and a connection still busy after that is closed.
//! A transaction left open is rolled back, which also ends the request's `set local` role and claims.

use super::conn::{PgConn, TxStatus};
use super::pool::Manager;
use deadpool::managed::Object;
use std::ops::{Deref, DerefMut};
use std::time::Duration;
use tokio::time::timeout;

/// How long an abandoned batch may run on before PostgreSQL is asked to cancel it: most finish within it.
pub(super) const GRACE: Duration = Duration::from_millis(200);
/// How long the cancel request itself may take.
pub(super) const CANCEL_WAIT: Duration = Duration::from_secs(1);
/// How long a cancelled batch, and then a ROLLBACK, may take before the connection is closed instead.
pub(super) const AFTER_CANCEL: Duration = Duration::from_secs(2);

/// A connection from the pipelined pool; dropped mid-batch, it is settled in the background before it goes back.
/// The `Option` is `None` only inside `drop`, which moves the connection out (no `unsafe` for `ManuallyDrop`).
pub struct Pooled(Option<Object<Manager>>);

impl Pooled {
    pub(super) fn new(conn: Object<Manager>) -> Self {
        Pooled(Some(conn))
    }
}

impl Deref for Pooled {
    type Target = PgConn;
    #[allow(clippy::expect_used)] // set from construction until `drop`
    fn deref(&self) -> &PgConn {
        self.0.as_ref().expect("present until dropped")
    }
}

impl DerefMut for Pooled {
    #[allow(clippy::expect_used)] // set from construction until `drop`
    fn deref_mut(&mut self) -> &mut PgConn {
        self.0.as_mut().expect("present until dropped")
    }
}

impl Drop for Pooled {
    fn drop(&mut self) {
        let Some(mut conn) = self.0.take() else { return };
        if !needs_settling(&conn) {
            return;
        }
        // on the runtime that drives the connection's socket (each HTTP worker has its own pools)
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn(async move {
                    if !settle(&mut conn).await {
                        tracing::debug!("db: an abandoned batch did not settle; the connection is closed");
                        conn.discard();
                    }
                });
            }
            Err(_) => conn.discard(),
        }
    }
}

fn needs_settling(conn: &PgConn) -> bool {
    conn.in_flight() || !conn.is_broken() && conn.tx_status() != TxStatus::Idle
}

/// Brings a connection left mid-batch or inside a transaction back to idle: finishes the batch (cancelling it
/// after [`GRACE`]), then rolls back an open transaction. Returns whether the connection may be reused.
pub async fn settle(conn: &mut PgConn) -> bool {
    if conn.in_flight() && timeout(GRACE, conn.drain()).await.is_err() && !cancel_and_drain(conn).await {
        return false;
    }
    if conn.is_broken() {
        return false;
    }
    if conn.tx_status() != TxStatus::Idle {
        let rolled_back = timeout(AFTER_CANCEL, conn.execute("ROLLBACK")).await;
        if !matches!(rolled_back, Ok(Ok(()))) {
            return false;
        }
    }
    !conn.is_broken() && conn.tx_status() == TxStatus::Idle
}

/// Asks PostgreSQL to cancel the batch still running, then reads it to its end.
async fn cancel_and_drain(conn: &mut PgConn) -> bool {
    cancel(conn).await && matches!(timeout(AFTER_CANCEL, conn.drain()).await, Ok(Ok(())))
}

/// Sends PostgreSQL's cancel request for the statement `conn`'s backend runs; whether it was delivered within
/// [`CANCEL_WAIT`].
pub(super) async fn cancel(conn: &PgConn) -> bool {
    let Some(key) = conn.cancel_key().cloned() else { return false };
    matches!(timeout(CANCEL_WAIT, key.send()).await, Ok(Ok(())))
}
