//! One connection and its pipeline: for each step Parse (first use only), Bind and Execute, then a single Sync;
//! responses are read until ReadyForQuery. A batch whose caller dropped the future mid-flight stays in flight (what
//! was written and read so far is kept), so [`PgConn::drain`] can finish it later (see `drain.rs`); an error on the
//! socket leaves the connection broken, and the pool discards it. Lent to a line (`line.rs`), it carries several
//! requests' batches at once.

use super::answer::{stale_statement, Answer, Event};
use super::cancel::CancelKey;
use super::catalog::{Catalog, Parsing};
use super::error::{DbError, PgError};
use super::step::Step;
use bytes::{Bytes, BytesMut};
use postgres_protocol::message::backend::Message;
use rustc_hash::FxHashSet;
use std::ops::Range;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A result row with its columns in text form.
#[derive(Debug, Clone)]
pub struct TextRow {
    data: Bytes,
    columns: Vec<Option<Range<usize>>>,
}

impl TextRow {
    pub(super) fn new(data: Bytes, columns: Vec<Option<Range<usize>>>) -> Self {
        TextRow { data, columns }
    }

    /// Column `i` as text; `None` for NULL or a column that does not exist.
    pub fn get(&self, i: usize) -> Option<&str> {
        let range = self.columns.get(i)?.clone()?;
        std::str::from_utf8(&self.data[range]).ok()
    }

    /// Column `i` as the bytes the server sent, shared with the row (no copy); `None` as for [`TextRow::get`].
    pub fn bytes(&self, i: usize) -> Option<Bytes> {
        let range = self.columns.get(i)?.clone()?;
        Some(self.data.slice(range))
    }

    pub fn len(&self) -> usize {
        self.columns.len()
    }

    pub fn is_empty(&self) -> bool {
        self.columns.is_empty()
    }
}

/// The server's transaction status after the last batch (ReadyForQuery).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxStatus {
    Idle,
    InTransaction,
    Failed,
}

/// Where the current batch is: none, being written (`written` bytes of `write_buf` sent), sent and being read,
/// lent to a line of shared batches (as good as broken unless the line hands it back), or abandoned for good (the
/// socket failed, or the server's state is no longer known).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flight {
    Ready,
    Writing,
    Reading,
    Lent,
    Broken,
}

pub(super) enum Stream {
    Tcp(tokio::net::TcpStream),
    Unix(tokio::net::UnixStream),
}

impl Stream {
    pub(super) async fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self {
            Stream::Tcp(s) => s.write_all(buf).await,
            Stream::Unix(s) => s.write_all(buf).await,
        }
    }

    async fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.write(buf).await,
            Stream::Unix(s) => s.write(buf).await,
        }
    }

    pub(super) async fn read_buf(&mut self, buf: &mut BytesMut) -> std::io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.read_buf(buf).await,
            Stream::Unix(s) => s.read_buf(buf).await,
        }
    }
}

pub struct PgConn {
    stream: Stream,
    read_buf: BytesMut,
    write_buf: BytesMut,
    /// What this connection has prepared; lent to a [`Line`](super::line) while batches share the connection.
    catalog: Catalog,
    /// Statements the batch in flight parses (their SQL), not yet known to be prepared.
    pending: FxHashSet<String>,
    /// Statements the batch in flight sends Parses for, named or not, and how many the server has confirmed.
    parsing: Parsing,
    written: usize,
    tx_status: TxStatus,
    flight: Flight,
    /// How to ask the server to cancel what this connection runs (from BackendKeyData).
    cancel: Option<CancelKey>,
}

impl PgConn {
    pub(super) fn new(stream: Stream, read_buf: BytesMut) -> Self {
        PgConn {
            stream,
            read_buf,
            write_buf: BytesMut::with_capacity(4096),
            catalog: Catalog::default(),
            pending: FxHashSet::default(),
            parsing: Parsing::default(),
            written: 0,
            tx_status: TxStatus::Idle,
            flight: Flight::Ready,
            cancel: None,
        }
    }

    pub(super) fn set_cancel_key(&mut self, key: CancelKey) {
        self.cancel = Some(key);
    }

    pub(super) fn cancel_key(&self) -> Option<&CancelKey> {
        self.cancel.as_ref()
    }

    /// Whether the connection must not be reused (a connection lent to a line counts as broken until the line
    /// hands it back, so one dropped with its line is closed, never reused half-read).
    pub fn is_broken(&self) -> bool {
        matches!(self.flight, Flight::Broken | Flight::Lent)
    }

    /// Lends the connection to a line of shared batches: its prepared statements go with it.
    pub(super) fn lend(&mut self) -> Catalog {
        self.flight = Flight::Lent;
        std::mem::take(&mut self.catalog)
    }

    /// Takes the connection back from a line that ended with every batch answered and the server idle.
    pub(super) fn take_back(&mut self, catalog: Catalog) {
        self.catalog = catalog;
        self.tx_status = TxStatus::Idle;
        self.flight = Flight::Ready;
    }

    /// Whether a batch was started and not finished (its caller went away): [`PgConn::drain`] finishes it.
    pub fn in_flight(&self) -> bool {
        matches!(self.flight, Flight::Writing | Flight::Reading)
    }

    /// The transaction status the server reported after the last batch.
    pub fn tx_status(&self) -> TxStatus {
        self.tx_status
    }

    /// Marks the connection unusable (the pool then closes it).
    pub fn discard(&mut self) {
        self.flight = Flight::Broken;
    }

    pub fn prepared_count(&self) -> usize {
        self.catalog.len()
    }

    /// Reads one backend message (whole).
    pub(super) async fn read_message(&mut self) -> Result<Message, PgError> {
        loop {
            if let Some(msg) = Message::parse(&mut self.read_buf)? {
                return Ok(msg);
            }
            self.read_buf.reserve(8192);
            if self.stream.read_buf(&mut self.read_buf).await? == 0 {
                return Err(PgError::Io(std::io::ErrorKind::UnexpectedEof.into()));
            }
        }
    }

    pub(super) async fn send(&mut self, buf: &[u8]) -> Result<(), PgError> {
        Ok(self.stream.write_all(buf).await?)
    }

    /// Reads one backend message as its tag and body, unparsed (for the replication protocol's CopyBoth
    /// messages, which `Message::parse` does not know).
    pub async fn read_raw(&mut self) -> Result<(u8, Bytes), PgError> {
        loop {
            if self.read_buf.len() >= 5 {
                let len = u32::from_be_bytes([self.read_buf[1], self.read_buf[2], self.read_buf[3], self.read_buf[4]]);
                let total = 1 + len as usize;
                if len < 4 {
                    return Err(PgError::Protocol("invalid message length".into()));
                }
                if self.read_buf.len() >= total {
                    let mut message = self.read_buf.split_to(total).freeze();
                    let tag = message[0];
                    return Ok((tag, message.split_off(5)));
                }
                self.read_buf.reserve(total - self.read_buf.len());
            } else {
                self.read_buf.reserve(8192);
            }
            if self.stream.read_buf(&mut self.read_buf).await? == 0 {
                return Err(PgError::Io(std::io::ErrorKind::UnexpectedEof.into()));
            }
        }
    }

    /// Writes frontend messages already encoded.
    pub async fn write_raw(&mut self, buf: &[u8]) -> Result<(), PgError> {
        self.send(buf).await
    }

    /// Runs the steps as one pipeline and returns each step's rows. On a server error the steps after it are
    /// skipped by the server; the error is returned once the pipeline is drained (the connection stays usable,
    /// possibly inside a failed transaction: see [`PgConn::tx_status`]). Dropping the future mid-flight leaves the
    /// batch [in flight](PgConn::in_flight).
    pub async fn pipeline(&mut self, steps: &[Step<'_>]) -> Result<Vec<Vec<TextRow>>, PgError> {
        match self.flight {
            Flight::Ready => {}
            Flight::Broken | Flight::Lent => return Err(PgError::Protocol("connection is closed".into())),
            _ => return Err(PgError::Protocol("a batch is still in flight".into())),
        }
        self.write_buf.clear();
        self.pending.clear();
        self.parsing = self.catalog.encode(steps, &mut self.write_buf, &mut self.pending)?;
        self.written = 0;
        self.flight = Flight::Writing;
        let (results, error) = self.complete(steps.len(), true).await?;
        match error {
            Some(e) => Err(PgError::Db(e)),
            None => Ok(results),
        }
    }

    /// Finishes the batch a dropped caller left in flight (writes the rest, reads and discards its answers up to
    /// ReadyForQuery); a server error in it is not the caller's any more and is dropped. Cancel-safe: dropped in
    /// turn, the batch stays in flight where it got to.
    pub async fn drain(&mut self) -> Result<(), PgError> {
        if self.in_flight() {
            self.complete(0, false).await?;
        }
        Ok(())
    }

    /// Sends what is left of the batch and reads its answers; the connection is broken on a socket or protocol
    /// error, or when the server dropped a prepared statement's plan (DDL): it then starts afresh.
    async fn complete(
        &mut self,
        steps: usize,
        keep_rows: bool,
    ) -> Result<(Vec<Vec<TextRow>>, Option<DbError>), PgError> {
        let outcome = self.write_and_read(steps, keep_rows).await;
        self.flight = match &outcome {
            Err(_) => Flight::Broken,
            Ok((_, Some(e))) if stale_statement(e) => Flight::Broken,
            Ok(_) => Flight::Ready,
        };
        outcome
    }

    async fn write_and_read(
        &mut self,
        steps: usize,
        keep_rows: bool,
    ) -> Result<(Vec<Vec<TextRow>>, Option<DbError>), PgError> {
        if self.flight == Flight::Writing {
            while self.written < self.write_buf.len() {
                let n = self.stream.write(&self.write_buf[self.written..]).await?;
                if n == 0 {
                    return Err(PgError::Io(std::io::ErrorKind::WriteZero.into()));
                }
                self.written += n;
            }
            self.flight = Flight::Reading;
        }
        self.read_results(steps, keep_rows).await
    }

    /// Reads the batch's answers up to ReadyForQuery: each step's rows, and the server's error if one came.
    /// Rows are kept only when `keep_rows`. Cancel-safe: a message is taken off `read_buf` whole or not at all.
    async fn read_results(
        &mut self,
        steps: usize,
        keep_rows: bool,
    ) -> Result<(Vec<Vec<TextRow>>, Option<DbError>), PgError> {
        let mut answer = Answer::new(steps, keep_rows);
        loop {
            match answer.feed(self.read_message().await?)? {
                Event::More => {}
                Event::Parsed => {
                    if let Some((sql, name)) = self.parsing.confirm_next()? {
                        self.catalog.confirm(sql, name);
                    }
                }
                Event::Ready(status) => {
                    self.tx_status = status;
                    return Ok(answer.finish());
                }
            }
        }
    }

    /// Runs one statement without parameters and discards its rows.
    pub async fn execute(&mut self, sql: &str) -> Result<(), PgError> {
        self.pipeline(&[Step::new(sql)]).await.map(|_| ())
    }
}
