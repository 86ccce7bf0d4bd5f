//! A line: one pooled connection carrying several requests' self-contained batches at once. Each batch (preamble,
//! statement, one Sync, in the implicit transaction the Sync ends) is encoded by its request into the line's
//! outgoing bytes; one task per line writes what has queued in one write and reads the answers, handing each
//! batch its own at its ReadyForQuery. PostgreSQL isolates batches per Sync (after an error it skips to that
//! batch's Sync only), so batches of different requests do not affect each other.
//!
//! A request that goes away only drops its reply: its batch is still written and its answer read and dropped, and no
//! cancel request is sent while any batch on the line still has its request (it would hit whichever batch the
//! backend runs). Once every batch on it is abandoned, the line takes no more and is settled as `drain.rs` settles
//! an exclusive connection: a grace to finish, then PostgreSQL's cancel request, within bounds, or the connection is
//! closed. A socket or protocol error fails every batch on the line and the connection is closed; a line whose last batch is answered hands the connection
//! back to the pool (or closes it, if the server dropped a prepared statement or a batch left a transaction open).

use super::answer::{stale_statement, Answer, Event};
use super::catalog::{Catalog, Parsing};
use super::conn::{TextRow, TxStatus};
use super::drain::{self, Pooled, AFTER_CANCEL, GRACE};
use super::error::PgError;
use super::step::Step;
use bytes::BytesMut;
use postgres_protocol::message::backend::Message;
use rustc_hash::FxHashSet;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};
use tokio::sync::{oneshot, Notify};
use tokio::time::timeout;

/// A batch joins a line only while the batch the backend runs has run for less than this: a statement already
/// slow (or abandoned and slow) is not queued behind, so a joiner waits at most for short statements.
pub(super) const YOUNG: Duration = Duration::from_millis(2);

/// A batch's answer as its request receives it.
pub(super) type Reply = oneshot::Receiver<Result<Vec<Vec<TextRow>>, PgError>>;

/// One connection shared by batches.
pub(super) struct Line {
    state: Mutex<State>,
    /// Wakes the line's task when a batch joins.
    more: Notify,
    /// Batches joined and not answered yet.
    load: AtomicUsize,
    /// Told each time a batch is answered (room for another): wakes one of the pool's batches waiting for a
    /// connection (a woken waiter that went away passes it on).
    room: Arc<Notify>,
}

#[derive(Default)]
struct State {
    /// The connection's prepared statements, lent for the line's life.
    catalog: Catalog,
    /// Statements whose Parse is in a batch not answered yet.
    pending: FxHashSet<String>,
    /// Batches encoded and not written yet, and their bookkeeping, in order.
    out: BytesMut,
    joined: Vec<Batch>,
    /// No batch may join any more (the line is ending, or failed).
    closed: bool,
    /// The connection must not be reused once the line ends.
    spoiled: bool,
    /// When the batch the backend runs now started (the last answer, or the write to an idle line).
    front_since: Option<Instant>,
}

/// A batch written (or about to be) and not answered yet.
struct Batch {
    answer: Answer,
    /// The statements it sends Parses for, named or not, and how many the server has confirmed.
    parsing: Parsing,
    reply: oneshot::Sender<Result<Vec<Vec<TextRow>>, PgError>>,
}

impl Line {
    /// A line on `conn`, which it drives from now on ([`drive`]); `room` is told when a batch is answered.
    pub fn open(conn: &mut Pooled, room: Arc<Notify>) -> Arc<Line> {
        let state = State { catalog: conn.lend(), ..State::default() };
        Arc::new(Line { state: Mutex::new(state), more: Notify::new(), load: AtomicUsize::new(0), room })
    }

    /// Batches queued on the line and not answered yet.
    pub fn load(&self) -> usize {
        self.load.load(Relaxed)
    }

    pub fn is_closed(&self) -> bool {
        self.lock().closed
    }

    /// The line's load if a batch may join it now: open, under `cap` batches, and the batch running there started
    /// less than [`YOUNG`] ago.
    pub fn open_load(&self, cap: usize) -> Option<usize> {
        let state = self.lock();
        let load = self.load();
        let running_long = load > 0 && state.front_since.is_some_and(|since| since.elapsed() >= YOUNG);
        (!state.closed && load < cap && !running_long).then_some(load)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues a batch of `steps`, which must end its own transaction at its Sync (a read, or a write committed by
    /// it). `None` when the line no longer takes batches.
    pub fn join(&self, steps: &[Step<'_>]) -> Option<Result<Reply, PgError>> {
        let mut state = self.lock();
        if state.closed {
            return None;
        }
        let state = &mut *state;
        let start = state.out.len();
        let parsing = match state.catalog.encode(steps, &mut state.out, &mut state.pending) {
            Ok(parsing) => parsing,
            Err(e) => {
                state.out.truncate(start);
                return Some(Err(e));
            }
        };
        let (reply, answer) = oneshot::channel();
        state.joined.push(Batch { answer: Answer::new(steps.len(), true), parsing, reply });
        self.load.fetch_add(1, Relaxed);
        self.more.notify_one();
        Some(Ok(answer))
    }

    /// Moves the joined batches into `flight` and their bytes into `out`; with nothing in flight and nothing
    /// joined, closes the line and returns false.
    fn take(&self, out: &mut BytesMut, flight: &mut VecDeque<Batch>) -> bool {
        let mut state = self.lock();
        if flight.is_empty() && state.joined.is_empty() {
            state.closed = true;
            return false;
        }
        if flight.is_empty() {
            state.front_since = Some(Instant::now());
        }
        flight.extend(state.joined.drain(..));
        out.extend_from_slice(&state.out);
        state.out.clear();
        true
    }

    /// Closes the line if no batch has joined since the last take (every batch is then in flight).
    fn close_if_idle(&self) -> bool {
        let mut state = self.lock();
        if state.joined.is_empty() {
            state.closed = true;
        }
        state.closed
    }

    /// Hands one message to the batch it answers (the oldest in flight).
    fn dispatch(&self, message: Message, flight: &mut VecDeque<Batch>) -> Result<(), PgError> {
        let batch = flight.front_mut().ok_or_else(|| PgError::Protocol("a message with no batch in flight".into()))?;
        match batch.answer.feed(message)? {
            Event::More => {}
            Event::Parsed => {
                if let Some((sql, name)) = batch.parsing.confirm_next()? {
                    let mut state = self.lock();
                    state.pending.remove(&sql);
                    state.catalog.confirm(sql, name);
                }
            }
            Event::Ready(status) => {
                if let Some(batch) = flight.pop_front() {
                    self.lock().front_since = Some(Instant::now());
                    self.answer(batch, status);
                }
            }
        }
        Ok(())
    }

    /// Gives a finished batch its answer (dropped if its request went away).
    fn answer(&self, batch: Batch, status: TxStatus) {
        let result = batch.answer.into_result();
        let mut state = self.lock();
        for sql in batch.parsing.unconfirmed() {
            state.pending.remove(sql);
        }
        let stale = matches!(&result, Err(PgError::Db(e)) if stale_statement(e));
        if stale || status != TxStatus::Idle {
            state.closed = true;
            state.spoiled = true;
        }
        drop(state);
        self.load.fetch_sub(1, Relaxed);
        let _ = batch.reply.send(result);
        self.room.notify_one();
    }

    /// Fails every batch still on the line with `error` and closes it.
    fn fail(&self, error: &PgError, flight: &mut VecDeque<Batch>) {
        let joined = {
            let mut state = self.lock();
            state.closed = true;
            state.spoiled = true;
            std::mem::take(&mut state.joined)
        };
        for batch in flight.drain(..).chain(joined) {
            self.load.fetch_sub(1, Relaxed);
            let failed = std::io::Error::new(std::io::ErrorKind::ConnectionAborted, error.to_string());
            let _ = batch.reply.send(Err(PgError::Io(failed)));
        }
    }

    /// Gives the connection back its prepared statements, if it may be reused.
    fn hand_back(&self, conn: &mut Pooled) {
        let mut state = self.lock();
        if state.spoiled {
            conn.discard();
        } else {
            conn.take_back(std::mem::take(&mut state.catalog));
        }
    }
}

/// The line's task: writes what joined, reads the answers, until no batch is left; then the connection goes back to
/// the pool (dropped with the task, it is closed: a lent connection counts as broken).
pub(super) async fn drive(line: Arc<Line>, mut conn: Pooled) {
    let mut flight = VecDeque::new();
    match pump(&line, &mut conn, &mut flight).await {
        Ok(()) => line.hand_back(&mut conn),
        Err(e) => {
            tracing::debug!(error = %e, "db: a shared connection failed; its batches fail with it");
            line.fail(&e, &mut flight);
            conn.discard();
        }
    }
}

/// What woke the line's task.
enum Wake {
    Message(Result<Message, PgError>),
    More,
    Abandoned,
}

async fn pump(line: &Line, conn: &mut Pooled, flight: &mut VecDeque<Batch>) -> Result<(), PgError> {
    let mut out = BytesMut::new();
    while line.take(&mut out, flight) {
        if !out.is_empty() {
            conn.send(&out).await?;
            out.clear();
        }
        let wake = tokio::select! {
            biased;
            message = conn.read_message() => Wake::Message(message),
            () = line.more.notified() => Wake::More,
            () = abandoned(flight) => Wake::Abandoned,
        };
        match wake {
            Wake::Message(message) => line.dispatch(message?, flight)?,
            Wake::More => {}
            Wake::Abandoned if line.close_if_idle() => return settle(line, conn, flight).await,
            Wake::Abandoned => {}
        }
    }
    Ok(())
}

/// Resolves once no batch in flight has its request any more.
async fn abandoned(flight: &mut VecDeque<Batch>) {
    for batch in flight.iter_mut() {
        batch.reply.closed().await;
    }
}

/// Finishes a closed line whose batches were all abandoned, one batch at a time: what is left gets [`GRACE`] to
/// finish, then the backend is asked to cancel what it runs (only abandoned batches are left) and that batch is read
/// to its end, within bounds. A cancel request stops one statement, so each batch still queued behind a cancelled
/// one gets its own grace and cancel.
async fn settle(line: &Line, conn: &mut Pooled, flight: &mut VecDeque<Batch>) -> Result<(), PgError> {
    while !flight.is_empty() {
        if let Ok(finished) = timeout(GRACE, finish(line, conn, flight)).await {
            return finished;
        }
        if !drain::cancel(conn).await {
            return Err(PgError::Protocol("an abandoned shared batch could not be cancelled".into()));
        }
        timeout(AFTER_CANCEL, finish_one(line, conn, flight))
            .await
            .unwrap_or_else(|_| Err(PgError::Protocol("an abandoned shared batch did not end".into())))?;
    }
    Ok(())
}

/// Reads the answers of every batch in flight (the line takes no more).
async fn finish(line: &Line, conn: &mut Pooled, flight: &mut VecDeque<Batch>) -> Result<(), PgError> {
    while !flight.is_empty() {
        finish_one(line, conn, flight).await?;
    }
    Ok(())
}

/// Reads until the first batch in flight has its answer.
async fn finish_one(line: &Line, conn: &mut Pooled, flight: &mut VecDeque<Batch>) -> Result<(), PgError> {
    let before = flight.len();
    while flight.len() == before {
        let message = conn.read_message().await?;
        line.dispatch(message, flight)?;
    }
    Ok(())
}
