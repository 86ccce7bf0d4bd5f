//! Postgres Changes: channels subscribe with bindings; this instance streams the `supabase_realtime` publication
//! from its own logical replication slot while it has subscribers (see `slot` for the slot's lifetime), and
//! delivers each committed change to the subscribers that may see it (see `dispatch`), acknowledging a change to
//! the slot only once delivered — failed deliveries are tried again, a lost stream resumes where it was
//! confirmed. When logical replication is not possible (wal_level, privileges) everything else keeps working and
//! each subscription is answered with a `system` error naming the cause.

mod catalog;
mod dispatch;
pub mod filter;
pub mod pgoutput;
mod registry;
pub mod slot;
mod visibility;

use super::auth::Caller;
use super::frames;
use super::outbound::SocketTx;
use super::protocol::Vsn;
use registry::{Registry, Request, Subscription};
use serde_json::Value;
use slot::{SlotError, Transaction};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, watch, Notify};

/// Where a channel's changes go.
#[derive(Debug, Clone)]
pub struct Target {
    pub socket: SocketTx,
    pub topic: Arc<str>,
    pub join_ref: Option<Arc<str>>,
    pub vsn: Vsn,
}

impl Target {
    fn system(&self, ok: bool, message: &str) {
        let sub_topic = self.topic.strip_prefix("realtime:").unwrap_or(&self.topic);
        let payload = frames::system_payload("postgres_changes", ok, message, sub_topic);
        self.socket.send(frames::push(self.vsn, self.join_ref.as_deref(), &self.topic, "system", &payload));
    }
}

/// The stream's state as subscribers see it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Status {
    Idle,
    Running,
    /// Could not stream; `attempt` counts tries so a waiter knows the answer is about its own request.
    Failed {
        cause: String,
        attempt: u64,
    },
}

pub struct Changes {
    pool: deadpool_postgres::Pool,
    db_uri: String,
    replication_uri: String,
    publication: String,
    slot_name: String,
    registry: Mutex<Registry>,
    /// Channels waiting for the stream (counted so the stream starts for them).
    pending: AtomicU64,
    status: watch::Sender<Status>,
    attempts: AtomicU64,
    wake: Notify,
    next_id: AtomicU64,
    idle_stop: Duration,
    orphan_after: Duration,
    batch_window: Duration,
    /// Claims that arrived (`access_token`) while a subscription was still being set up.
    newer_callers: Mutex<std::collections::HashMap<u64, Caller>>,
    /// End of the last transaction delivered (or skipped as predating every subscriber).
    delivered_lsn: AtomicU64,
    /// Whether an instance (by its id) is alive: another instance's slot is never swept while it is.
    alive: Liveness,
    /// Set when the gateway stops; `stopped` once the slot is gone.
    stopping: watch::Sender<bool>,
    stopped: watch::Sender<bool>,
    running: std::sync::atomic::AtomicBool,
}

/// Tells whether the instance with this id was heard from recently.
pub type Liveness = Arc<dyn Fn(uuid::Uuid) -> bool + Send + Sync>;

/// Why a stream ended without an error.
enum Ended {
    /// Nobody has listened for `REALTIME_SLOT_IDLE_MS`.
    Idle,
    /// The gateway is stopping.
    Stopping,
}

impl Changes {
    pub fn new(
        pool: deadpool_postgres::Pool,
        db_uri: String,
        settings: &crate::realtime::config::RealtimeConfig,
        node: uuid::Uuid,
        alive: Liveness,
    ) -> Self {
        let (replication_uri, publication) = (settings.replication_db_uri.clone(), settings.publication.clone());
        Changes {
            idle_stop: settings.slot_idle_stop,
            orphan_after: settings.slot_orphan_after,
            batch_window: settings.changes_batch_window,
            pool,
            db_uri,
            replication_uri,
            publication,
            slot_name: format!("supabase_realtime_{}", node.simple()),
            registry: Mutex::new(Registry::default()),
            pending: AtomicU64::new(0),
            status: watch::channel(Status::Idle).0,
            attempts: AtomicU64::new(0),
            wake: Notify::new(),
            next_id: AtomicU64::new(1),
            newer_callers: Mutex::new(std::collections::HashMap::new()),
            delivered_lsn: AtomicU64::new(0),
            alive,
            stopping: watch::channel(false).0,
            stopped: watch::channel(false).0,
            running: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Subscribes a channel's bindings; the outcome reaches the client as a `system` message.
    pub fn subscribe(self: &Arc<Self>, target: Target, caller: Caller, elements: &[Value]) -> u64 {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let requests: Vec<Request> = elements.iter().map(Request::parse).collect();
        let this = self.clone();
        tokio::spawn(async move { this.activate(id, target, caller, requests).await });
        id
    }

    /// New claims for a subscription (`access_token`): kept, then `Subscribed to PostgreSQL` again. The bindings'
    /// tables and filter types do not depend on the token; the claims decide visibility from now on.
    pub fn reauthorize(&self, id: u64, caller: Caller) {
        let Ok(mut registry) = self.registry.lock() else { return };
        let Some(existing) = registry.snapshot().into_iter().find(|s| s.id == id) else {
            // still being set up: it will take these claims when it registers
            if let Ok(mut newer) = self.newer_callers.lock() {
                newer.insert(id, caller);
            }
            return;
        };
        let target = existing.target.clone();
        registry.insert(Subscription {
            id,
            target: target.clone(),
            caller,
            bindings: existing.bindings.clone(),
            since_lsn: existing.since_lsn,
        });
        target.system(true, "Subscribed to PostgreSQL");
    }

    pub fn unsubscribe(&self, id: u64) {
        if let Ok(mut r) = self.registry.lock() {
            r.remove(id);
        }
        if let Ok(mut newer) = self.newer_callers.lock() {
            newer.remove(&id);
        }
        self.wake.notify_one();
    }

    async fn activate(self: Arc<Self>, id: u64, target: Target, caller: Caller, requests: Vec<Request>) {
        self.pending.fetch_add(1, Ordering::SeqCst);
        let attempt = self.attempts.load(Ordering::SeqCst);
        self.wake.notify_one();
        let ready = self.wait_running(attempt).await;
        let result = match ready {
            Err(cause) => Err(format!("Unable to subscribe to changes: {cause}")),
            Ok(()) => self.resolve_and_register(id, &target, caller, &requests).await,
        };
        self.pending.fetch_sub(1, Ordering::SeqCst);
        match result {
            Ok(()) => target.system(true, "Subscribed to PostgreSQL"),
            Err(message) => target.system(false, &message),
        }
        self.wake.notify_one();
    }

    async fn wait_running(&self, attempt: u64) -> Result<(), String> {
        let mut rx = self.status.subscribe();
        let wait = rx.wait_for(|s| match s {
            Status::Running => true,
            Status::Failed { attempt: a, .. } => *a > attempt,
            Status::Idle => false,
        });
        let outcome = match tokio::time::timeout(Duration::from_secs(20), wait).await {
            Ok(Ok(s)) => match &*s {
                Status::Failed { cause, .. } => Err(cause.clone()),
                _ => Ok(()),
            },
            _ => Err("the replication stream did not start in time".into()),
        };
        outcome
    }

    async fn resolve_and_register(
        &self,
        id: u64,
        target: &Target,
        caller: Caller,
        requests: &[Request],
    ) -> Result<(), String> {
        let bindings = registry::resolve(&self.pool, &self.publication, &caller, requests).await?;
        let since_lsn = self.current_lsn().await?;
        if target.socket.is_closed() {
            return Ok(());
        }
        let mut registry = self.registry.lock().map_err(|_| "registry poisoned".to_string())?;
        let caller = self.newer_callers.lock().ok().and_then(|mut n| n.remove(&id)).unwrap_or(caller);
        registry.insert(Subscription { id, target: target.clone(), caller, bindings, since_lsn });
        Ok(())
    }

    async fn current_lsn(&self) -> Result<u64, String> {
        let client = self.pool.get().await.map_err(|e| e.to_string())?;
        let row = client.query_one("select pg_current_wal_lsn()::text", &[]).await.map_err(|e| e.to_string())?;
        pgoutput::parse_lsn(row.get::<_, &str>(0)).ok_or_else(|| "unreadable WAL position".into())
    }

    fn wanted(&self) -> bool {
        self.pending.load(Ordering::SeqCst) > 0 || self.registry.lock().map(|r| !r.is_empty()).unwrap_or(false)
    }

    fn snapshot(&self) -> Vec<Arc<Subscription>> {
        self.registry.lock().map(|r| r.snapshot()).unwrap_or_default()
    }

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
                let idle = if slot_kept { self.idle_stop } else { Duration::from_secs(24 * 3600) };
                tokio::select! {
                    _ = until_true(&mut stopping) => break,
                    waited = tokio::time::timeout(idle, self.until_wanted()) => if waited.is_err() {
                        if slot_kept {
                            slot_kept = !self.drop_slot().await;
                        }
                        continue;
                    }
                }
            }
            if *stopping.borrow() {
                break;
            }
            let attempt = self.attempts.fetch_add(1, Ordering::SeqCst) + 1;
            let opened = slot::open(&self.replication_uri, &self.slot_name, &self.publication, !slot_kept).await;
            slot_kept = true; // even a failed attempt may have created it
            match opened {
                Err(e) => {
                    tracing::warn!(error = %e, "realtime replication stream unavailable");
                    let _ = self.status.send(Status::Failed { cause: e.to_string(), attempt });
                    // wait for another subscriber (or a while) before trying again
                    tokio::select! {
                        _ = until_true(&mut stopping) => break,
                        _ = tokio::time::timeout(Duration::from_secs(5), self.wake.notified()) => {}
                    }
                }
                Ok(conn) => {
                    let _ = self.status.send(Status::Running);
                    let ended = self.clone().stream(conn, stopping.clone()).await;
                    let _ = self.status.send(Status::Idle);
                    match ended {
                        Ok(Ended::Idle) => slot_kept = !self.drop_slot().await,
                        Ok(Ended::Stopping) => break,
                        Err(e) => {
                            tracing::warn!(error = %e, "realtime replication stream lost; resuming from the slot");
                            tokio::time::sleep(Duration::from_millis(500)).await;
                        }
                    }
                }
            }
        }
        if slot_kept {
            self.drop_slot().await;
        }
        sweeper.abort();
        self.stopped.send_replace(true); // stored even before `stop` subscribes
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

    async fn dispatch(self: Arc<Self>, mut txns: mpsc::Receiver<Transaction>, acks: mpsc::UnboundedSender<u64>) {
        let mut dispatcher: Option<dispatch::Dispatcher> = None;
        while let Some(first) = txns.recv().await {
            let mut batch = self.gather(first, &mut txns).await;
            let end = batch.last().map(|t| t.end_lsn).unwrap_or(0);
            // a stream resumed from the slot's confirmed position may repeat what was already delivered
            let delivered = self.delivered_lsn.load(Ordering::SeqCst);
            batch.retain(|t| t.end_lsn > delivered);
            if !batch.is_empty() {
                self.deliver_until_done(&mut dispatcher, &batch).await;
            }
            self.delivered_lsn.fetch_max(end, Ordering::SeqCst);
            let _ = acks.send(end);
        }
    }

    /// The first transaction and whatever else arrives within the batch window, up to 256 transactions.
    async fn gather(&self, first: Transaction, txns: &mut mpsc::Receiver<Transaction>) -> Vec<Transaction> {
        let mut batch = vec![first];
        let until = tokio::time::Instant::now() + self.batch_window;
        while batch.len() < 256 {
            match tokio::time::timeout_at(until, txns.recv()).await {
                Ok(Some(t)) => batch.push(t),
                _ => break,
            }
        }
        batch
    }

    /// Delivers a batch, trying again with back-off for as long as it takes (the slot keeps its changes meanwhile):
    /// a batch is never acknowledged undelivered. Changes no attempt could ever judge (a table dropped since) are
    /// skipped by the dispatcher itself, with an error logged.
    async fn deliver_until_done(&self, dispatcher: &mut Option<dispatch::Dispatcher>, batch: &[Transaction]) {
        let mut pause = RETRY_FIRST;
        for attempt in 1u32.. {
            if dispatcher.as_ref().is_none_or(|d| d.is_closed()) {
                *dispatcher = dispatch::Dispatcher::connect(&self.db_uri)
                    .await
                    .map_err(|e| tracing::warn!(error = %e, attempt, "realtime dispatcher cannot connect"))
                    .ok();
            }
            if let Some(d) = dispatcher.as_mut() {
                match d.deliver(batch, &self.snapshot()).await {
                    Ok(_) => {
                        if attempt > 1 {
                            tracing::info!(attempt, "realtime: held changes delivered");
                        }
                        return;
                    }
                    Err(e) if attempt < RETRY_LOUD_AFTER => {
                        tracing::warn!(error = %e, attempt, "realtime: delivering changes failed; trying again")
                    }
                    Err(e) => tracing::error!(
                        error = %e,
                        attempt,
                        "realtime: changes still cannot be delivered; they are held in the slot and tried again"
                    ),
                }
                d.expire_catalog();
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(RETRY_MAX);
        }
    }
}

/// Resolves once the flag is set (or its sender is gone).
async fn until_true(flag: &mut watch::Receiver<bool>) {
    let _ = flag.wait_for(|s| *s).await;
}

/// Back-off between delivery attempts: from this, doubling, up to `RETRY_MAX`.
const RETRY_FIRST: Duration = Duration::from_millis(250);
const RETRY_MAX: Duration = Duration::from_secs(30);
/// Attempts logged as warnings before they become errors.
const RETRY_LOUD_AFTER: u32 = 5;
