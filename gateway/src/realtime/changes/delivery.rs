//! Delivery: a stream's transactions gathered into batches, each delivered through the dispatcher with retries
//! and back-off until it is done, then acknowledged to the slot.

use super::dispatch;
use super::slot::Transaction;
use super::Changes;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

impl Changes {
    pub(super) async fn dispatch(
        self: Arc<Self>,
        mut txns: mpsc::Receiver<Transaction>,
        acks: mpsc::UnboundedSender<u64>,
    ) {
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

/// Back-off between delivery attempts: from this, doubling, up to `RETRY_MAX`.
const RETRY_FIRST: Duration = Duration::from_millis(250);
const RETRY_MAX: Duration = Duration::from_secs(30);
/// Attempts logged as warnings before they become errors.
const RETRY_LOUD_AFTER: u32 = 5;
