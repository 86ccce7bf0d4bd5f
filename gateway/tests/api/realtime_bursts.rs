//! Realtime bursts as React's StrictMode and quick unsubscribes send them: join/leave/join, join/join, leave
//! before the join's answer, on public channels and on private ones whose policies PostgreSQL checks (a refused
//! join too). Each shape runs hundreds of rounds in one burst per round; a channel's frames must take effect in
//! arrival order, every join is answered (the abandoned one too, as Phoenix does), and the last join holds.

use crate::helpers::{spawn_app_with, TestApp};
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Rounds per shape: a race lost one round in thirty would show in every run.
const ROUNDS: usize = 300;

async fn app() -> TestApp {
    let app = spawn_app_with(&[("CHANNEL_ERROR_BACKOFF_MS", "0"), ("TENANT_MAX_JOINS_PER_SECOND", "5000")]).await;
    app.admin_client()
        .await
        .batch_execute(
            "create policy \"burst rooms read\" on realtime.messages for select to anon \
               using (realtime.topic() like 'open:%'); \
             create policy \"burst rooms write\" on realtime.messages for insert to anon \
               with check (realtime.topic() like 'open:%')",
        )
        .await
        .unwrap();
    app
}

async fn connect(app: &TestApp) -> Ws {
    let base = app.base_url.replace("http", "ws");
    let url = format!("{base}/realtime/v1/websocket?apikey={}&vsn=2.0.0", app.anon_key);
    tokio_tungstenite::connect_async(url).await.expect("upgrade").0
}

/// A vsn 2.0.0 frame.
fn frame(join_ref: &str, reference: &str, topic: &str, event: &str, payload: Value) -> Message {
    Message::text(json!([join_ref, reference, topic, event, payload]).to_string())
}

fn join(join_ref: &str, reference: &str, topic: &str, private: bool) -> Message {
    let config = json!({"config": {"broadcast": {"ack": true}, "presence": {"enabled": false}, "private": private}});
    frame(join_ref, reference, topic, "phx_join", config)
}

fn leave(join_ref: &str, reference: &str, topic: &str) -> Message {
    frame(join_ref, reference, topic, "phx_leave", json!({}))
}

/// Sends the frames as one burst (one flush), as a client does when its socket opens with them queued.
async fn burst(ws: &mut Ws, frames: Vec<Message>) {
    for f in frames {
        ws.feed(f).await.unwrap();
    }
    ws.flush().await.unwrap();
}

/// What the client sees of one server frame: join_ref, ref, event, and the reply's status (if a reply).
fn seen(v: &Value) -> (String, String, String, String) {
    let text = |i: usize| v[i].as_str().unwrap_or("").to_string();
    (text(0), text(1), text(3), v[4]["status"].as_str().unwrap_or("").to_string())
}

/// The next `n` frames, each as [`seen`] shows it.
async fn next(ws: &mut Ws, n: usize, round: &str) -> Vec<(String, String, String, String)> {
    let mut got = vec![];
    while got.len() < n {
        let m = tokio::time::timeout(Duration::from_secs(5), ws.next()).await;
        let Ok(Some(Ok(Message::Text(t)))) = m else { panic!("{round}: no answer after {got:?}") };
        got.push(seen(&serde_json::from_str(t.as_str()).unwrap()));
    }
    got
}

fn row(join_ref: &str, reference: &str, event: &str, status: &str) -> (String, String, String, String) {
    (join_ref.into(), reference.into(), event.into(), status.into())
}

/// Proves the channel is joined under `join_ref` (an acknowledged broadcast), then leaves it.
async fn joined_then_leave(ws: &mut Ws, join_ref: &str, topic: &str, round: &str) {
    let ping = frame(join_ref, "90", topic, "broadcast", json!({"type": "broadcast", "event": "e", "payload": {}}));
    burst(ws, vec![ping, leave(join_ref, "91", topic)]).await;
    let expected = vec![
        row(join_ref, "90", "phx_reply", "ok"),
        row(join_ref, "91", "phx_reply", "ok"),
        row(join_ref, join_ref, "phx_close", ""),
    ];
    assert_eq!(next(ws, 3, round).await, expected, "{round}: the last join holds the channel");
}

/// join a, leave a, join b — StrictMode's mount, unmount, mount before the socket opened.
async fn join_leave_join(ws: &mut Ws, topic: &str, private: bool, round: &str) {
    burst(ws, vec![join("1", "1", topic, private), leave("1", "2", topic), join("3", "3", topic, private)]).await;
    let expected = vec![
        row("1", "1", "phx_reply", "ok"),
        row("1", "2", "phx_reply", "ok"),
        row("1", "1", "phx_close", ""),
        row("3", "3", "phx_reply", "ok"),
    ];
    assert_eq!(next(ws, 4, round).await, expected, "{round}");
    joined_then_leave(ws, "3", topic, round).await;
}

#[tokio::test]
async fn join_leave_join_answers_every_join_and_the_last_one_holds() {
    let app = app().await;
    let mut ws = connect(&app).await;
    for i in 0..ROUNDS {
        join_leave_join(&mut ws, &format!("realtime:room:{i}"), false, &format!("public round {i}")).await;
        join_leave_join(&mut ws, &format!("realtime:open:{i}"), true, &format!("private round {i}")).await;
    }
}

#[tokio::test]
async fn join_join_closes_the_first_and_the_second_holds() {
    let app = app().await;
    let mut ws = connect(&app).await;
    for i in 0..ROUNDS {
        let (topic, private) =
            if i % 2 == 0 { (format!("realtime:room:{i}"), false) } else { (format!("realtime:open:{i}"), true) };
        let round = format!("round {i}");
        burst(&mut ws, vec![join("1", "1", &topic, private), join("2", "2", &topic, private)]).await;
        let expected =
            vec![row("1", "1", "phx_reply", "ok"), row("1", "1", "phx_close", ""), row("2", "2", "phx_reply", "ok")];
        assert_eq!(next(&mut ws, 3, &round).await, expected, "{round}");
        joined_then_leave(&mut ws, "2", &topic, &round).await;
    }
}

#[tokio::test]
async fn a_leave_before_the_joins_answer_follows_it_and_refusals_keep_their_place() {
    let app = app().await;
    let mut ws = connect(&app).await;
    for i in 0..ROUNDS {
        let round = format!("round {i}");
        let topic = format!("realtime:open:{i}");
        burst(&mut ws, vec![join("1", "1", &topic, true), leave("1", "2", &topic)]).await;
        let expected =
            vec![row("1", "1", "phx_reply", "ok"), row("1", "2", "phx_reply", "ok"), row("1", "1", "phx_close", "")];
        assert_eq!(next(&mut ws, 3, &round).await, expected, "{round}");
        // no policy opens `shut:`: the private join is refused, then the public join of the same topic holds
        let topic = format!("realtime:shut:{i}");
        burst(&mut ws, vec![join("4", "4", &topic, true), leave("4", "5", &topic), join("6", "6", &topic, false)])
            .await;
        let expected = vec![
            row("4", "4", "phx_reply", "error"),
            row("4", "5", "phx_reply", "ok"),
            row("6", "6", "phx_reply", "ok"),
        ];
        assert_eq!(next(&mut ws, 3, &round).await, expected, "{round}");
        joined_then_leave(&mut ws, "6", &topic, &round).await;
    }
}

#[tokio::test]
async fn frames_past_the_hold_budget_wait_for_the_join_and_none_is_lost() {
    let app = app().await;
    let mut ws = connect(&app).await;
    let topic = "realtime:open:flood";
    let ping = |i: usize| {
        let payload = json!({"type": "broadcast", "event": "e", "payload": {"i": i}});
        frame("1", &format!("{}", 100 + i), topic, "broadcast", payload)
    };
    // four times the frame budget behind one private join: the socket stops reading, then catches up in order
    let mut frames = vec![join("1", "1", topic, true)];
    frames.extend((0..256).map(ping));
    burst(&mut ws, frames).await;
    let mut expected = vec![row("1", "1", "phx_reply", "ok")];
    expected.extend((0..256).map(|i| row("1", &format!("{}", 100 + i), "phx_reply", "ok")));
    assert_eq!(next(&mut ws, 257, "flood").await, expected);
    joined_then_leave(&mut ws, "1", topic, "flood").await;
}
