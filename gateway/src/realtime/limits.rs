//! Rate limits as Realtime applies them: a rolling average (token bucket refilled at the allowed rate, holding
//! ten seconds' worth) for joins and events per instance, and a sliding window of presence calls per channel.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct Rate {
    per_second: f64,
    state: Mutex<(Instant, f64)>,
}

impl Rate {
    pub fn new(per_second: u32) -> Self {
        let per_second = f64::from(per_second.max(1));
        Rate { per_second, state: Mutex::new((Instant::now(), per_second * 10.0)) }
    }

    /// Takes one event; false when over the limit.
    pub fn take(&self) -> bool {
        self.take_at(Instant::now())
    }

    fn take_at(&self, now: Instant) -> bool {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let elapsed = now.saturating_duration_since(s.0).as_secs_f64();
        s.1 = (s.1 + elapsed * self.per_second).min(self.per_second * 10.0);
        s.0 = now;
        if s.1 >= 1.0 {
            s.1 -= 1.0;
            true
        } else {
            false
        }
    }
}

/// At most `max` calls in any `window`.
#[derive(Debug, Default)]
pub struct Window {
    calls: VecDeque<Instant>,
}

impl Window {
    pub fn allow(&mut self, max: u32, window: Duration) -> bool {
        self.allow_at(Instant::now(), max, window)
    }

    fn allow_at(&mut self, now: Instant, max: u32, window: Duration) -> bool {
        while self.calls.front().is_some_and(|t| now.saturating_duration_since(*t) >= window) {
            self.calls.pop_front();
        }
        if self.calls.len() >= max as usize {
            return false;
        }
        self.calls.push_back(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_allows_ten_seconds_of_burst_then_refills() {
        let rate = Rate::new(2);
        let t0 = Instant::now();
        assert!((0..20).all(|_| rate.take_at(t0)));
        assert!(!rate.take_at(t0));
        assert!(rate.take_at(t0 + Duration::from_millis(600)));
    }

    #[test]
    fn presence_window_allows_five_calls_per_thirty_seconds() {
        let mut w = Window::default();
        let t0 = Instant::now();
        let win = Duration::from_secs(30);
        assert!((0..5).all(|_| w.allow_at(t0, 5, win)));
        assert!(!w.allow_at(t0 + Duration::from_secs(29), 5, win));
        assert!(w.allow_at(t0 + Duration::from_secs(30), 5, win));
    }
}
