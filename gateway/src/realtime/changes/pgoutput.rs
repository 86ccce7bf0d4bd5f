//! Decoding the replication stream: the CopyData wrappers (XLogData `w`, keepalive `k`) and the `pgoutput`
//! (protocol version 1) messages inside — Begin, Commit, Relation, Insert, Update, Delete (Truncate, Type,
//! Origin and logical Messages are recognised and skipped). Pure: bytes in, values out. Column values stay in
//! PostgreSQL's text form; PostgreSQL types them later.

use bytes::{Buf, Bytes};

/// 2000-01-01T00:00:00Z in Unix microseconds (PostgreSQL's timestamp epoch).
pub const PG_EPOCH_UNIX_MICROS: i64 = 946_684_800_000_000;

#[derive(Debug, Clone, PartialEq)]
pub enum CopyMessage {
    XLogData { start: u64, end: u64, data: Bytes },
    Keepalive { wal_end: u64, reply_requested: bool },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    Null,
    /// A TOASTed value the change did not touch (not sent).
    Unchanged,
    Text(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    pub name: String,
    pub type_oid: u32,
    /// Part of the replica identity (the key).
    pub key: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relation {
    pub oid: u32,
    pub schema: String,
    pub name: String,
    /// `d` default, `n` nothing, `f` full, `i` index.
    pub replica_identity: u8,
    pub columns: Vec<Column>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    Begin {
        final_lsn: u64,
        commit_micros: i64,
        xid: u32,
    },
    Commit {
        commit_lsn: u64,
        end_lsn: u64,
        commit_micros: i64,
    },
    Relation(Relation),
    Insert {
        relation: u32,
        new: Vec<Cell>,
    },
    /// `old` is the key (`K`) or the whole old row (`O`) when sent.
    Update {
        relation: u32,
        old: Option<Vec<Cell>>,
        new: Vec<Cell>,
    },
    Delete {
        relation: u32,
        old: Vec<Cell>,
    },
    /// Truncate, Type, Origin, logical messages: not part of postgres_changes.
    Other(u8),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("replication message truncated")]
    Truncated,
    #[error("unexpected replication message tag {0}")]
    Tag(u8),
    #[error("replication message text is not UTF-8")]
    Utf8,
}

type Result<T> = std::result::Result<T, DecodeError>;

fn need(buf: &Bytes, n: usize) -> Result<()> {
    if buf.remaining() < n {
        Err(DecodeError::Truncated)
    } else {
        Ok(())
    }
}

fn u8_(b: &mut Bytes) -> Result<u8> {
    need(b, 1)?;
    Ok(b.get_u8())
}
fn i16_(b: &mut Bytes) -> Result<i16> {
    need(b, 2)?;
    Ok(b.get_i16())
}
fn u32_(b: &mut Bytes) -> Result<u32> {
    need(b, 4)?;
    Ok(b.get_u32())
}
fn u64_(b: &mut Bytes) -> Result<u64> {
    need(b, 8)?;
    Ok(b.get_u64())
}
fn i64_(b: &mut Bytes) -> Result<i64> {
    need(b, 8)?;
    Ok(b.get_i64())
}

fn cstring(b: &mut Bytes) -> Result<String> {
    let end = b.iter().position(|&c| c == 0).ok_or(DecodeError::Truncated)?;
    let s = std::str::from_utf8(&b[..end]).map_err(|_| DecodeError::Utf8)?.to_string();
    b.advance(end + 1);
    Ok(s)
}

/// Decodes a CopyData body from the server.
pub fn decode_copy(mut b: Bytes) -> Result<CopyMessage> {
    match u8_(&mut b)? {
        b'w' => {
            let (start, end, _time) = (u64_(&mut b)?, u64_(&mut b)?, i64_(&mut b)?);
            Ok(CopyMessage::XLogData { start, end, data: b })
        }
        b'k' => {
            let (wal_end, _time) = (u64_(&mut b)?, i64_(&mut b)?);
            Ok(CopyMessage::Keepalive { wal_end, reply_requested: u8_(&mut b)? == 1 })
        }
        t => Err(DecodeError::Tag(t)),
    }
}

fn tuple(b: &mut Bytes) -> Result<Vec<Cell>> {
    let n = i16_(b)?.max(0) as usize;
    let mut cells = Vec::with_capacity(n);
    for _ in 0..n {
        cells.push(match u8_(b)? {
            b'n' => Cell::Null,
            b'u' => Cell::Unchanged,
            b't' | b'b' => {
                let len = u32_(b)? as usize;
                need(b, len)?;
                let bytes = b.split_to(len);
                Cell::Text(String::from_utf8(bytes.to_vec()).map_err(|_| DecodeError::Utf8)?)
            }
            t => return Err(DecodeError::Tag(t)),
        });
    }
    Ok(cells)
}

fn relation(b: &mut Bytes) -> Result<Relation> {
    let oid = u32_(b)?;
    let (schema, name) = (cstring(b)?, cstring(b)?);
    let replica_identity = u8_(b)?;
    let n = i16_(b)?.max(0) as usize;
    let mut columns = Vec::with_capacity(n);
    for _ in 0..n {
        let flags = u8_(b)?;
        let name = cstring(b)?;
        let type_oid = u32_(b)?;
        let _typmod = u32_(b)?;
        columns.push(Column { name, type_oid, key: flags & 1 == 1 });
    }
    Ok(Relation { oid, schema, name, replica_identity, columns })
}

/// Decodes one pgoutput message.
pub fn decode(mut b: Bytes) -> Result<Message> {
    let tag = u8_(&mut b)?;
    Ok(match tag {
        b'B' => Message::Begin { final_lsn: u64_(&mut b)?, commit_micros: i64_(&mut b)?, xid: u32_(&mut b)? },
        b'C' => {
            let _flags = u8_(&mut b)?;
            Message::Commit { commit_lsn: u64_(&mut b)?, end_lsn: u64_(&mut b)?, commit_micros: i64_(&mut b)? }
        }
        b'R' => Message::Relation(relation(&mut b)?),
        b'I' => {
            let relation = u32_(&mut b)?;
            match u8_(&mut b)? {
                b'N' => Message::Insert { relation, new: tuple(&mut b)? },
                t => return Err(DecodeError::Tag(t)),
            }
        }
        b'U' => {
            let relation = u32_(&mut b)?;
            let (old, marker) = match u8_(&mut b)? {
                b'K' | b'O' => (Some(tuple(&mut b)?), u8_(&mut b)?),
                m => (None, m),
            };
            if marker != b'N' {
                return Err(DecodeError::Tag(marker));
            }
            Message::Update { relation, old, new: tuple(&mut b)? }
        }
        b'D' => {
            let relation = u32_(&mut b)?;
            match u8_(&mut b)? {
                b'K' | b'O' => Message::Delete { relation, old: tuple(&mut b)? },
                t => return Err(DecodeError::Tag(t)),
            }
        }
        b'T' | b'Y' | b'O' | b'M' => Message::Other(tag),
        t => return Err(DecodeError::Tag(t)),
    })
}

/// A Standby Status Update: written, flushed and applied up to `lsn`.
pub fn status_update(lsn: u64, now_micros: i64, reply: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(34);
    out.push(b'r');
    for _ in 0..3 {
        out.extend_from_slice(&lsn.to_be_bytes());
    }
    out.extend_from_slice(&(now_micros - PG_EPOCH_UNIX_MICROS).to_be_bytes());
    out.push(u8::from(reply));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::BufMut;

    fn text_cell(out: &mut Vec<u8>, v: &str) {
        out.push(b't');
        out.put_u32(v.len() as u32);
        out.extend_from_slice(v.as_bytes());
    }

    #[test]
    fn decodes_begin_commit_and_the_copy_wrappers() {
        let mut b = vec![b'B'];
        b.put_u64(0x16B_3748);
        b.put_i64(1_000_000);
        b.put_u32(742);
        assert_eq!(
            decode(b.into()).unwrap(),
            Message::Begin { final_lsn: 0x16B_3748, commit_micros: 1_000_000, xid: 742 }
        );
        let mut c = vec![b'C', 0];
        c.put_u64(1);
        c.put_u64(2);
        c.put_i64(3);
        assert_eq!(decode(c.into()).unwrap(), Message::Commit { commit_lsn: 1, end_lsn: 2, commit_micros: 3 });
        let mut k = vec![b'k'];
        k.put_u64(99);
        k.put_i64(0);
        k.push(1);
        assert_eq!(decode_copy(k.into()).unwrap(), CopyMessage::Keepalive { wal_end: 99, reply_requested: true });
        let mut w = vec![b'w'];
        w.put_u64(5);
        w.put_u64(6);
        w.put_i64(0);
        w.extend_from_slice(b"Bxyz");
        assert_eq!(
            decode_copy(w.into()).unwrap(),
            CopyMessage::XLogData { start: 5, end: 6, data: Bytes::from_static(b"Bxyz") }
        );
    }

    #[test]
    fn decodes_relation_and_row_changes() {
        let mut r = vec![b'R'];
        r.put_u32(16384);
        r.extend_from_slice(b"public\0todos\0");
        r.push(b'f');
        r.put_i16(2);
        r.push(1);
        r.extend_from_slice(b"id\0");
        r.put_u32(20);
        r.put_i32(-1);
        r.push(0);
        r.extend_from_slice(b"title\0");
        r.put_u32(25);
        r.put_i32(-1);
        let Message::Relation(rel) = decode(r.into()).unwrap() else { panic!() };
        assert_eq!((rel.schema.as_str(), rel.name.as_str(), rel.replica_identity), ("public", "todos", b'f'));
        assert_eq!(rel.columns[0], Column { name: "id".into(), type_oid: 20, key: true });
        assert!(!rel.columns[1].key);

        let mut i = vec![b'I'];
        i.put_u32(16384);
        i.push(b'N');
        i.put_i16(3);
        text_cell(&mut i, "1");
        i.push(b'n');
        i.push(b'u');
        assert_eq!(
            decode(i.into()).unwrap(),
            Message::Insert { relation: 16384, new: vec![Cell::Text("1".into()), Cell::Null, Cell::Unchanged] }
        );
        let mut u = vec![b'U'];
        u.put_u32(7);
        u.push(b'O');
        u.put_i16(1);
        text_cell(&mut u, "é");
        u.push(b'N');
        u.put_i16(1);
        text_cell(&mut u, "2");
        assert_eq!(
            decode(u.into()).unwrap(),
            Message::Update {
                relation: 7, old: Some(vec![Cell::Text("é".into())]), new: vec![Cell::Text("2".into())]
            }
        );
        let mut u = vec![b'U'];
        u.put_u32(7);
        u.push(b'N');
        u.put_i16(0);
        assert_eq!(decode(u.into()).unwrap(), Message::Update { relation: 7, old: None, new: vec![] });
        let mut d = vec![b'D'];
        d.put_u32(7);
        d.push(b'K');
        d.put_i16(1);
        text_cell(&mut d, "9");
        assert_eq!(decode(d.into()).unwrap(), Message::Delete { relation: 7, old: vec![Cell::Text("9".into())] });
    }

    #[test]
    fn refuses_truncated_and_unknown_messages() {
        assert_eq!(decode(Bytes::from_static(b"B\0\0")), Err(DecodeError::Truncated));
        assert_eq!(decode(Bytes::from_static(b"Z")), Err(DecodeError::Tag(b'Z')));
        assert_eq!(decode(Bytes::from_static(b"T")).unwrap(), Message::Other(b'T'));
        let mut i = vec![b'I'];
        i.put_u32(1);
        i.push(b'N');
        i.put_i16(1);
        i.push(b't');
        i.put_u32(10);
        i.extend_from_slice(b"ab");
        assert_eq!(decode(i.into()), Err(DecodeError::Truncated));
    }

    #[test]
    fn status_updates() {
        let s = status_update(0x1_0000_00FF, PG_EPOCH_UNIX_MICROS + 5, false);
        assert_eq!(s.len(), 34);
        assert_eq!(&s[..9], &[b'r', 0, 0, 0, 1, 0, 0, 0, 0xFF]);
        assert_eq!(&s[25..33], &5i64.to_be_bytes());
    }
}
