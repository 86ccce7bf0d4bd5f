//! Stopping the outbox worker on shutdown: once told, it claims no new message; the one it is sending may finish
//! until the shutdown bound, after which its claim is released (rolled back, the row unchanged) for a later attempt.

use std::time::Duration;
use tokio::sync::watch;
use tokio::time::Instant;

/// A stop order and the worker's view of it: `None` while running, then the deadline for the send in progress.
pub fn channel() -> (Stopper, StopSignal) {
    let (tx, rx) = watch::channel(None);
    (Stopper(tx), StopSignal(rx))
}

/// Gives the stop order (cheap to clone, so a shutdown future can own one).
#[derive(Clone)]
pub struct Stopper(watch::Sender<Option<Instant>>);

impl Stopper {
    /// Stop claiming now; a send in progress has until `bound` from now.
    pub fn stop(&self, bound: Duration) {
        self.0.send_if_modified(|deadline| deadline.is_none() && deadline.replace(Instant::now() + bound).is_none());
    }

    /// The deadline, once the order is given.
    pub fn deadline(&self) -> Option<Instant> {
        *self.0.borrow()
    }
}

/// The worker's side of the stop order. A dropped `Stopper` counts as an order with no time left.
#[derive(Clone)]
pub struct StopSignal(watch::Receiver<Option<Instant>>);

impl StopSignal {
    /// Whether the worker has been told to stop.
    pub fn is_set(&self) -> bool {
        self.0.borrow().is_some() || self.0.has_changed().is_err()
    }

    /// Resolves once the worker is told to stop, with the deadline of the send in progress.
    pub async fn requested(&self) -> Instant {
        let mut rx = self.0.clone();
        let deadline = rx.wait_for(Option::is_some).await.map(|d| *d);
        deadline.ok().flatten().unwrap_or_else(Instant::now)
    }

    /// Resolves when the deadline passes (never while the worker runs on).
    pub async fn deadline(&self) {
        tokio::time::sleep_until(self.requested().await).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_deadline_follows_the_order_by_the_bound() {
        let (stopper, signal) = channel();
        assert!(!signal.is_set());
        let waiting = tokio::spawn({
            let signal = signal.clone();
            async move { signal.deadline().await }
        });
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(!waiting.is_finished(), "no deadline before the order");
        let ordered = Instant::now();
        stopper.stop(Duration::from_millis(300));
        let deadline = stopper.deadline().unwrap();
        stopper.stop(Duration::from_secs(100));
        assert!(signal.is_set());
        assert_eq!(stopper.deadline(), Some(deadline), "a second order changes nothing");
        let bound = deadline - ordered;
        assert!(bound >= Duration::from_millis(300) && bound < Duration::from_secs(1), "{bound:?}");
        tokio::time::timeout(Duration::from_secs(5), waiting).await.unwrap().unwrap();
        assert!(Instant::now() >= deadline, "not before the deadline");
    }

    #[tokio::test]
    async fn a_dropped_stopper_stops_at_once() {
        let (stopper, signal) = channel();
        drop(stopper);
        assert!(signal.is_set());
        tokio::time::timeout(Duration::from_secs(1), signal.deadline()).await.unwrap();
    }
}
