//! Broadcast from the database: a committed `realtime.send()` / `realtime.send_binary()` row (or any insert into
//! `realtime.messages` with extension `broadcast`) arrives as a `realtime_messages` notification and is delivered
//! to this instance's subscribers as a user broadcast with metadata `{"id": …}` — kind 4 to vsn 2, text with
//! `meta` to vsn 1 — in the public or private room as the row says.

use super::hub::{Hub, RoomKey};
use super::message::Broadcast;
use super::protocol::Body;
use base64::Engine;
use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Deserialize)]
struct Row {
    id: String,
    topic: String,
    event: Option<String>,
    private: bool,
    payload: Option<Value>,
    bin: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Notice {
    Relayed { relay: i64 },
    Row(Row),
}

/// Delivers one notification's row (fetching a relayed body first).
pub async fn deliver(hub: &Hub, client: &tokio_postgres::Client, payload: &str) {
    let row = match serde_json::from_str::<Notice>(payload) {
        Ok(Notice::Row(row)) => row,
        Ok(Notice::Relayed { relay }) => {
            let body = client.query_opt("select body from realtime.relay where id = $1", &[&relay]).await;
            match body.ok().flatten().and_then(|r| serde_json::from_str::<Row>(&r.get::<_, String>(0)).ok()) {
                Some(row) => row,
                None => return,
            }
        }
        Err(e) => return tracing::warn!(error = %e, "unreadable realtime_messages notification"),
    };
    if let Some((key, message)) = to_broadcast(row) {
        hub.broadcast(&key, &message, None);
    }
}

fn to_broadcast(row: Row) -> Option<(RoomKey, Broadcast)> {
    let body = match (row.payload, row.bin) {
        (Some(p), _) => Body::Json(p.to_string().into()),
        (None, Some(b)) => Body::Binary(base64::engine::general_purpose::STANDARD.decode(b).ok()?.into()),
        (None, None) => Body::Json("{}".into()),
    };
    let meta = serde_json::json!({ "id": row.id }).to_string();
    let key = RoomKey { private: row.private, sub_topic: row.topic.into() };
    Some((key, Broadcast::User { event: row.event.unwrap_or_default().into(), meta: Some(meta.into()), body }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_become_user_broadcasts_with_their_id() {
        let n: Notice = serde_json::from_str(
            r#"{"id":"a1","topic":"room","event":"e","private":true,"payload":{"x":1,"id":"a1"},"bin":null}"#,
        )
        .unwrap();
        let Notice::Row(row) = n else { panic!() };
        let (key, b) = to_broadcast(row).unwrap();
        assert!(key.private && &*key.sub_topic == "room");
        assert_eq!(
            b,
            Broadcast::User {
                event: "e".into(),
                meta: Some(r#"{"id":"a1"}"#.into()),
                body: Body::Json(r#"{"id":"a1","x":1}"#.into())
            }
        );
        let n: Notice = serde_json::from_str(r#"{"relay":4}"#).unwrap();
        assert!(matches!(n, Notice::Relayed { relay: 4 }));
        let bin: Notice =
            serde_json::from_str(r#"{"id":"b","topic":"t","event":"e","private":false,"payload":null,"bin":"AQID"}"#)
                .unwrap();
        let Notice::Row(row) = bin else { panic!() };
        assert!(
            matches!(to_broadcast(row).unwrap().1, Broadcast::User { body: Body::Binary(b), .. } if b[..] == [1, 2, 3])
        );
    }
}
