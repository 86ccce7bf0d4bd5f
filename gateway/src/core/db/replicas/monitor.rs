//! The standbys' monitor: every `GATEWAY_READ_REPLICA_CHECK_MS` it samples the primary's WAL position, asks each
//! standby (on a connection of its own) whether it is still a standby, how far it has replayed and how old its last
//! replayed commit is, and judges it (`lag::judge`). A standby that does not answer within the check's time is down.
//! Changes are logged; `gateway_db_replica_usable` and `gateway_db_replica_lag_seconds` show the state.

use super::lag::{self, Health, Observation, Samples};
use super::{Replica, Replicas};
use crate::core::db::lsn::Lsn;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::time::{timeout, MissedTickBehavior};
use tokio_postgres::{Client, NoTls};

const CHECK_SQL: &str = "select pg_is_in_recovery(), pg_last_wal_replay_lsn()::text, \
     extract(epoch from clock_timestamp() - pg_last_xact_replay_timestamp())::float8";

/// Runs until the process ends.
pub(super) async fn run(replicas: Arc<Replicas>, primary: deadpool_postgres::Pool) {
    let config = &replicas.config;
    let mut samples = Samples::new(config.max_lag);
    let mut clients: Vec<Option<Client>> = replicas.list.iter().map(|_| None).collect();
    let limit = config.check_every.max(Duration::from_secs(1));
    let mut tick = tokio::time::interval(config.check_every);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let now = Instant::now();
        if let Some(lsn) = sample_primary(&primary, limit).await {
            samples.record(now, lsn);
            replicas.learn_mark(lsn);
        }
        let checks = replicas.list.iter().zip(clients.iter_mut()).map(|(replica, client)| async move {
            let observed = timeout(limit, observe(replica, client)).await.ok().flatten();
            if observed.is_none() {
                *client = None;
            }
            (replica, observed)
        });
        for (replica, observed) in futures::future::join_all(checks).await {
            let health = match &observed {
                Some(obs) => lag::judge(obs, &samples, config.max_lag, Instant::now()),
                None => Health::Down,
            };
            replica.record(health, observed.and_then(|o| o.replayed), config.max_lag);
        }
    }
}

async fn sample_primary(primary: &deadpool_postgres::Pool, limit: Duration) -> Option<Lsn> {
    let client = timeout(limit, primary.get()).await.ok()?.ok()?;
    timeout(limit, super::primary_position(&client)).await.ok()?
}

/// One standby's answers, connecting first when needed; `None` when it cannot be asked.
async fn observe(replica: &Replica, client: &mut Option<Client>) -> Option<Observation> {
    if client.as_ref().is_none_or(|c| c.is_closed()) {
        let (c, connection) = replica.config.connect(NoTls).await.ok()?;
        tokio::spawn(async move {
            let _ = connection.await;
        });
        *client = Some(c);
    }
    let row = client.as_ref()?.query_one(CHECK_SQL, &[]).await.ok()?;
    Some(Observation {
        in_recovery: row.get(0),
        replayed: row.get::<_, Option<&str>>(1).and_then(Lsn::parse),
        since_last_replay: row.get::<_, Option<f64>>(2).map(|s| Duration::from_secs_f64(s.max(0.0))),
    })
}

impl Replica {
    /// Keeps a judgement: what `pick` reads, the metrics, and a log line when it changes the standby's use.
    fn record(&self, health: Health, replayed: Option<Lsn>, max_lag: Duration) {
        if let Some(lsn) = replayed {
            self.replayed.store(lsn.0, Relaxed);
        }
        let was_usable = self.usable.swap(health.is_usable(), Relaxed);
        let label = self.index.to_string();
        metrics::gauge!("gateway_db_replica_usable", "replica" => label.clone())
            .set(f64::from(u8::from(health.is_usable())));
        metrics::gauge!("gateway_db_replica_lag_seconds", "replica" => label).set(health.lag_secs().unwrap_or(-1.0));
        let mut last = self.health.lock().unwrap_or_else(|e| e.into_inner());
        let changed = std::mem::discriminant(&*last) != std::mem::discriminant(&health);
        *last = health;
        drop(last);
        match (was_usable, health) {
            (false, Health::Usable { lag }) => tracing::info!(replica = %self.name, ?lag, "read replica in use"),
            (true, Health::Usable { .. }) => {}
            (_, health) if was_usable || changed => {
                tracing::warn!(replica = %self.name, reason = %reason(health, max_lag), "read replica skipped")
            }
            _ => {}
        }
    }
}

/// Why a standby is not used, in words.
fn reason(health: Health, max_lag: Duration) -> String {
    match health {
        Health::Usable { .. } => "in use".into(),
        Health::Lagging { lag: Some(lag) } => format!("behind by {lag:.1?}, more than {max_lag:?}"),
        Health::Lagging { lag: None } => "lag unknown (nothing replayed yet)".into(),
        Health::NotStandby => "not a standby (pg_is_in_recovery() is false)".into(),
        Health::Down => "not answering".into(),
    }
}
