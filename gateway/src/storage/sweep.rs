//! The storage sweep: removes from the backend the contents of object versions whose `storage.objects` row was
//! deleted outside the Storage API (a cascade, an app's SQL function, an owner's `DELETE`). The platform trigger
//! `gateway.queue_object_removal` queues each deleted version in `gateway.storage_sweep` within the deleting
//! transaction; this task claims queued rows with `FOR UPDATE SKIP LOCKED` (several gateways share the work),
//! removes the file or S3 object, and deletes the rows it handled. A removal that fails stays queued for the next
//! pass; a missing file counts as removed.

use super::backend::{object_key, Backend};
use crate::storage::Storage;
use deadpool_postgres::Pool;
use std::io;
use std::time::Duration;

/// Rows handled per transaction.
const BATCH: i64 = 100;

/// One queued object version.
struct Queued {
    id: i64,
    bucket: String,
    name: String,
    version: Option<String>,
}

/// Removes a version's contents; `Ok` when it is gone (or was never there).
async fn remove(backend: &Backend, q: &Queued) -> io::Result<()> {
    match backend {
        Backend::File(files) => {
            match tokio::fs::remove_file(files.path(&q.bucket, &q.name, q.version.as_deref())).await {
                Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
                _ => {
                    backend.delete(&q.bucket, &q.name, q.version.as_deref()).await; // tidies the empty folder
                    Ok(())
                }
            }
        }
        Backend::S3 { s3, .. } => s3.delete(&object_key(&q.bucket, &q.name, q.version.as_deref())).await,
    }
}

/// Handles one batch; returns how many queued versions were removed.
pub async fn sweep_once(pool: &Pool, backend: &Backend) -> anyhow::Result<usize> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    let rows = tx
        .query(
            "select id, bucket_id, name, version from gateway.storage_sweep order by id limit $1 for update skip locked",
            &[&BATCH],
        )
        .await?;
    let mut done: Vec<i64> = Vec::with_capacity(rows.len());
    for row in rows {
        let q = Queued { id: row.get(0), bucket: row.get(1), name: row.get(2), version: row.get(3) };
        match remove(backend, &q).await {
            Ok(()) => done.push(q.id),
            Err(e) => tracing::warn!(error = %e, bucket = %q.bucket, "storage sweep: removal failed, will retry"),
        }
    }
    if !done.is_empty() {
        tx.execute("delete from gateway.storage_sweep where id = any($1)", &[&done]).await?;
    }
    tx.commit().await?;
    Ok(done.len())
}

/// Sweeps until the queue is empty, then waits `every` before looking again.
pub async fn run(pool: Pool, backend: Backend, every: Duration) {
    loop {
        loop {
            match sweep_once(&pool, &backend).await {
                Ok(n) if n as i64 == BATCH => continue,
                Ok(_) => break,
                Err(e) => {
                    tracing::warn!(error = %e, "storage sweep: database unavailable");
                    break;
                }
            }
        }
        tokio::time::sleep(every).await;
    }
}

/// Starts the sweep (`GATEWAY_STORAGE_SWEEP=off` disables it; `GATEWAY_STORAGE_SWEEP_SECS`, default 5, sets the
/// pause between passes).
pub fn spawn(state: &Storage) {
    let vars = &state.core.config.vars;
    if !vars.bool(&["GATEWAY_STORAGE_SWEEP"], true) {
        return;
    }
    let every = vars.secs(&["GATEWAY_STORAGE_SWEEP_SECS"], 5.0, 0.05);
    tokio::spawn(run(state.core.pool.clone(), state.backend.clone(), every));
}
