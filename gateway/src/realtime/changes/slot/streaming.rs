//! The slot's stream: pgoutput messages assembled into committed transactions and handed on for delivery, and
//! the position confirmed to the server moved only past what was delivered (`Progress`).

use super::{db_message, error_message, SlotError};
use crate::core::db::pipeline::PgConn;
use crate::realtime::changes::pgoutput::{self, CopyMessage, Message, Relation};
use bytes::{BufMut, Bytes, BytesMut};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// What may be confirmed to the server.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Progress {
    in_transaction: bool,
    /// End of the last complete transaction handed on for delivery.
    received: u64,
    /// End of the last transaction whose changes were delivered.
    delivered: u64,
    /// The server's end of WAL from its last keepalive.
    wal_end: u64,
}

impl Progress {
    pub fn begin(&mut self) {
        self.in_transaction = true;
    }

    /// A transaction is complete and handed on for delivery.
    pub fn committed(&mut self, end_lsn: u64) {
        self.in_transaction = false;
        self.received = self.received.max(end_lsn);
    }

    pub fn delivered(&mut self, end_lsn: u64) {
        self.delivered = self.delivered.max(end_lsn);
    }

    pub fn keepalive(&mut self, wal_end: u64) {
        self.wal_end = self.wal_end.max(wal_end);
    }

    /// The LSN to confirm as flushed: never past an undelivered transaction.
    pub fn confirmable(&self) -> u64 {
        if self.in_transaction || self.delivered < self.received {
            self.delivered
        } else {
            self.delivered.max(self.wal_end)
        }
    }
}

/// One decoded row change with its relation.
#[derive(Debug, Clone)]
pub struct RowChange {
    pub relation: Arc<Relation>,
    pub kind: Kind,
    pub new: Vec<pgoutput::Cell>,
    /// The key or whole old row, when the server sent one.
    pub old: Option<Vec<pgoutput::Cell>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Insert,
    Update,
    Delete,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Insert => "INSERT",
            Kind::Update => "UPDATE",
            Kind::Delete => "DELETE",
        }
    }
}

/// A committed transaction's changes, in order.
#[derive(Debug, Clone)]
pub struct Transaction {
    /// The transaction id (32 bits, as pgoutput sends it).
    pub xid: u32,
    pub end_lsn: u64,
    pub commit_micros: i64,
    pub changes: Vec<RowChange>,
}

/// Streams transactions to `out` and confirms what `delivered` reports, until the connection fails (or `out` is
/// closed: the dispatcher stopped).
pub async fn stream(
    mut conn: PgConn,
    out: mpsc::Sender<Transaction>,
    mut delivered: mpsc::UnboundedReceiver<u64>,
) -> Result<(), SlotError> {
    let mut progress = Progress::default();
    let mut assembly = Assembly::default();
    let mut status = tokio::time::interval(Duration::from_secs(10));
    let mut confirmed = 0u64;
    loop {
        let mut reply = false;
        tokio::select! {
            read = conn.read_raw() => {
                let (tag, body) = read.map_err(|e| SlotError::Lost(db_message(e)))?;
                match received(tag, body, &mut progress, &mut assembly, &out).await? {
                    Received::Read => {}
                    Received::ReplyRequested => reply = true,
                    Received::OutClosed => return Ok(()),
                }
            }
            Some(lsn) = delivered.recv() => progress.delivered(lsn),
            _ = status.tick() => reply = true,
        }
        let lsn = progress.confirmable();
        if reply || lsn > confirmed {
            send_status(&mut conn, lsn).await?;
            confirmed = lsn;
        }
    }
}

/// The relations announced on the stream and the transaction being read.
#[derive(Default)]
struct Assembly {
    relations: HashMap<u32, Arc<Relation>>,
    current: Option<Transaction>,
}

/// What a message read from the stream asks of the loop.
enum Received {
    Read,
    /// A keepalive that asks for a status update now.
    ReplyRequested,
    /// `out` is closed: the dispatcher stopped.
    OutClosed,
}

/// Handles one message of the replication stream: a transaction, once committed, is handed on to `out` (one
/// without changes counts as delivered at once); an error or the end of the stream loses it.
async fn received(
    tag: u8,
    body: Bytes,
    progress: &mut Progress,
    assembly: &mut Assembly,
    out: &mpsc::Sender<Transaction>,
) -> Result<Received, SlotError> {
    match tag {
        b'd' => match pgoutput::decode_copy(body).map_err(|e| SlotError::Lost(e.to_string()))? {
            CopyMessage::XLogData { data, .. } => {
                let message = pgoutput::decode(data).map_err(|e| SlotError::Lost(e.to_string()))?;
                if let Some(txn) = apply(message, progress, &mut assembly.relations, &mut assembly.current) {
                    if txn.changes.is_empty() {
                        progress.delivered(txn.end_lsn);
                    } else if out.send(txn).await.is_err() {
                        return Ok(Received::OutClosed);
                    }
                }
                Ok(Received::Read)
            }
            CopyMessage::Keepalive { wal_end, reply_requested } => {
                progress.keepalive(wal_end);
                Ok(if reply_requested { Received::ReplyRequested } else { Received::Read })
            }
        },
        b'E' => Err(SlotError::Lost(error_message(&body))),
        b'c' => Err(SlotError::Lost("the server ended the stream".into())),
        _ => Ok(Received::Read),
    }
}

async fn send_status(conn: &mut PgConn, lsn: u64) -> Result<(), SlotError> {
    let update = pgoutput::status_update(lsn, chrono::Utc::now().timestamp_micros(), false);
    let mut buf = BytesMut::with_capacity(update.len() + 5);
    buf.put_u8(b'd');
    buf.put_u32((update.len() + 4) as u32);
    buf.put_slice(&update);
    conn.write_raw(&buf).await.map_err(|e| SlotError::Lost(db_message(e)))
}

/// Folds one pgoutput message into the transaction being read; returns it once committed.
fn apply(
    message: Message,
    progress: &mut Progress,
    relations: &mut HashMap<u32, Arc<Relation>>,
    current: &mut Option<Transaction>,
) -> Option<Transaction> {
    let mut push = |relation: u32, kind: Kind, new: Vec<pgoutput::Cell>, old: Option<Vec<pgoutput::Cell>>| {
        if let (Some(txn), Some(rel)) = (current.as_mut(), relations.get(&relation)) {
            txn.changes.push(RowChange { relation: rel.clone(), kind, new, old });
        }
    };
    match message {
        Message::Begin { commit_micros, xid, .. } => {
            progress.begin();
            *current = Some(Transaction { xid, end_lsn: 0, commit_micros, changes: vec![] });
        }
        Message::Relation(r) => {
            relations.insert(r.oid, Arc::new(r));
        }
        Message::Insert { relation, new } => push(relation, Kind::Insert, new, None),
        Message::Update { relation, old, new } => push(relation, Kind::Update, new, old),
        Message::Delete { relation, old } => push(relation, Kind::Delete, vec![], Some(old)),
        Message::Commit { end_lsn, .. } => {
            progress.committed(end_lsn);
            let mut txn = current.take()?;
            txn.end_lsn = end_lsn;
            return Some(txn);
        }
        Message::Other(_) => {}
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgoutput::{Cell, Column};

    #[test]
    fn confirms_only_delivered_transactions() {
        let mut p = Progress::default();
        p.keepalive(100);
        assert_eq!(p.confirmable(), 100, "idle: the server's end of WAL");
        p.begin();
        p.keepalive(150);
        assert_eq!(p.confirmable(), 0, "never past a transaction being read");
        p.committed(200);
        assert_eq!(p.confirmable(), 0, "nor past one not delivered yet");
        p.delivered(200);
        assert_eq!(p.confirmable(), 200);
        p.keepalive(300);
        assert_eq!(p.confirmable(), 300);
        p.begin();
        p.committed(400);
        p.begin();
        p.committed(500);
        p.delivered(400);
        assert_eq!(p.confirmable(), 400, "the first of two delivered, the second not");
    }

    #[test]
    fn assembles_transactions_in_commit_order() {
        let (mut p, mut rels, mut cur) = (Progress::default(), HashMap::new(), None);
        let rel = Relation {
            oid: 1,
            schema: "public".into(),
            name: "t".into(),
            replica_identity: b'd',
            columns: vec![Column { name: "id".into(), type_oid: 20, key: true }],
        };
        assert!(
            apply(Message::Begin { final_lsn: 10, commit_micros: 5, xid: 1 }, &mut p, &mut rels, &mut cur).is_none()
        );
        apply(Message::Relation(rel), &mut p, &mut rels, &mut cur);
        apply(Message::Insert { relation: 1, new: vec![Cell::Text("1".into())] }, &mut p, &mut rels, &mut cur);
        apply(Message::Delete { relation: 1, old: vec![Cell::Text("2".into())] }, &mut p, &mut rels, &mut cur);
        apply(Message::Insert { relation: 99, new: vec![] }, &mut p, &mut rels, &mut cur);
        let txn = apply(Message::Commit { commit_lsn: 10, end_lsn: 11, commit_micros: 5 }, &mut p, &mut rels, &mut cur)
            .unwrap();
        assert_eq!((txn.end_lsn, txn.commit_micros, txn.changes.len()), (11, 5, 2));
        assert_eq!((txn.changes[0].kind, txn.changes[1].kind), (Kind::Insert, Kind::Delete));
        assert_eq!(txn.changes[1].old.as_deref(), Some(&[Cell::Text("2".into())][..]));
        assert_eq!(p.confirmable(), 0);
    }
}
