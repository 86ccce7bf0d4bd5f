//! The cluster's bus on PostgreSQL: the publisher sends envelopes as `NOTIFY` (large ones through
//! `realtime.relay`), the listener receives them and `realtime.send()` rows, beats, and forgets lost peers.

use super::{Cluster, Envelope, BEAT, CHANNEL, MESSAGES_CHANNEL, NOTIFY_LIMIT};
use crate::realtime::hub::{Hub, RoomKey};
use futures::StreamExt;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, NoTls};

pub(super) async fn connect(
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

pub(super) async fn publisher(cluster: Arc<Cluster>, mut rx: mpsc::UnboundedReceiver<Envelope>, db_uri: String) {
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

pub(super) async fn listener(cluster: Arc<Cluster>, hub: Arc<Hub>, db_uri: String) {
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
        return crate::realtime::db_broadcast::deliver(hub, client, payload).await;
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
