//! A pool's open lines (connections shared by batches) and which one a batch joins: the least loaded with room,
//! so no batch waits behind more than [`MAX_QUEUED`] − 1 others (head-of-line blocking stays bounded).

use super::error::PgError;
use super::line::{Line, Reply};
use super::step::Step;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use tokio::sync::Notify;

/// Most batches queued on one connection at once.
pub(super) const MAX_QUEUED: usize = 2;

/// Batches joining a line (another request's connection) rather than waiting for one of their own.
const SHARED: &str = "gateway_db_shared_batches_total";

/// The lines of one pool, and a signal for batches waiting for a connection that a line has room now.
#[derive(Default)]
pub(super) struct Lines {
    list: Mutex<Vec<Arc<Line>>>,
    room: Arc<Notify>,
    /// Batches waiting for room or a connection.
    waiting: AtomicUsize,
}

/// One batch counted among those waiting, for as long as it lives (a dropped request stops counting).
pub(super) struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Relaxed);
    }
}

impl Lines {
    fn lock(&self) -> MutexGuard<'_, Vec<Arc<Line>>> {
        self.list.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Signalled whenever a line opens or answers a batch (see [`Line::open`]).
    pub fn room(&self) -> &Arc<Notify> {
        &self.room
    }

    pub fn waiting(&self) -> usize {
        self.waiting.load(Relaxed)
    }

    /// Counts a batch among those waiting until the guard is dropped.
    pub fn wait(&self) -> Waiting<'_> {
        self.waiting.fetch_add(1, Relaxed);
        Waiting(&self.waiting)
    }

    pub fn add(&self, line: Arc<Line>) {
        let mut lines = self.lock();
        lines.retain(|l| !l.is_closed());
        lines.push(line);
        drop(lines);
        // room for all but the line's first batch: one waiting batch woken per place, not every waiter per place
        for _ in 1..MAX_QUEUED {
            self.room.notify_one();
        }
    }

    /// Queues `steps` on the least loaded open line with room; `None` when there is none.
    pub fn join(&self, steps: &[Step<'_>]) -> Option<Result<Reply, PgError>> {
        let mut lines = self.lock();
        lines.retain(|l| !l.is_closed());
        while let Some(i) = pick(lines.iter().map(|l| l.open_load(MAX_QUEUED)), MAX_QUEUED) {
            if let Some(reply) = lines[i].join(steps) {
                metrics::counter!(SHARED).increment(1);
                return Some(reply);
            }
            lines.swap_remove(i); // closed since the retain
        }
        None
    }
}

/// The index of the smallest load under `cap` among the lines open to a batch (`None`: not open), the first of
/// equals.
fn pick(loads: impl Iterator<Item = Option<usize>>, cap: usize) -> Option<usize> {
    let open = loads.enumerate().filter_map(|(i, load)| load.map(|load| (i, load)));
    open.filter(|&(_, load)| load < cap).min_by_key(|&(_, load)| load).map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::pick;

    #[test]
    fn the_least_loaded_line_with_room_is_chosen() {
        assert_eq!(pick([Some(3), Some(1), Some(2)].into_iter(), 4), Some(1));
        assert_eq!(pick([Some(2), Some(2)].into_iter(), 4), Some(0));
        assert_eq!(pick([Some(4), Some(3)].into_iter(), 4), Some(1));
        assert_eq!(pick([None, Some(1)].into_iter(), 4), Some(1), "a line running a long batch is passed over");
    }

    #[test]
    fn full_lines_and_no_lines_take_nothing() {
        assert_eq!(pick([Some(4), Some(4), Some(5)].into_iter(), 4), None);
        assert_eq!(pick([None, None].into_iter(), 4), None);
        assert_eq!(pick(std::iter::empty(), 4), None);
    }
}
