//! Token-bucket rate limits keyed by client IP or account, as GoTrue's limiters: each bucket holds up to `burst`
//! tokens and refills at `rate` per period. Served, the buckets live in PostgreSQL (`gateway.take_rate_token`, on a
//! small pool of their own), so every instance on the database counts the same requests; a bucket that cannot be
//! read refuses (fails closed). Without a database (unit tests) they are kept in memory, pruned to stay bounded.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A refill rate with its burst size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    /// Tokens added per second.
    pub per_second: f64,
    /// Bucket capacity.
    pub burst: f64,
}

impl Rate {
    /// `count` per `period`, with a burst of `min(count, 30)` as GoTrue (at least 1).
    pub fn per(count: f64, period: Duration) -> Self {
        let count = count.max(0.0);
        Rate { per_second: count / period.as_secs_f64().max(1e-9), burst: count.clamp(1.0, 30.0) }
    }
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    updated: Instant,
}

/// Buckets for every (limiter, key) pair.
#[derive(Default)]
pub struct RateLimiter {
    shared: Option<deadpool_postgres::Pool>,
    buckets: Mutex<HashMap<(&'static str, String), Bucket>>,
}

const MAX_KEYS: usize = 100_000;

impl RateLimiter {
    /// Buckets kept in the database behind `pool`, shared with every other instance.
    pub fn shared(pool: deadpool_postgres::Pool) -> Self {
        RateLimiter { shared: Some(pool), buckets: Mutex::default() }
    }

    /// Takes one token from the bucket of `key` in `limiter`; false when it is empty (or cannot be read).
    pub async fn check(&self, limiter: &'static str, key: &str, rate: Rate) -> bool {
        let Some(pool) = &self.shared else { return self.check_at(limiter, key, rate, Instant::now()) };
        let taken = crate::auth::store::rate_tokens::take(pool, limiter, key, rate.per_second, rate.burst);
        taken.await.unwrap_or_else(|e| {
            tracing::warn!(limiter, error = %e, "auth rate limit unavailable: refusing");
            false
        })
    }

    fn check_at(&self, limiter: &'static str, key: &str, rate: Rate, now: Instant) -> bool {
        let Ok(mut buckets) = self.buckets.lock() else { return true };
        if buckets.len() >= MAX_KEYS {
            // Drop buckets that have refilled completely: they carry no state worth keeping.
            buckets
                .retain(|_, b| b.tokens + now.duration_since(b.updated).as_secs_f64() * rate.per_second < rate.burst);
            if buckets.len() >= MAX_KEYS {
                buckets.clear();
            }
        }
        let bucket = buckets.entry((limiter, key.to_string())).or_insert(Bucket { tokens: rate.burst, updated: now });
        let elapsed = now.saturating_duration_since(bucket.updated).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * rate.per_second).min(rate.burst);
        bucket.updated = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_the_burst_then_refuses_until_refilled() {
        let limiter = RateLimiter::default();
        let rate = Rate::per(30.0, Duration::from_secs(300)); // one token every 10 s, burst 30
        let t0 = Instant::now();
        for _ in 0..30 {
            assert!(limiter.check_at("token", "1.2.3.4", rate, t0));
        }
        assert!(!limiter.check_at("token", "1.2.3.4", rate, t0));
        assert!(limiter.check_at("token", "5.6.7.8", rate, t0), "keys are independent");
        assert!(limiter.check_at("verify", "1.2.3.4", rate, t0), "limiters are independent");
        assert!(!limiter.check_at("token", "1.2.3.4", rate, t0 + Duration::from_secs(5)));
        assert!(limiter.check_at("token", "1.2.3.4", rate, t0 + Duration::from_secs(11)));
    }

    #[test]
    fn burst_is_capped_at_thirty_and_at_least_one() {
        assert_eq!(Rate::per(1800.0, Duration::from_secs(3600)).burst, 30.0);
        assert_eq!(Rate::per(0.0, Duration::from_secs(3600)).burst, 1.0);
        let limiter = RateLimiter::default();
        let never = Rate::per(0.0, Duration::from_secs(3600));
        let t0 = Instant::now();
        assert!(limiter.check_at("x", "k", never, t0));
        assert!(!limiter.check_at("x", "k", never, t0 + Duration::from_secs(3600)));
    }
}
