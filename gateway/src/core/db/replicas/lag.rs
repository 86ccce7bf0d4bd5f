//! How far behind a standby may be, judged without trusting any one clock: the lag is bounded above both by
//! PostgreSQL's own measure (`clock_timestamp() - pg_last_xact_replay_timestamp()` on the standby: every commit
//! not yet replayed is younger than the last one replayed) and by the gateway's samples of the primary's WAL
//! position (everything the primary had written when a sample was taken, the standby has replayed once its replay
//! position passes that sample's). The smaller bound counts: the first is loose while the primary is idle, the
//! second is as fine as the sampling.

use crate::core::db::lsn::Lsn;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Samples at most this many of the primary's positions (older ones go first).
const MAX_SAMPLES: usize = 4096;

/// Recent samples of the primary's WAL write position, oldest first.
#[derive(Debug)]
pub struct Samples {
    list: VecDeque<(Instant, Lsn)>,
    keep: Duration,
}

impl Samples {
    /// Keeps samples for `keep` (the lag bound: an older sample can only prove a lag beyond it).
    pub fn new(keep: Duration) -> Self {
        Samples { list: VecDeque::new(), keep }
    }

    /// Records the primary's position as read at `at` (when the query was sent).
    pub fn record(&mut self, at: Instant, lsn: Lsn) {
        self.list.push_back((at, lsn));
        while self.list.len() > MAX_SAMPLES || self.list.front().is_some_and(|(t, _)| at.duration_since(*t) > self.keep)
        {
            self.list.pop_front();
        }
    }

    /// An upper bound on the lag of a standby that replayed up to `replayed`: the time since the newest sample it
    /// has passed; `None` when it has passed none of the samples kept.
    pub fn bound(&self, replayed: Lsn, now: Instant) -> Option<Duration> {
        self.list.iter().rev().find(|(_, lsn)| *lsn <= replayed).map(|(at, _)| now.saturating_duration_since(*at))
    }
}

/// What one check of a standby read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Observation {
    /// `pg_is_in_recovery()`: false once the server was promoted (it no longer follows the primary).
    pub in_recovery: bool,
    /// `pg_last_wal_replay_lsn()`.
    pub replayed: Option<Lsn>,
    /// `clock_timestamp() - pg_last_xact_replay_timestamp()`; `None` before any transaction was replayed.
    pub since_last_replay: Option<Duration>,
}

/// Whether a standby may serve reads, and why not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Health {
    /// Within the bound (the lag shown is the smaller upper bound).
    Usable { lag: Duration },
    /// Behind by more than the bound, or by an unknown amount (`None`).
    Lagging { lag: Option<Duration> },
    /// Not a standby (promoted, or the URL names a primary): its data no longer follows the primary's.
    NotStandby,
    /// Not answering, or refused a connection.
    Down,
}

impl Health {
    pub fn is_usable(&self) -> bool {
        matches!(self, Health::Usable { .. })
    }

    /// The lag in seconds as far as it is known (for the metrics).
    pub fn lag_secs(&self) -> Option<f64> {
        match self {
            Health::Usable { lag } | Health::Lagging { lag: Some(lag) } => Some(lag.as_secs_f64()),
            _ => None,
        }
    }
}

/// Judges one observation against the primary's samples and the lag bound.
pub fn judge(obs: &Observation, samples: &Samples, max_lag: Duration, now: Instant) -> Health {
    if !obs.in_recovery {
        return Health::NotStandby;
    }
    let Some(replayed) = obs.replayed else { return Health::Lagging { lag: None } };
    let lag = match (obs.since_last_replay, samples.bound(replayed, now)) {
        (Some(a), Some(b)) => a.min(b),
        (Some(a), None) | (None, Some(a)) => a,
        (None, None) => return Health::Lagging { lag: None },
    };
    if lag > max_lag {
        Health::Lagging { lag: Some(lag) }
    } else {
        Health::Usable { lag }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAX: Duration = Duration::from_secs(5);

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    fn standby(replayed: u64, since_last_replay: Option<f64>) -> Observation {
        Observation { in_recovery: true, replayed: Some(Lsn(replayed)), since_last_replay: since_last_replay.map(secs) }
    }

    /// Samples of the primary at 0.5 s steps ending at `now`, at positions 100, 200, …
    fn sampled(now: Instant, count: u64) -> Samples {
        let mut s = Samples::new(MAX);
        for i in 0..count {
            s.record(now - secs(0.5 * (count - 1 - i) as f64), Lsn(100 * (i + 1)));
        }
        s
    }

    #[test]
    fn an_idle_primary_does_not_make_a_caught_up_standby_look_behind() {
        let now = Instant::now();
        let samples = sampled(now, 4); // the primary wrote nothing new for minutes: the last sample is 400
        let health = judge(&standby(400, Some(600.0)), &samples, MAX, now);
        assert_eq!(health, Health::Usable { lag: Duration::ZERO });
    }

    #[test]
    fn a_standby_whose_replay_stopped_is_skipped_once_past_the_bound() {
        let now = Instant::now();
        let samples = sampled(now, 10); // 100 … 1000 over 4.5 s
                                        // replay paused at 300 (sampled 3.5 s ago): within the bound, then past it once the bound is exceeded
        assert_eq!(judge(&standby(300, Some(3.6)), &samples, MAX, now), Health::Usable { lag: secs(3.5) });
        let later = now + secs(2.0);
        assert_eq!(judge(&standby(300, Some(5.6)), &samples, MAX, later), Health::Lagging { lag: Some(secs(5.5)) });
    }

    #[test]
    fn the_tighter_bound_counts() {
        let now = Instant::now();
        let samples = sampled(now, 10);
        // the last replayed commit is 1 s old, though the samples only prove 4.5 s
        assert_eq!(judge(&standby(100, Some(1.0)), &samples, MAX, now), Health::Usable { lag: secs(1.0) });
    }

    #[test]
    fn unknown_lag_is_not_usable() {
        let now = Instant::now();
        let samples = sampled(now, 3);
        // replayed none of the kept samples, and no transaction replayed since the standby started
        assert_eq!(judge(&standby(50, None), &samples, MAX, now), Health::Lagging { lag: None });
        let none = Observation { in_recovery: true, replayed: None, since_last_replay: None };
        assert_eq!(judge(&none, &samples, MAX, now), Health::Lagging { lag: None });
        // but a standby with no samples yet is judged by its own measure alone
        assert_eq!(judge(&standby(50, Some(0.2)), &Samples::new(MAX), MAX, now), Health::Usable { lag: secs(0.2) });
    }

    #[test]
    fn a_promoted_server_is_not_a_standby() {
        let now = Instant::now();
        let promoted = Observation { in_recovery: false, replayed: None, since_last_replay: None };
        assert_eq!(judge(&promoted, &sampled(now, 2), MAX, now), Health::NotStandby);
    }

    #[test]
    fn samples_older_than_the_bound_are_dropped() {
        let now = Instant::now();
        let mut s = Samples::new(MAX);
        s.record(now - secs(9.0), Lsn(10));
        s.record(now - secs(1.0), Lsn(20));
        s.record(now, Lsn(30));
        assert_eq!(s.bound(Lsn(15), now), None, "the 9 s old sample was dropped");
        assert_eq!(s.bound(Lsn(25), now), Some(secs(1.0)));
        assert_eq!(s.bound(Lsn(30), now), Some(Duration::ZERO));
    }
}
