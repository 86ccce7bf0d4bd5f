//! Postgres Changes: channels subscribe with bindings; this instance streams the `supabase_realtime` publication
//! from its own logical replication slot while it has subscribers (see `slot` for the slot's lifetime), and
//! delivers each committed change to the subscribers that may see it (see `dispatch`), acknowledging a change to
//! the slot only once delivered — failed deliveries are tried again, a lost stream resumes where it was
//! confirmed. When logical replication is not possible (wal_level, privileges) everything else keeps working and
//! each subscription is answered with a `system` error naming the cause.

mod catalog;
mod delivery;
mod dispatch;
pub mod filter;
pub mod pgoutput;
mod registry;
pub mod slot;
mod stream;

use super::credentials::Credentials;
use super::frames;
use super::outbound::SocketTx;
use super::protocol::Vsn;
use registry::{Registry, Request, Subscription};
use serde_json::Value;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{watch, Notify};

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
    newer_callers: Mutex<std::collections::HashMap<u64, Credentials>>,
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

impl Changes {
    pub fn new(
        pool: deadpool_postgres::Pool,
        db_uri: String,
        config: &crate::realtime::config::RealtimeConfig,
        node: uuid::Uuid,
        alive: Liveness,
    ) -> Self {
        let (replication_uri, publication) = (config.replication_db_uri.clone(), config.publication.clone());
        Changes {
            idle_stop: config.slot_idle_stop,
            orphan_after: config.slot_orphan_after,
            batch_window: config.changes_batch_window,
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
    pub fn subscribe(self: &Arc<Self>, target: Target, caller: Credentials, elements: &[Value]) -> u64 {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let requests: Vec<Request> = elements.iter().map(Request::parse).collect();
        let this = self.clone();
        tokio::spawn(async move { this.activate(id, target, caller, requests).await });
        id
    }

    /// New claims for a subscription (`access_token`): kept, then `Subscribed to PostgreSQL` again. The bindings'
    /// tables and filter types do not depend on the token; the claims decide visibility from now on.
    pub fn reauthorize(&self, id: u64, caller: Credentials) {
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

    async fn activate(self: Arc<Self>, id: u64, target: Target, caller: Credentials, requests: Vec<Request>) {
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
        caller: Credentials,
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
        crate::core::db::lsn::Lsn::parse(row.get::<_, &str>(0))
            .map(|lsn| lsn.0)
            .ok_or_else(|| "unreadable WAL position".into())
    }

    fn wanted(&self) -> bool {
        self.pending.load(Ordering::SeqCst) > 0 || self.registry.lock().map(|r| !r.is_empty()).unwrap_or(false)
    }

    fn snapshot(&self) -> Vec<Arc<Subscription>> {
        self.registry.lock().map(|r| r.snapshot()).unwrap_or_default()
    }
}
