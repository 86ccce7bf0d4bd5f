//! Several gateway instances on one database behave as one Realtime service, with PostgreSQL as the only shared
//! medium: broadcasts and presence changes travel as `NOTIFY realtime_gateway` envelopes (bodies over NOTIFY's
//! 8000-byte limit go through the unlogged `realtime.relay` table, the notification carrying only the row id);
//! `realtime.send()` rows arrive on `realtime_messages` from a trigger. Instances announce themselves (hello),
//! beat every 5 s and say bye; one silent for 15 s is considered gone and its presences leave. Nothing is
//! published while no other instance is alive.

use super::hub::{Hub, RoomKey};
use super::message::Broadcast;
use super::presence::Diff;
use super::protocol::Body;
use base64::Engine;
use futures::StreamExt;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, NoTls};
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
            let (client, _) = connect(db_uri).await.ok()?;
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
        tokio::spawn(publisher(cluster.clone(), rx, db_uri.clone()));
    }
    tokio::spawn(listener(cluster, hub, db_uri));
}

async fn connect(
    db_uri: &str,
) -> Result<(tokio_postgres::Client, mpsc::UnboundedReceiver<String>), tokio_postgres::Error> {
    let (client, mut connection) = tokio_postgres::connect(db_uri, NoTls).await?;
    let (tx, rx) = mpsc::unbounded_channel();
    let mut messages = futures::stream::poll_fn(move |cx| connection.poll_message(cx));
    tokio::spawn(async move {
        while let Some(Ok(message)) = messages.next().await {
            if let AsyncMessage::Notification(n) = message {
                let _ = tx.send(format!("{}\n{}", n.channel(), n.payload()));
            }
        }
    });
    Ok((client, rx))
}

async fn publisher(cluster: Arc<Cluster>, mut rx: mpsc::UnboundedReceiver<Envelope>, db_uri: String) {
    let mut client: Option<tokio_postgres::Client> = None;
    let mut beat = tokio::time::interval(BEAT);
    loop {
        let first = tokio::select! {
            e = rx.recv() => match e { Some(e) => e, None => return },
            _ = beat.tick() => Envelope::Beat { o: cluster.node },
        };
        let mut batch = vec![first];
        while let Ok(e) = rx.try_recv() {
            batch.push(e);
        }
        if client.as_ref().is_none_or(|c| c.is_closed()) {
            client = connect(&db_uri)
                .await
                .map(|(c, _)| c)
                .map_err(|e| tracing::warn!(error = %e, "realtime publisher cannot connect"))
                .ok();
        }
        let Some(c) = &client else { continue };
        if let Err(e) = publish(c, &batch).await {
            tracing::warn!(error = %e, "realtime publisher could not notify");
        }
    }
}

async fn publish(client: &tokio_postgres::Client, batch: &[Envelope]) -> Result<(), tokio_postgres::Error> {
    let mut small = Vec::with_capacity(batch.len());
    for e in batch {
        let text = serde_json::to_string(e).unwrap_or_default();
        if text.len() <= NOTIFY_LIMIT {
            small.push(text);
            continue;
        }
        if !small.is_empty() {
            notify_all(client, &std::mem::take(&mut small)).await?;
        }
        client
            .execute(
                "with r as (insert into realtime.relay (body) values ($1) returning id) \
                 select pg_notify($2, json_build_object('k', 'ref', 'id', r.id)::text) from r",
                &[&text, &CHANNEL],
            )
            .await?;
    }
    if !small.is_empty() {
        notify_all(client, &small).await?;
    }
    Ok(())
}

async fn notify_all(client: &tokio_postgres::Client, texts: &[String]) -> Result<(), tokio_postgres::Error> {
    client
        .execute(
            "select pg_notify($1, x) from unnest($2::text[]) with ordinality u(x, i) order by i",
            &[&CHANNEL, &texts],
        )
        .await?;
    Ok(())
}

async fn listener(cluster: Arc<Cluster>, hub: Arc<Hub>, db_uri: String) {
    loop {
        match connect(&db_uri).await {
            Ok((client, mut rx)) => {
                if client.batch_execute(&format!("listen {CHANNEL}; listen {MESSAGES_CHANNEL}")).await.is_ok() {
                    let _ = cluster.tx.send(Envelope::Hello { o: cluster.node });
                    share_presences(&cluster, &hub);
                    let mut check = tokio::time::interval(BEAT);
                    loop {
                        tokio::select! {
                            n = rx.recv() => match n {
                                Some(n) => on_notification(&cluster, &hub, &client, &n).await,
                                None => break,
                            },
                            _ = check.tick() => {
                                for node in cluster.lost_peers() {
                                    tracing::warn!(%node, "realtime instance lost: its presences leave");
                                    hub.drop_node(node);
                                }
                                if client.is_closed() { break }
                            }
                        }
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "realtime listener cannot connect; retrying"),
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

fn share_presences(cluster: &Cluster, hub: &Hub) {
    for (key, diff) in hub.local_presences() {
        let _ = cluster.tx.send(Envelope::Presence {
            o: cluster.node,
            p: key.private,
            t: key.sub_topic.to_string(),
            d: diff,
        });
    }
}

async fn on_notification(cluster: &Cluster, hub: &Hub, client: &tokio_postgres::Client, n: &str) {
    let Some((channel, payload)) = n.split_once('\n') else { return };
    if channel == MESSAGES_CHANNEL {
        return super::db_broadcast::deliver(hub, client, payload).await;
    }
    let Ok(mut envelope) = serde_json::from_str::<Envelope>(payload) else { return };
    if let Envelope::Relay { id } = envelope {
        let row = client.query_opt("select body from realtime.relay where id = $1", &[&id]).await;
        let Some(body) = row.ok().flatten().map(|r| r.get::<_, String>(0)) else { return };
        let Ok(inner) = serde_json::from_str::<Envelope>(&body) else { return };
        envelope = inner;
    }
    on_envelope(cluster, hub, envelope);
}

fn on_envelope(cluster: &Cluster, hub: &Hub, envelope: Envelope) {
    let origin = match &envelope {
        Envelope::Broadcast { o, .. }
        | Envelope::Presence { o, .. }
        | Envelope::Hello { o }
        | Envelope::Beat { o }
        | Envelope::Bye { o } => *o,
        Envelope::Relay { .. } => return,
    };
    if origin == cluster.node {
        return;
    }
    let new_peer = cluster.heard(origin);
    if new_peer || matches!(envelope, Envelope::Hello { .. }) {
        // a new instance: let it know this one exists and what presences it holds
        let _ = cluster.tx.send(Envelope::Beat { o: cluster.node });
        share_presences(cluster, hub);
    }
    match envelope {
        Envelope::Broadcast { p, t, m, .. } => {
            if let Some(message) = m.into_broadcast() {
                hub.broadcast(&RoomKey { private: p, sub_topic: t.into() }, &message, None);
            }
        }
        Envelope::Presence { p, t, d, .. } => hub.apply_remote(&RoomKey { private: p, sub_topic: t.into() }, &d),
        Envelope::Bye { o } => {
            cluster.forget(o);
            hub.drop_node(o);
        }
        Envelope::Hello { .. } | Envelope::Beat { .. } | Envelope::Relay { .. } => {}
    }
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
