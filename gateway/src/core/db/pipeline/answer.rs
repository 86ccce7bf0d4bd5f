//! One batch's answer, assembled message by message up to its ReadyForQuery: each step's rows and the server's
//! error, if one came. Fed one whole message at a time, it splits a stream carrying several batches' answers at each
//! ReadyForQuery, and keeps its place when the reader stops between messages.

use super::conn::{TextRow, TxStatus};
use super::error::{DbError, PgError};
use postgres_protocol::message::backend::Message;

/// What one message meant for the batch.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Event {
    /// Nothing the reader must act on.
    More,
    /// The batch's next Parse is done (ParseComplete), named or not.
    Parsed,
    /// The batch is over (ReadyForQuery), with the server's transaction status.
    Ready(TxStatus),
}

/// A batch's answer so far.
#[derive(Debug, Default)]
pub(super) struct Answer {
    results: Vec<Vec<TextRow>>,
    rows: Vec<TextRow>,
    error: Option<DbError>,
    /// Whether rows are kept (a batch whose caller went away only needs reading to its end).
    keep_rows: bool,
}

impl Answer {
    pub fn new(steps: usize, keep_rows: bool) -> Self {
        Answer { results: Vec::with_capacity(steps), rows: vec![], error: None, keep_rows }
    }

    /// Takes in one backend message of the batch.
    pub fn feed(&mut self, message: Message) -> Result<Event, PgError> {
        match message {
            Message::ParseComplete => return Ok(Event::Parsed),
            Message::BindComplete | Message::NoticeResponse(_) | Message::ParameterStatus(_) => {}
            Message::NotificationResponse(_) => {}
            Message::DataRow(_) if !self.keep_rows => {}
            Message::DataRow(body) => {
                use fallible_iterator::FallibleIterator;
                let columns = body.ranges().collect::<Vec<_>>()?;
                self.rows.push(TextRow::new(body.buffer_bytes().clone(), columns));
            }
            Message::CommandComplete(_) | Message::EmptyQueryResponse | Message::PortalSuspended => {
                self.results.push(std::mem::take(&mut self.rows));
            }
            Message::ErrorResponse(body) => self.error = Some(DbError::from_fields(body.fields())?),
            Message::ReadyForQuery(body) => return Ok(Event::Ready(status(body.status()))),
            _ => return Err(PgError::Protocol("unexpected message in a pipeline".into())),
        }
        Ok(Event::More)
    }

    /// Each step's rows, and the server's error if one came.
    pub fn finish(self) -> (Vec<Vec<TextRow>>, Option<DbError>) {
        (self.results, self.error)
    }

    /// The answer as a caller sees it: the rows, or the server's error.
    pub fn into_result(self) -> Result<Vec<Vec<TextRow>>, PgError> {
        match self.finish() {
            (_, Some(e)) => Err(PgError::Db(e)),
            (results, None) => Ok(results),
        }
    }
}

fn status(byte: u8) -> TxStatus {
    match byte {
        b'T' => TxStatus::InTransaction,
        b'E' => TxStatus::Failed,
        _ => TxStatus::Idle,
    }
}

/// Whether an error means the server no longer has a statement this connection prepared (DDL changed a cached
/// plan's result, or the statement is gone): the connection must start afresh.
pub(super) fn stale_statement(e: &DbError) -> bool {
    e.code == "0A000" && e.message.contains("cached plan") || e.code == "26000"
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::{BufMut, BytesMut};

    fn message(tag: u8, body: &[u8], out: &mut BytesMut) {
        out.put_u8(tag);
        out.put_u32(4 + body.len() as u32);
        out.put_slice(body);
    }

    fn row(value: &str, out: &mut BytesMut) {
        let mut body = BytesMut::new();
        body.put_u16(1);
        body.put_u32(value.len() as u32);
        body.put_slice(value.as_bytes());
        message(b'D', &body, out);
    }

    fn error(code: &str, out: &mut BytesMut) {
        let body = format!("SERROR\0C{code}\0Mboom\0\0");
        message(b'E', body.as_bytes(), out);
    }

    /// Two batches' answers back to back, as one read may bring them: the first fails, the second has a row.
    fn two_batches() -> BytesMut {
        let mut out = BytesMut::new();
        message(b'1', b"", &mut out); // ParseComplete
        message(b'2', b"", &mut out); // BindComplete
        error("22P02", &mut out);
        message(b'Z', b"I", &mut out);
        message(b'2', b"", &mut out);
        row("42", &mut out);
        message(b'C', b"SELECT 1\0", &mut out);
        message(b'Z', b"I", &mut out);
        out
    }

    /// Feeds messages from `stream` until the batch is ready; the events seen on the way.
    fn read(answer: &mut Answer, stream: &mut BytesMut) -> Vec<Event> {
        let mut events = vec![];
        while let Some(m) = Message::parse(stream).unwrap() {
            let event = answer.feed(m).unwrap();
            let ready = matches!(event, Event::Ready(_));
            events.push(event);
            if ready {
                break;
            }
        }
        events
    }

    #[test]
    fn answers_split_at_each_ready_for_query() {
        let mut stream = two_batches();
        let mut first = Answer::new(1, true);
        let events = read(&mut first, &mut stream);
        assert_eq!(events.first(), Some(&Event::Parsed));
        assert_eq!(events.last(), Some(&Event::Ready(TxStatus::Idle)));
        assert_eq!(first.into_result().unwrap_err().as_db().map(|e| e.code.as_str()), Some("22P02"));
        let mut second = Answer::new(1, true);
        read(&mut second, &mut stream);
        let results = second.into_result().unwrap();
        assert_eq!(results.len(), 1);
        assert_eq!(results[0][0].get(0), Some("42"));
        assert!(stream.is_empty());
    }

    #[test]
    fn a_discarded_answer_keeps_no_rows() {
        let mut stream = two_batches();
        read(&mut Answer::new(1, false), &mut stream);
        let mut second = Answer::new(1, false);
        read(&mut second, &mut stream);
        let results = second.into_result().unwrap();
        assert_eq!(results.len(), 1);
        assert!(results[0].is_empty());
    }

    #[test]
    fn stale_statements_are_recognised() {
        let db = |code: &str, message: &str| DbError {
            code: code.into(),
            message: message.into(),
            detail: None,
            hint: None,
        };
        assert!(stale_statement(&db("0A000", "cached plan must not change result type")));
        assert!(stale_statement(&db("26000", "prepared statement \"p1\" does not exist")));
        assert!(!stale_statement(&db("0A000", "feature not supported")));
    }
}
