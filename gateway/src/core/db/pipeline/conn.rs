//! One connection and its pipeline: for each step Parse (first use only), Bind and Execute, then a single Sync;
//! responses are read until ReadyForQuery. A batch that does not finish (error on the socket, or a caller that
//! dropped the future mid-flight) leaves the connection marked broken, and the pool discards it.

use super::error::{DbError, PgError};
use super::step::{bind, Step};
use bytes::{Bytes, BytesMut};
use postgres_protocol::message::backend::Message;
use postgres_protocol::message::frontend;
use rustc_hash::FxHashMap;
use std::ops::Range;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Bound on statements prepared per connection; past it, statements are parsed unnamed each time.
const MAX_PREPARED: usize = 500;

/// A result row with its columns in text form.
#[derive(Debug, Clone)]
pub struct TextRow {
    data: Bytes,
    columns: Vec<Option<Range<usize>>>,
}

impl TextRow {
    fn new(data: Bytes, columns: Vec<Option<Range<usize>>>) -> Self {
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

    async fn read_buf(&mut self, buf: &mut BytesMut) -> std::io::Result<usize> {
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
    /// SQL text → prepared statement name (FxHash: the texts are long, and SipHash over them showed in profiles).
    prepared: FxHashMap<String, String>,
    next_name: u64,
    tx_status: TxStatus,
    broken: bool,
}

impl PgConn {
    pub(super) fn new(stream: Stream, read_buf: BytesMut) -> Self {
        PgConn {
            stream,
            read_buf,
            write_buf: BytesMut::with_capacity(4096),
            prepared: FxHashMap::default(),
            next_name: 0,
            tx_status: TxStatus::Idle,
            broken: false,
        }
    }

    /// Whether the connection must not be reused.
    pub fn is_broken(&self) -> bool {
        self.broken
    }

    /// The transaction status the server reported after the last batch.
    pub fn tx_status(&self) -> TxStatus {
        self.tx_status
    }

    /// Marks the connection unusable (the pool then closes it).
    pub fn discard(&mut self) {
        self.broken = true;
    }

    pub fn prepared_count(&self) -> usize {
        self.prepared.len()
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
    /// possibly inside a failed transaction: see [`PgConn::tx_status`]).
    pub async fn pipeline(&mut self, steps: &[Step<'_>]) -> Result<Vec<Vec<TextRow>>, PgError> {
        if self.broken {
            return Err(PgError::Protocol("connection is closed".into()));
        }
        // stays set if this future is dropped before the batch is drained
        self.broken = true;
        let mut buf = std::mem::take(&mut self.write_buf);
        buf.clear();
        let parsing = self.encode(steps, &mut buf)?;
        self.stream.write_all(&buf).await?;
        self.write_buf = buf;
        let (results, error) = self.read_results(&parsing, steps.len()).await?;
        self.broken = false;
        match error {
            Some(e) => {
                // a prepared statement whose result shape changed under it (DDL) or vanished: start afresh
                if e.code == "0A000" && e.message.contains("cached plan") || e.code == "26000" {
                    self.broken = true;
                }
                Err(PgError::Db(e))
            }
            None => Ok(results),
        }
    }

    /// Parse (for statements not prepared yet), Bind and Execute for each step, then one Sync. Returns the
    /// statements this batch parses, in Parse order: (sql, name), recorded once their ParseComplete arrives.
    fn encode<'s>(&mut self, steps: &[Step<'s>], buf: &mut BytesMut) -> Result<Vec<(&'s str, String)>, PgError> {
        let mut parsing: Vec<(&str, String)> = vec![];
        for step in steps {
            let name = match self.prepared.get(step.sql) {
                Some(name) => name.clone(),
                None => match parsing.iter().find(|(sql, _)| *sql == step.sql) {
                    Some((_, name)) => name.clone(),
                    None if self.prepared.len() + parsing.len() < MAX_PREPARED => {
                        self.next_name += 1;
                        let name = format!("p{}", self.next_name);
                        frontend::parse(&name, step.sql, std::iter::empty(), buf)?;
                        parsing.push((step.sql, name.clone()));
                        name
                    }
                    None => {
                        frontend::parse("", step.sql, std::iter::empty(), buf)?;
                        String::new()
                    }
                },
            };
            bind(&name, step, buf)?;
            frontend::execute("", 0, buf)?;
        }
        frontend::sync(buf);
        Ok(parsing)
    }

    /// Reads the batch's answers up to ReadyForQuery: each step's rows, and the server's error if one came.
    async fn read_results(
        &mut self,
        parsing: &[(&str, String)],
        steps: usize,
    ) -> Result<(Vec<Vec<TextRow>>, Option<DbError>), PgError> {
        let mut results = Vec::with_capacity(steps);
        let mut rows = vec![];
        let mut parsed = 0;
        let mut error = None;
        loop {
            match self.read_message().await? {
                Message::ParseComplete => {
                    let (sql, name) =
                        parsing.get(parsed).ok_or_else(|| PgError::Protocol("unexpected ParseComplete".into()))?;
                    self.prepared.insert(sql.to_string(), name.clone());
                    parsed += 1;
                }
                Message::BindComplete | Message::NoticeResponse(_) | Message::ParameterStatus(_) => {}
                Message::NotificationResponse(_) => {}
                Message::DataRow(body) => {
                    use fallible_iterator::FallibleIterator;
                    let columns = body.ranges().collect::<Vec<_>>()?;
                    rows.push(TextRow::new(body.buffer_bytes().clone(), columns));
                }
                Message::CommandComplete(_) | Message::EmptyQueryResponse | Message::PortalSuspended => {
                    results.push(std::mem::take(&mut rows));
                }
                Message::ErrorResponse(body) => error = Some(DbError::from_fields(body.fields())?),
                Message::ReadyForQuery(body) => {
                    self.tx_status = match body.status() {
                        b'T' => TxStatus::InTransaction,
                        b'E' => TxStatus::Failed,
                        _ => TxStatus::Idle,
                    };
                    return Ok((results, error));
                }
                _ => return Err(PgError::Protocol("unexpected message in a pipeline".into())),
            }
        }
    }

    /// Runs one statement without parameters and discards its rows.
    pub async fn execute(&mut self, sql: &str) -> Result<(), PgError> {
        self.pipeline(&[Step::new(sql)]).await.map(|_| ())
    }
}
