//! Whether the gateway has been asked to stop: set on SIGTERM or SIGINT before the listeners close, so `/ready`
//! answers 503 while the gateway still serves for `GATEWAY_SHUTDOWN_DELAY_SECS` and a load balancer's health check
//! takes it out of rotation before it refuses connections.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set once, never cleared: the process stops after it.
#[derive(Debug, Default)]
pub struct Stopping(AtomicBool);

impl Stopping {
    /// Marks the gateway as stopping.
    pub fn begin(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether a stop has begun.
    pub fn has_begun(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn begins_once_and_stays() {
        let s = super::Stopping::default();
        assert!(!s.has_begun());
        s.begin();
        s.begin();
        assert!(s.has_begun());
    }
}
