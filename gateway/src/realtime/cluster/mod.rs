//! Several gateway instances on one database behave as one Realtime service, with PostgreSQL as the only shared
//! medium: broadcasts and presence changes travel as `NOTIFY realtime_gateway` envelopes (bodies over NOTIFY's
//! 8000-byte limit go through the unlogged `realtime.relay` table, the notification carrying only the row id);
//! `realtime.send()` rows arrive on `realtime_messages` from a trigger. Instances announce themselves (hello),
//! beat every 5 s and say bye; one silent for 15 s is considered gone and its presences leave. Nothing is
//! published while no other instance is alive.

mod bus;

use super::hub::{Hub, RoomKey};
use super::message::Broadcast;
use super::presence::Diff;
use super::protocol::Body;
use base64::Engine;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use uuid::Uuid;

pub const CHANNEL: &str = "realtime_gateway";
pub const MESSAGES_CHANNEL: &str = "realtime_messages";
/// NOTIFY payloads must stay under 8000 bytes; keep a margin.
const NOTIFY_LIMIT: usize = 7800;
const BEAT: Duration = Duration::from_secs(5);
const LOST_AFTER: Duration = Duration::from_secs(15);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "k")]
pub enum Envelope {
    #[serde(rename = "b")]
    Broadcast { o: Uuid, p: bool, t: String, m: WireBroadcast },
    #[serde(rename = "p")]
    Presence { o: Uuid, p: bool, t: String, d: Diff },
    #[serde(rename = "hello")]
    Hello { o: Uuid },
    #[serde(rename = "beat")]
    Beat { o: Uuid },
    #[serde(rename = "bye")]
    Bye { o: Uuid },
    /// A body kept in `realtime.relay` because it was too large to notify.
    #[serde(rename = "ref")]
    Relay { id: i64 },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "f")]
pub enum WireBroadcast {
    #[serde(rename = "t")]
    Text { payload: String },
    #[serde(rename = "u")]
    User { event: String, meta: Option<String>, json: Option<String>, bin: Option<String> },
}

impl WireBroadcast {
    pub fn from_broadcast(b: &Broadcast) -> WireBroadcast {
        match b {
            Broadcast::Text(p) => WireBroadcast::Text { payload: p.to_string() },
            Broadcast::User { event, meta, body } => {
                let (json, bin) = match body {
                    Body::Json(j) => (Some(String::from_utf8_lossy(j).into_owned()), None),
                    Body::Binary(b) => (None, Some(base64::engine::general_purpose::STANDARD.encode(b))),
                };
                WireBroadcast::User { event: event.to_string(), meta: meta.as_deref().map(str::to_string), json, bin }
            }
        }
    }

    pub fn into_broadcast(self) -> Option<Broadcast> {
        match self {
            WireBroadcast::Text { payload } => Some(Broadcast::Text(payload.into())),
            WireBroadcast::User { event, meta, json, bin } => {
                let body = match (json, bin) {
                    (Some(j), _) => Body::Json(j.into()),
                    (None, Some(b)) => Body::Binary(base64::engine::general_purpose::STANDARD.decode(b).ok()?.into()),
                    (None, None) => return None,
                };
                Some(Broadcast::User { event: event.into(), meta: meta.map(Into::into), body })
            }
        }
    }
}

/// This instance's view of the others, and the queue of envelopes to publish.
pub struct Cluster {
    pub node: Uuid,
    peers: Mutex<HashMap<Uuid, Instant>>,
    tx: mpsc::UnboundedSender<Envelope>,
    rx: Mutex<Option<mpsc::UnboundedReceiver<Envelope>>>,
}

impl Cluster {
    pub fn new(node: Uuid) -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        Cluster { node, peers: Mutex::new(HashMap::new()), tx, rx: Mutex::new(Some(rx)) }
    }

    /// Whether another instance was heard from recently.
    pub fn has_peers(&self) -> bool {
        self.peers.lock().map(|p| !p.is_empty()).unwrap_or(false)
    }

    pub fn publish_broadcast(&self, key: &RoomKey, message: &Broadcast) {
        if self.has_peers() {
            let m = WireBroadcast::from_broadcast(message);
            let _ = self.tx.send(Envelope::Broadcast { o: self.node, p: key.private, t: key.sub_topic.to_string(), m });
        }
    }

    pub fn publish_presence(&self, key: &RoomKey, diff: Diff) {
        if self.has_peers() && !diff.is_empty() {
            let _ = self.tx.send(Envelope::Presence {
                o: self.node,
                p: key.private,
                t: key.sub_topic.to_string(),
                d: diff,
            });
        }
    }

    /// Says goodbye (directly, not through the queue: the process is stopping) so the others drop this
    /// instance's presences at once.
    pub async fn leave(&self, db_uri: &str) {
        let bye = async {
            let (client, _) = bus::connect(db_uri).await.ok()?;
            let text = serde_json::to_string(&Envelope::Bye { o: self.node }).ok()?;
            client.execute("select pg_notify($1, $2)", &[&CHANNEL, &text]).await.ok()
        };
        let _ = tokio::time::timeout(Duration::from_secs(2), bye).await;
    }

    /// Whether this instance, or another heard from within the last 15 s, has this id.
    pub fn is_alive(&self, node: Uuid) -> bool {
        node == self.node
            || self.peers.lock().map(|p| p.get(&node).is_some_and(|t| t.elapsed() <= LOST_AFTER)).unwrap_or(false)
    }

    fn heard(&self, node: Uuid) -> bool {
        let mut peers = self.peers.lock().unwrap_or_else(|e| e.into_inner());
        peers.insert(node, Instant::now()).is_none()
    }

    fn forget(&self, node: Uuid) {
        self.peers.lock().unwrap_or_else(|e| e.into_inner()).remove(&node);
    }

    fn lost_peers(&self) -> Vec<Uuid> {
        let mut peers = self.peers.lock().unwrap_or_else(|e| e.into_inner());
        let lost: Vec<Uuid> = peers.iter().filter(|(_, t)| t.elapsed() > LOST_AFTER).map(|(n, _)| *n).collect();
        for n in &lost {
            peers.remove(n);
        }
        lost
    }
}

/// Starts the publisher and the listener.
pub fn spawn(cluster: Arc<Cluster>, hub: Arc<Hub>, db_uri: String) {
    if let Some(rx) = cluster.rx.lock().ok().and_then(|mut r| r.take()) {
        tokio::spawn(bus::publisher(cluster.clone(), rx, db_uri.clone()));
    }
    tokio::spawn(bus::listener(cluster, hub, db_uri));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelopes_round_trip_and_stay_compact() {
        let o = Uuid::nil();
        let b =
            Broadcast::User { event: "e".into(), meta: None, body: Body::Binary(bytes::Bytes::from_static(&[1, 2])) };
        let e = Envelope::Broadcast { o, p: true, t: "room".into(), m: WireBroadcast::from_broadcast(&b) };
        let text = serde_json::to_string(&e).unwrap();
        assert!(text.starts_with(r#"{"k":"b","#));
        let back: Envelope = serde_json::from_str(&text).unwrap();
        let Envelope::Broadcast { m, .. } = back else { panic!() };
        assert_eq!(m.into_broadcast(), Some(b));
        assert_eq!(serde_json::to_string(&Envelope::Relay { id: 5 }).unwrap(), r#"{"k":"ref","id":5}"#);
    }
}
