//! The mail outbox worker: delivers messages that SQL queued with `gateway.enqueue_mail()` through the `Mailer`.
//! Each message is claimed with `FOR UPDATE SKIP LOCKED` inside its own transaction, so several gateway
//! instances share the work and a crash mid-delivery leaves the message queued. Transient failures are retried
//! with exponential back-off; permanent ones are recorded as `failed`. `LISTEN gateway_outbox` wakes the worker
//! as soon as a message is committed; a timer covers retries and missed notifications. On shutdown (`stop`) the
//! worker claims nothing new and the message it is sending gets until the shutdown bound: it is then either sent
//! and marked so, or released unchanged for a later attempt — never sent and left queued by a cut-off process.

mod listener;
pub mod stop;

use crate::core::config::Config;
use crate::core::config::Vars;
use crate::core::mail::{MailError, Mailer, OutgoingMail};
use deadpool_postgres::Pool;
use std::sync::Arc;
use std::time::Duration;
use stop::{StopSignal, Stopper};
use tokio::sync::Notify;

/// Retry and polling configuration (`GATEWAY_OUTBOX_RETRY_BASE_SECS`, `_RETRY_MAX_SECS`, `_POLL_SECS`).
#[derive(Debug, Clone)]
pub struct OutboxConfig {
    pub retry_base: Duration,
    pub retry_max: Duration,
    pub poll: Duration,
}

impl OutboxConfig {
    pub fn from_vars(vars: &Vars) -> Self {
        OutboxConfig {
            retry_base: vars.secs(&["GATEWAY_OUTBOX_RETRY_BASE_SECS"], 30.0, 0.1),
            retry_max: vars.secs(&["GATEWAY_OUTBOX_RETRY_MAX_SECS"], 3600.0, 0.1),
            poll: vars.secs(&["GATEWAY_OUTBOX_POLL_SECS"], 30.0, 0.1),
        }
    }
}

/// The wait before the next attempt after `attempts` failed ones: base · 2^(attempts−1), capped.
pub fn backoff(attempts: i32, base: Duration, max: Duration) -> Duration {
    let exp = attempts.clamp(1, 30) - 1;
    base.saturating_mul(1u32 << exp.min(20)).min(max)
}

/// The one `Message-ID` of an outbox row, the same on every attempt (from its id and creation time), so a message
/// sent again after a crash between the SMTP reply and the status update is recognised by the receiver.
pub fn outbox_message_id(id: i64, created_micros: i64, domain: &str) -> String {
    format!("outbox.{id}.{created_micros}@{domain}")
}

/// What happened to one claimed message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Sent,
    Retry,
    Failed,
    /// The shutdown bound passed while sending: the claim was rolled back, the row is as it was.
    Released,
}

/// Delivers at most one due message; `None` when nothing is due or the worker is stopping. A send still running at
/// the stop's deadline is abandoned and its claim released.
pub async fn deliver_one(
    pool: &Pool,
    mailer: &Mailer,
    config: &OutboxConfig,
    stop: &StopSignal,
) -> anyhow::Result<Option<Outcome>> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    let Some(row) = tx
        .query_opt(
            "select id, to_address, subject, body_text, body_html, attempts, \
                    (extract(epoch from created_at) * 1000000)::int8, \
                    array(select h.key from jsonb_each_text(headers) h order by h.key), \
                    array(select h.value from jsonb_each_text(headers) h order by h.key) \
             from gateway.outbox \
             where status = 'queued' and next_attempt_at <= now() order by next_attempt_at, id \
             limit 1 for update skip locked",
            &[],
        )
        .await?
    else {
        return Ok(None);
    };
    if stop.is_set() {
        tx.rollback().await?;
        return Ok(None);
    }
    let id: i64 = row.get(0);
    let attempts: i32 = row.get::<_, i32>(5) + 1;
    let message_id = Some(outbox_message_id(id, row.get(6), mailer.sender_domain()));
    let headers = row.get::<_, Vec<String>>(7).into_iter().zip(row.get::<_, Vec<String>>(8));
    let mail = OutgoingMail {
        to: row.get(1),
        subject: row.get(2),
        text: row.get(3),
        html: row.get(4),
        message_id,
        headers: headers.collect(),
    };
    let sent = tokio::select! {
        sent = mailer.send(&mail) => sent,
        _ = stop.deadline() => {
            tx.rollback().await?;
            tracing::warn!(id, "outbox: shutdown bound reached while sending; the message is released for a later attempt");
            return Ok(Some(Outcome::Released));
        }
    };
    let outcome = record(&tx, id, attempts, sent, config).await?;
    tx.commit().await?;
    Ok(Some(outcome))
}

/// Records what the send did: sent, a transient failure retried after the back-off, or a permanent failure.
async fn record(
    tx: &deadpool_postgres::Transaction<'_>,
    id: i64,
    attempts: i32,
    sent: Result<(), MailError>,
    config: &OutboxConfig,
) -> anyhow::Result<Outcome> {
    Ok(match sent {
        Ok(()) => {
            tx.execute(
                "update gateway.outbox set status = 'sent', attempts = $2, sent_at = now(), last_error = null where id = $1",
                &[&id, &attempts],
            )
            .await?;
            Outcome::Sent
        }
        Err(MailError::Transient(e)) => {
            let wait = backoff(attempts, config.retry_base, config.retry_max).as_secs_f64();
            tracing::warn!(id, attempts, error = %e, "outbox: delivery failed, retrying in {wait:.1} s");
            tx.execute(
                "update gateway.outbox set attempts = $2, last_error = $3, \
                 next_attempt_at = now() + make_interval(secs => $4) where id = $1",
                &[&id, &attempts, &e, &wait],
            )
            .await?;
            Outcome::Retry
        }
        Err(e) => {
            tracing::error!(id, error = %e, "outbox: message cannot be delivered");
            tx.execute(
                "update gateway.outbox set status = 'failed', attempts = $2, last_error = $3 where id = $1",
                &[&id, &attempts, &e.to_string()],
            )
            .await?;
            Outcome::Failed
        }
    })
}

/// How long until the next queued message is due (`None`: nothing queued).
async fn next_due(pool: &Pool) -> anyhow::Result<Option<Duration>> {
    let client = pool.get().await?;
    let row = client
        .query_one(
            "select extract(epoch from (min(next_attempt_at) - now()))::float8 from gateway.outbox where status = 'queued'",
            &[],
        )
        .await?;
    Ok(row.get::<_, Option<f64>>(0).map(|s| Duration::from_secs_f64(s.max(0.0))))
}

/// Delivers everything due, then sleeps until woken, the next retry is due, or the poll interval passes; returns
/// once told to stop (after the message in progress is sent or released).
pub async fn run(pool: Pool, mailer: Mailer, config: OutboxConfig, wake: Arc<Notify>, stop: StopSignal) {
    while !stop.is_set() {
        loop {
            match deliver_one(&pool, &mailer, &config, &stop).await {
                Ok(Some(_)) => continue,
                Ok(None) => break,
                Err(e) => {
                    tracing::warn!(error = %format!("{e:#}"), "outbox: database unavailable");
                    break;
                }
            }
        }
        let wait = match next_due(&pool).await {
            Ok(Some(d)) => d.clamp(Duration::from_millis(50), config.poll),
            Ok(None) => config.poll,
            Err(_) => config.poll.min(Duration::from_secs(5)),
        };
        tokio::select! {
            _ = wake.notified() => {}
            _ = tokio::time::sleep(wait) => {}
            _ = stop.requested() => {}
        }
    }
}

/// The running worker: [`Worker::stopper`] gives the stop order, [`Worker::finished`] waits for it to take effect.
pub struct Worker {
    stopper: Stopper,
    task: tokio::task::JoinHandle<()>,
}

impl Worker {
    pub fn stopper(&self) -> Stopper {
        self.stopper.clone()
    }

    /// Gives the stop order if not yet given (a send in progress has until `bound` from then), and waits until the
    /// worker has sent or released its message; a worker stuck past the deadline (a database that does not answer)
    /// is left to end with the process.
    pub async fn finished(self, bound: Duration) {
        self.stopper.stop(bound);
        let deadline = self.stopper.deadline().unwrap_or_else(tokio::time::Instant::now);
        if tokio::time::timeout_at(deadline + Duration::from_secs(1), self.task).await.is_err() {
            tracing::warn!("outbox: the worker did not stop in time; its claim ends with the process");
        }
    }
}

/// Starts the listener and the worker (`GATEWAY_OUTBOX=off` disables both).
pub fn spawn(config: &Config, pool: &Pool, mailer: &Mailer) -> Option<Worker> {
    let vars = &config.vars;
    if !vars.bool(&["GATEWAY_OUTBOX"], true) {
        return None;
    }
    let wake = Arc::new(Notify::new());
    let (stopper, signal) = stop::channel();
    tokio::spawn(listener::listen(config.db_uri.clone(), wake.clone()));
    let worker = run(pool.clone(), mailer.clone(), OutboxConfig::from_vars(vars), wake, signal);
    Some(Worker { stopper, task: tokio::spawn(worker) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_and_is_capped() {
        let (b, m) = (Duration::from_secs(30), Duration::from_secs(3600));
        assert_eq!(backoff(1, b, m), Duration::from_secs(30));
        assert_eq!(backoff(2, b, m), Duration::from_secs(60));
        assert_eq!(backoff(4, b, m), Duration::from_secs(240));
        assert_eq!(backoff(50, b, m), m);
    }
}
