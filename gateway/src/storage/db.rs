//! Running storage SQL as a caller (`storage::caller`): open a transaction and switch role with the shared
//! preamble (`crate::core::db::request_tx`), so row-level security on `storage.*` decides access. Routes that
//! Storage serves as its superuser (public and signed reads, bucket limits) switch to service_role.

use super::caller::Caller;
use super::error::{Result, StorageError};
use super::Storage;
use crate::core::db::request_tx::preamble;
use deadpool_postgres::{Object, Transaction};

pub async fn client(state: &Storage) -> Result<Object> {
    state.core.pool.get().await.map_err(|e| {
        tracing::warn!(error = %e, "storage: no database connection");
        StorageError::DatabaseUnavailable
    })
}

pub async fn begin(client: &mut Object, read_only: bool) -> Result<Transaction<'_>> {
    client
        .build_transaction()
        .isolation_level(tokio_postgres::IsolationLevel::ReadCommitted)
        .read_only(read_only)
        .start()
        .await
        .map_err(StorageError::from)
}

/// A transaction already switched to `caller`: how a statement that RLS decides on starts.
pub async fn begin_as<'c>(client: &'c mut Object, caller: &Caller, read_only: bool) -> Result<Transaction<'c>> {
    let tx = begin(client, read_only).await?;
    switch(&tx, caller).await?;
    Ok(tx)
}

/// Switches the transaction to the caller's role and settings (a statement of its own, before any data statement).
pub async fn switch(tx: &Transaction<'_>, caller: &Caller) -> Result<()> {
    let (sql, params) = preamble(&caller.context);
    tx.execute(sql.as_str(), &params).await?;
    Ok(())
}
