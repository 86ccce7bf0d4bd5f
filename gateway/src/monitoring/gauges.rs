//! Sampled gauges: connections in use, idle and waited for in each pool (the read replicas' summed as `replica`) and Realtime's sockets and channel joins
//! (every second), and the outbox backlog with the age of its oldest queued message (every five seconds).

use super::Sampled;
use std::time::Duration;

/// Samples until the process ends.
pub fn spawn(sampled: Sampled) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        for n in 0u64.. {
            tick.tick().await;
            sample_pools(&sampled);
            metrics::gauge!("gateway_realtime_sockets").set(sampled.realtime.socket_count() as f64);
            metrics::gauge!("gateway_realtime_channel_joins").set(sampled.realtime.hub.member_count() as f64);
            if n % 5 == 0 {
                sample_outbox(&sampled).await;
            }
        }
    });
}

fn sample_pools(sampled: &Sampled) {
    let shared = sampled.core.pool.status();
    record_pool("shared", shared.size, shared.available, shared.waiting);
    record_pools("rest", sampled.rest.pool_statuses());
    record_pools("replica", sampled.rest.replicas.pool_statuses());
}

/// Several pools summed under one name (the workers' pools).
fn record_pools(pool: &'static str, statuses: Vec<deadpool::Status>) {
    let (mut size, mut available, mut waiting) = (0, 0, 0);
    for s in statuses {
        (size, available, waiting) = (size + s.size, available + s.available, waiting + s.waiting);
    }
    record_pool(pool, size, available, waiting);
}

fn record_pool(pool: &'static str, size: usize, available: usize, waiting: usize) {
    let in_use = size.saturating_sub(available);
    metrics::gauge!("gateway_db_pool_connections", "pool" => pool, "state" => "in_use").set(in_use as f64);
    metrics::gauge!("gateway_db_pool_connections", "pool" => pool, "state" => "idle").set(available as f64);
    metrics::gauge!("gateway_db_pool_waiting", "pool" => pool).set(waiting as f64);
}

async fn sample_outbox(sampled: &Sampled) {
    let Ok(client) = sampled.core.pool.get().await else { return };
    let sql = "select count(*)::float8, coalesce(extract(epoch from now() - min(created_at)), 0)::float8 \
               from gateway.outbox where status = 'queued'";
    if let Ok(row) = client.query_one(sql, &[]).await {
        metrics::gauge!("gateway_outbox_queued").set(row.get::<_, f64>(0));
        metrics::gauge!("gateway_outbox_oldest_age_seconds").set(row.get::<_, f64>(1));
    }
}
