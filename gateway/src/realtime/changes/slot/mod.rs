//! The replication slot and its stream. Each gateway instance that has postgres_changes subscribers keeps one
//! logical `pgoutput` slot of its own (`supabase_realtime_<instance id>`) on the `supabase_realtime` publication
//! and streams from it over a replication connection. The slot is permanent, so when that connection drops (a
//! PostgreSQL restart, a terminated walsender) the instance reconnects and resumes from the position it
//! confirmed: nothing committed meanwhile is lost. Its lifetime is bounded by the instance (see `Changes::run`):
//! dropped once nobody has listened for `REALTIME_SLOT_IDLE_MS`, on shutdown, and — for an instance that died
//! without dropping it — by any instance on the same database once it has stayed inactive for a minute
//! (`orphans`). The position confirmed to the server (and so the WAL it may recycle) moves only past transactions
//! that were delivered, or — when nothing is in flight — to the end of WAL the server reported.

mod streaming;

pub use streaming::{stream, Kind, RowChange, Transaction};

use crate::core::db::pipeline::{connect_replication, PgConn, PgError};
use bytes::{Bytes, BytesMut};
use postgres_protocol::message::frontend;
use std::time::Duration;

/// A slot name this module creates or sweeps: `supabase_realtime_` and an instance id (32 hex digits).
pub fn is_instance_slot(name: &str) -> bool {
    name.strip_prefix("supabase_realtime_")
        .is_some_and(|id| id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Why streaming stopped or could not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SlotError {
    #[error("{0}")]
    Unavailable(String),
    #[error("replication connection lost: {0}")]
    Lost(String),
}

fn db_message(e: PgError) -> String {
    match e {
        PgError::Db(db) => db.message,
        other => other.to_string(),
    }
}

/// Parses an ErrorResponse body's message field.
fn error_message(body: &[u8]) -> String {
    error_fields(body).1
}

/// An ErrorResponse body's SQLSTATE and message.
fn error_fields(body: &[u8]) -> (String, String) {
    let (mut code, mut message) = (String::new(), String::from("replication error"));
    for field in body.split(|b| *b == 0) {
        match field.split_first() {
            Some((&b'C', text)) => code = String::from_utf8_lossy(text).into_owned(),
            Some((&b'M', text)) => message = String::from_utf8_lossy(text).into_owned(),
            _ => {}
        }
    }
    (code, message)
}

/// A replication command's failure, with its SQLSTATE.
struct CommandError {
    code: String,
    message: String,
}

impl From<CommandError> for SlotError {
    fn from(e: CommandError) -> SlotError {
        SlotError::Unavailable(e.message)
    }
}

/// Runs one command; the outer error is the connection's, the inner one the server's answer.
async fn command(conn: &mut PgConn, sql: &str) -> Result<Result<Vec<Vec<Option<String>>>, CommandError>, SlotError> {
    let mut buf = BytesMut::new();
    frontend::query(sql, &mut buf).map_err(|e| SlotError::Unavailable(e.to_string()))?;
    conn.write_raw(&buf).await.map_err(|e| SlotError::Unavailable(db_message(e)))?;
    let mut rows = vec![];
    let mut error = None;
    loop {
        let (tag, body) = conn.read_raw().await.map_err(|e| SlotError::Unavailable(db_message(e)))?;
        match tag {
            b'D' => rows.push(data_row(&body)),
            b'E' => error = Some(error_fields(&body)),
            b'Z' => break,
            _ => {}
        }
    }
    Ok(match error {
        Some((code, message)) => Err(CommandError { code, message }),
        None => Ok(rows),
    })
}

/// SQLSTATEs of a missing and an existing slot.
const UNDEFINED_OBJECT: &str = "42704";
const DUPLICATE_OBJECT: &str = "42710";

fn data_row(body: &[u8]) -> Vec<Option<String>> {
    let mut b = Bytes::copy_from_slice(body);
    let n = if b.len() >= 2 { i16::from_be_bytes([b[0], b[1]]) } else { 0 };
    let _ = b.split_to(2.min(b.len()));
    (0..n.max(0))
        .map(|_| {
            if b.len() < 4 {
                return None;
            }
            let len = i32::from_be_bytes([b[0], b[1], b[2], b[3]]);
            let _ = b.split_to(4);
            (len >= 0).then(|| String::from_utf8_lossy(&b.split_to((len as usize).min(b.len()))).into_owned())
        })
        .collect()
}

/// Opens the replication connection and starts streaming from the instance's slot. `fresh`: a new slot (any
/// left under this name is dropped first); otherwise the existing slot is resumed from its confirmed position —
/// and when it is gone or can no longer be read (e.g. invalidated by `max_slot_wal_keep_size`) a new one is made
/// and the gap is logged as an error: changes committed in it are not delivered.
pub async fn open(db_uri: &str, slot: &str, publication: &str, fresh: bool) -> Result<PgConn, SlotError> {
    let config = crate::core::db::passfile::config(db_uri).map_err(|e| SlotError::Unavailable(e.to_string()))?;
    let mut conn = connect_replication(&config).await.map_err(|e| SlotError::Unavailable(db_message(e)))?;
    if fresh {
        drop_on(&mut conn, slot).await?;
    }
    let created = create(&mut conn, slot).await?;
    if !fresh && created {
        tracing::error!(slot, "realtime: the replication slot was gone; changes committed meanwhile are not delivered");
    }
    match start(&mut conn, slot, publication).await? {
        Ok(()) => Ok(conn),
        Err(e) if created => Err(e.into()),
        Err(e) => {
            tracing::error!(slot, error = %e.message, "realtime: the replication slot cannot be resumed; making a new one (changes committed meanwhile are not delivered)");
            let mut conn = connect_replication(&config).await.map_err(|e| SlotError::Unavailable(db_message(e)))?;
            drop_on(&mut conn, slot).await?;
            create(&mut conn, slot).await?;
            start(&mut conn, slot, publication).await?.map_err(SlotError::from)?;
            Ok(conn)
        }
    }
}

/// Creates the slot unless it exists; whether it was created.
async fn create(conn: &mut PgConn, slot: &str) -> Result<bool, SlotError> {
    let sql = format!("CREATE_REPLICATION_SLOT \"{slot}\" LOGICAL pgoutput NOEXPORT_SNAPSHOT");
    match command(conn, &sql).await? {
        Ok(_) => Ok(true),
        Err(e) if e.code == DUPLICATE_OBJECT => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// `START_REPLICATION` from the slot's confirmed position; the inner error is the server's refusal.
async fn start(conn: &mut PgConn, slot: &str, publication: &str) -> Result<Result<(), CommandError>, SlotError> {
    let publication = publication.replace('\'', "''").replace('"', "\"\"");
    let start = format!(
        "START_REPLICATION SLOT \"{slot}\" LOGICAL 0/0 (proto_version '1', publication_names '\"{publication}\"')"
    );
    let mut buf = BytesMut::new();
    frontend::query(&start, &mut buf).map_err(|e| SlotError::Unavailable(e.to_string()))?;
    conn.write_raw(&buf).await.map_err(|e| SlotError::Unavailable(db_message(e)))?;
    loop {
        let (tag, body) = conn.read_raw().await.map_err(|e| SlotError::Unavailable(db_message(e)))?;
        match tag {
            b'W' => return Ok(Ok(())), // CopyBothResponse: streaming
            b'E' => {
                let (code, message) = error_fields(&body);
                return Ok(Err(CommandError { code, message }));
            }
            _ => {}
        }
    }
}

/// Drops the slot if it exists, waiting for a session that still holds it (a walsender on its way out) to let go.
async fn drop_on(conn: &mut PgConn, slot: &str) -> Result<(), SlotError> {
    let sql = format!("DROP_REPLICATION_SLOT \"{slot}\" WAIT");
    match tokio::time::timeout(Duration::from_secs(10), command(conn, &sql)).await {
        Err(_) => Err(SlotError::Unavailable(format!("replication slot {slot} is still in use"))),
        Ok(answer) => match answer? {
            Ok(_) => Ok(()),
            Err(e) if e.code == UNDEFINED_OBJECT => Ok(()),
            Err(e) => Err(e.into()),
        },
    }
}

/// Drops the instance's slot (nobody listens any more, or the instance is stopping).
pub async fn drop_slot(db_uri: &str, slot: &str) -> Result<(), SlotError> {
    let config = crate::core::db::passfile::config(db_uri).map_err(|e| SlotError::Unavailable(e.to_string()))?;
    let mut conn = connect_replication(&config).await.map_err(|e| SlotError::Unavailable(db_message(e)))?;
    drop_on(&mut conn, slot).await
}

/// Inactive instance slots on this database other than `own`, for the orphan sweep.
pub async fn inactive_instance_slots(
    client: &tokio_postgres::Client,
    own: &str,
) -> Result<Vec<String>, tokio_postgres::Error> {
    let rows = client
        .query(
            "select slot_name::text from pg_replication_slots where database = current_database() \
             and slot_type = 'logical' and not active and slot_name like 'supabase\\_realtime\\_%' and slot_name <> $1",
            &[&own],
        )
        .await?;
    Ok(rows.iter().map(|r| r.get::<_, String>(0)).filter(|n| is_instance_slot(n)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instance_slots_are_recognised_by_name() {
        assert!(is_instance_slot(&format!("supabase_realtime_{}", uuid::Uuid::new_v4().simple())));
        for other in
            ["supabase_realtime_replication_slot", "supabase_realtime_", "supabase_realtime_messages_x", "mine"]
        {
            assert!(!is_instance_slot(other), "{other}");
        }
    }

    #[test]
    fn reads_error_and_data_row_bodies() {
        assert_eq!(
            error_message(b"SERROR\0C55000\0Mlogical decoding requires wal_level >= logical\0\0"),
            "logical decoding requires wal_level >= logical"
        );
        assert_eq!(
            error_fields(b"SERROR\0C42710\0Mreplication slot \"x\" already exists\0\0"),
            (DUPLICATE_OBJECT.to_string(), "replication slot \"x\" already exists".to_string())
        );
        let mut row = vec![0, 2, 0, 0, 0, 2];
        row.extend_from_slice(b"ab");
        row.extend_from_slice(&(-1i32).to_be_bytes());
        assert_eq!(data_row(&row), vec![Some("ab".to_string()), None]);
    }
}
