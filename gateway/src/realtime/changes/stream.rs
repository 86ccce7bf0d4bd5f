//! The change stream's lifetime: whether logical replication is possible, the run loop that opens the slot while
//! there are subscribers and streams it until nobody listens, stopping on shutdown, and the orphan-slot sweep.

use super::slot::{self, SlotError, Transaction};
use super::{Changes, Status};
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};

/// Why a stream ended without an error.
enum Ended {
    /// Nobody has listened for `REALTIME_SLOT_IDLE_MS`.
    Idle,
    /// The gateway is stopping.
    Stopping,
}

impl Changes {
    /// Checks once at start whether logical replication is possible; logs one clear error when it is not.
    pub async fn check_capability(&self) -> Option<String> {
        let connected = match crate::core::db::passfile::config(&self.replication_uri) {
            Ok(config) => config.connect(tokio_postgres::NoTls).await,
            Err(e) => Err(e),
        };
        let cause = match connected {
            Err(e) => Some(format!("cannot connect for replication: {e}")),
            Ok((client, conn)) => {
                tokio::spawn(conn);
                let q = "select current_setting('wal_level'), (select rolreplication or rolsuper from pg_roles where rolname = current_user), \
                         exists (select 1 from pg_publication where pubname = $1)";
                match client.query_one(q, &[&self.publication]).await {
                    Err(e) => Some(e.to_string()),
                    Ok(row) => {
                        let (level, replication, publication): (String, bool, bool) =
                            (row.get(0), row.get(1), row.get(2));
                        if level != "logical" {
                            Some(format!(
                                "PostgreSQL's wal_level is {level}; postgres_changes needs wal_level = logical"
                            ))
                        } else if !replication {
                            Some("the replication connection's role has neither REPLICATION nor SUPERUSER".into())
                        } else if !publication {
                            Some(format!("publication {} does not exist (run `gateway migrate`)", self.publication))
                        } else {
                            None
                        }
                    }
                }
            }
        };
        if let Some(c) = &cause {
            tracing::error!(cause = %c, "realtime postgres_changes unavailable (broadcast and presence still work)");
        }
        cause
    }

    /// Runs the stream whenever there are subscribers: the slot, the dispatcher, retries. The slot outlives a lost
    /// connection (the stream resumes from it) and is dropped once nobody has listened for `idle_stop`, when the
    /// gateway stops, or — left by an instance that died — by the orphan sweep.
    pub async fn run(self: Arc<Self>) {
        self.running.store(true, Ordering::SeqCst);
        let sweeper = tokio::spawn(self.clone().sweep_orphans());
        let mut stopping = self.stopping.subscribe();
        // whether the slot may exist (then the next stream resumes it instead of starting afresh)
        let mut slot_kept = false;
        loop {
            if !self.wanted() {
                match self.await_listeners(&mut stopping, &mut slot_kept).await {
                    ControlFlow::Break(()) => break,
                    ControlFlow::Continue(false) => continue,
                    ControlFlow::Continue(true) => {}
                }
            }
            if *stopping.borrow() {
                break;
            }
            if self.attempt(&mut stopping, &mut slot_kept).await.is_break() {
                break;
            }
        }
        if slot_kept {
            self.drop_slot().await;
        }
        sweeper.abort();
        self.stopped.send_replace(true); // stored even before `stop` subscribes
    }

    /// Waits while nobody listens, dropping a kept slot once nobody has for `idle_stop`: `Break` when the gateway
    /// stops, `Continue(true)` once someone listens, `Continue(false)` after the wait ran out (look again).
    async fn await_listeners(
        &self,
        stopping: &mut watch::Receiver<bool>,
        slot_kept: &mut bool,
    ) -> ControlFlow<(), bool> {
        let idle = if *slot_kept { self.idle_stop } else { Duration::from_secs(24 * 3600) };
        tokio::select! {
            _ = until_true(stopping) => ControlFlow::Break(()),
            waited = tokio::time::timeout(idle, self.until_wanted()) => match waited {
                Ok(()) => ControlFlow::Continue(true),
                Err(_) => {
                    if *slot_kept {
                        *slot_kept = !self.drop_slot().await;
                    }
                    ControlFlow::Continue(false)
                }
            }
        }
    }

    /// One try: opens the slot and streams it until the stream ends; `Break` when the gateway stops.
    async fn attempt(self: &Arc<Self>, stopping: &mut watch::Receiver<bool>, slot_kept: &mut bool) -> ControlFlow<()> {
        let attempt = self.attempts.fetch_add(1, Ordering::SeqCst) + 1;
        let opened = slot::open(&self.replication_uri, &self.slot_name, &self.publication, !*slot_kept).await;
        *slot_kept = true; // even a failed attempt may have created it
        let conn = match opened {
            Ok(conn) => conn,
            Err(e) => {
                tracing::warn!(error = %e, "realtime replication stream unavailable");
                let _ = self.status.send(Status::Failed { cause: e.to_string(), attempt });
                // wait for another subscriber (or a while) before trying again
                return tokio::select! {
                    _ = until_true(stopping) => ControlFlow::Break(()),
                    _ = tokio::time::timeout(Duration::from_secs(5), self.wake.notified()) => ControlFlow::Continue(()),
                };
            }
        };
        let _ = self.status.send(Status::Running);
        let ended = self.clone().stream(conn, stopping.clone()).await;
        let _ = self.status.send(Status::Idle);
        match ended {
            Ok(Ended::Idle) => *slot_kept = !self.drop_slot().await,
            Ok(Ended::Stopping) => return ControlFlow::Break(()),
            Err(e) => {
                tracing::warn!(error = %e, "realtime replication stream lost; resuming from the slot");
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
        ControlFlow::Continue(())
    }

    async fn until_wanted(&self) {
        while !self.wanted() {
            self.wake.notified().await;
        }
    }

    /// Drops this instance's slot; whether it is gone.
    async fn drop_slot(&self) -> bool {
        match slot::drop_slot(&self.replication_uri, &self.slot_name).await {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(error = %e, slot = %self.slot_name, "realtime: could not drop the replication slot");
                false
            }
        }
    }

    /// On shutdown: stops the stream and drops the slot (waits a few seconds at most).
    pub async fn stop(&self) {
        self.stopping.send_replace(true);
        if !self.running.load(Ordering::SeqCst) {
            return;
        }
        let mut stopped = self.stopped.subscribe();
        if tokio::time::timeout(Duration::from_secs(5), until_true(&mut stopped)).await.is_err() {
            tracing::warn!("realtime: the change stream did not stop within 5 s");
        }
    }

    /// Drops slots left by instances that stopped without dropping theirs (killed): an instance slot on this
    /// database that stayed inactive through sweeps `REALTIME_SLOT_ORPHAN_MS` apart (one minute) and whose
    /// instance is not heard from. Sweeps run twice per that period.
    async fn sweep_orphans(self: Arc<Self>) {
        let mut inactive_since: std::collections::HashMap<String, tokio::time::Instant> = Default::default();
        let mut every = tokio::time::interval((self.orphan_after / 2).max(Duration::from_millis(100)));
        loop {
            every.tick().await;
            let client = match crate::core::db::passfile::config(&self.replication_uri) {
                Ok(config) => match config.connect(tokio_postgres::NoTls).await {
                    Ok((client, conn)) => {
                        tokio::spawn(conn);
                        client
                    }
                    Err(_) => continue,
                },
                Err(_) => continue,
            };
            let Ok(names) = slot::inactive_instance_slots(&client, &self.slot_name).await else { continue };
            inactive_since.retain(|n, _| names.contains(n));
            for name in names {
                let since = *inactive_since.entry(name.clone()).or_insert_with(tokio::time::Instant::now);
                let owner = name.strip_prefix("supabase_realtime_").and_then(|id| uuid::Uuid::parse_str(id).ok());
                if since.elapsed() < self.orphan_after || owner.is_some_and(|o| (self.alive)(o)) {
                    continue;
                }
                match client.execute("select pg_drop_replication_slot($1)", &[&name]).await {
                    Ok(_) => {
                        tracing::warn!(slot = %name, "realtime: dropped the replication slot of a stopped instance")
                    }
                    Err(e) => tracing::debug!(error = %e, slot = %name, "realtime: orphan slot not dropped"),
                }
            }
        }
    }

    async fn stream(
        self: Arc<Self>,
        conn: crate::core::db::pipeline::PgConn,
        mut stopping: watch::Receiver<bool>,
    ) -> Result<Ended, SlotError> {
        let (txns_tx, txns_rx) = mpsc::channel::<Transaction>(1024);
        let (acks_tx, acks_rx) = mpsc::unbounded_channel();
        let dispatcher = tokio::spawn(self.clone().dispatch(txns_rx, acks_tx));
        let idle = async {
            loop {
                let _ = tokio::time::timeout(self.idle_stop, self.wake.notified()).await;
                if !self.wanted() {
                    tokio::time::sleep(self.idle_stop).await;
                    if !self.wanted() {
                        return;
                    }
                }
            }
        };
        let result = tokio::select! {
            r = slot::stream(conn, txns_tx, acks_rx) => r.and(Err(SlotError::Lost("the dispatcher stopped".into()))),
            _ = idle => Ok(Ended::Idle),
            _ = until_true(&mut stopping) => Ok(Ended::Stopping),
        };
        dispatcher.abort();
        result
    }
}

/// Resolves once the flag is set (or its sender is gone).
async fn until_true(flag: &mut watch::Receiver<bool>) {
    let _ = flag.wait_for(|s| *s).await;
}
