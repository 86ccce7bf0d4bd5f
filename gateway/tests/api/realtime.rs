//! Realtime over a raw WebSocket: both framings on the wire (heartbeat, join, the captured kind-3 frame echoed as
//! kind 4), the upgrade's refusals, and the replication slot's life: it exists only while someone subscribes, the
//! position it confirms passes a change only once that change was delivered, and it goes away after the last
//! subscriber leaves (losses across a dropped connection: tests/js/realtime/slot.test.mjs).

use crate::helpers::{spawn_app_with, TestApp};
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn app() -> TestApp {
    spawn_app_with(&[
        ("CHANNEL_ERROR_BACKOFF_MS", "50"),
        ("CONNECT_ERROR_BACKOFF_MS", "10"),
        ("REALTIME_SLOT_IDLE_MS", "300"),
    ])
    .await
}

async fn connect(app: &TestApp, query: &str) -> Ws {
    let url = format!("{}/realtime/v1/websocket?apikey={}{query}", app.base_url.replace("http", "ws"), app.anon_key);
    tokio_tungstenite::connect_async(url).await.expect("upgrade").0
}

async fn next_text(ws: &mut Ws) -> Value {
    loop {
        let m =
            tokio::time::timeout(Duration::from_secs(10), ws.next()).await.expect("a frame in time").unwrap().unwrap();
        if let Message::Text(t) = m {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

#[tokio::test]
async fn vsn_1_objects_and_vsn_2_arrays_with_the_captured_binary_frames() {
    let app = app().await;
    let mut v1 = connect(&app, "").await;
    v1.send(Message::text(r#"{"event":"heartbeat","payload":{},"topic":"phoenix","ref":null,"join_ref":null}"#))
        .await
        .unwrap();
    assert_eq!(
        next_text(&mut v1).await,
        json!({"topic":"phoenix","event":"phx_reply","payload":{"status":"ok","response":{}},"ref":null})
    );
    let mut v2 = connect(&app, "&vsn=2.0.0").await;
    let join = json!(["9","9","realtime:room:1","phx_join",{"config":{"broadcast":{"self":true,"ack":true},"postgres_changes":[]}}]);
    v2.send(Message::text(join.to_string())).await.unwrap();
    assert_eq!(
        next_text(&mut v2).await,
        json!(["9","9","realtime:room:1","phx_reply",{"status":"ok","response":{"postgres_changes":[]}}])
    );
    // OBS: the kind-3 frame supabase-js sends for {"hello":"wörld"}
    let mut frame = vec![0x03, 0x01, 0x02, 0x0f, 0x03, 0x00, 0x01];
    frame.extend_from_slice(b"910realtime:room:1msg");
    frame.extend_from_slice("{\"hello\":\"wörld\"}".as_bytes());
    v2.send(Message::binary(frame)).await.unwrap();
    let mut got_ack = false;
    let mut got_kind4 = None;
    while !(got_ack && got_kind4.is_some()) {
        match tokio::time::timeout(Duration::from_secs(5), v2.next()).await.unwrap().unwrap().unwrap() {
            Message::Text(t) => {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                assert_eq!(v, json!(["9","10","realtime:room:1","phx_reply",{"status":"ok","response":{}}]));
                got_ack = true;
            }
            Message::Binary(b) => got_kind4 = Some(b.to_vec()),
            _ => {}
        }
    }
    let mut expected = vec![0x04, 0x0f, 0x03, 0x00, 0x01];
    expected.extend_from_slice(b"realtime:room:1msg");
    expected.extend_from_slice("{\"hello\":\"wörld\"}".as_bytes());
    assert_eq!(got_kind4.unwrap(), expected);
    // unknown topics and the leave
    v2.send(Message::text(r#"["1","20","realtime:other","broadcast",{}]"#)).await.unwrap();
    assert_eq!(next_text(&mut v2).await[4], json!({"status":"error","response":{"reason":"unmatched topic"}}));
    v2.send(Message::text(r#"["9","21","realtime:room:1","phx_leave",{}]"#)).await.unwrap();
    assert_eq!(next_text(&mut v2).await, json!(["9","21","realtime:room:1","phx_reply",{"status":"ok","response":{}}]));
    assert_eq!(next_text(&mut v2).await, json!(["9", "9", "realtime:room:1", "phx_close", {}]));
}

#[tokio::test]
async fn the_upgrade_refuses_like_realtime() {
    let app = app().await;
    let base = app.base_url.replace("http", "ws");
    let refused = |url: String| async move {
        match tokio_tungstenite::connect_async(url).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(r)) => (
                r.status().as_u16(),
                r.body().as_ref().map(|b| String::from_utf8_lossy(b).into_owned()).unwrap_or_default(),
            ),
            other => panic!("expected an HTTP refusal, got {:?}", other.map(|_| ())),
        }
    };
    let (status, body) = refused(format!("{base}/realtime/v1/websocket")).await;
    assert_eq!((status, body.as_str()), (401, r#"{"error":"API key is missing"}"#));
    let (status, body) = refused(format!("{base}/realtime/v1/websocket?apikey=nope")).await;
    assert_eq!((status, body.as_str()), (401, r#"{"error":"The token provided is not a valid JWT"}"#));
    let (status, _) = refused(format!("{base}/realtime/v1/websocket?apikey={}&vsn=3.0.0", app.anon_key)).await;
    assert_eq!(status, 403);
    // an sb_ key is checked like every other key: none is configured here
    let (status, body) = refused(format!("{base}/realtime/v1/websocket?apikey=sb_publishable_x")).await;
    assert_eq!((status, body.as_str()), (401, r#"{"error":"Invalid authentication credentials"}"#));
}

async fn slot(admin: &tokio_postgres::Client, db: &str) -> Option<(bool, bool, u64)> {
    let row = admin
        .query_opt(
            "select temporary, active, (confirmed_flush_lsn - '0/0')::bigint from pg_replication_slots \
             where database = $1 and slot_name like 'supabase_realtime_%'",
            &[&db],
        )
        .await
        .unwrap()?;
    Some((row.get(0), row.get(1), row.get::<_, i64>(2) as u64))
}

async fn eventually<F: std::future::Future<Output = bool>>(mut f: impl FnMut() -> F, what: &str) {
    for _ in 0..200 {
        if f().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("timed out waiting for {what}");
}

#[tokio::test]
async fn the_slot_lives_while_subscribed_and_confirms_only_delivered_changes() {
    let app = app().await;
    let admin = app.admin_client().await;
    admin
        .batch_execute(
            "create table public.slot_t (id int primary key, v text); grant select on public.slot_t to anon; \
             alter publication supabase_realtime add table public.slot_t;",
        )
        .await
        .unwrap();
    assert_eq!(slot(&admin, &app.db_name).await, None, "no subscriber, no slot");
    let mut ws = connect(&app, "&vsn=2.0.0").await;
    let join = json!(["1","1","realtime:t","phx_join",{"config":{"postgres_changes":[{"event":"INSERT","schema":"public","table":"slot_t"}]}}]);
    ws.send(Message::text(join.to_string())).await.unwrap();
    let reply = next_text(&mut ws).await;
    let id = reply[4]["response"]["postgres_changes"][0]["id"].as_u64().unwrap();
    assert_eq!(next_text(&mut ws).await[4]["message"], "Subscribed to PostgreSQL");
    let (temporary, active, _) = slot(&admin, &app.db_name).await.expect("a slot while subscribed");
    assert!(!temporary && active, "a permanent slot (a lost connection resumes from it), held by the gateway");
    admin.batch_execute("insert into public.slot_t values (1, 'x')").await.unwrap();
    let after: i64 = admin.query_one("select (pg_current_wal_lsn() - '0/0')::bigint", &[]).await.unwrap().get(0);
    let event = next_text(&mut ws).await;
    assert_eq!(event[3], "postgres_changes");
    assert_eq!(event[4]["ids"], json!([id]));
    assert_eq!(event[4]["data"]["record"], json!({"id": 1, "v": "x"}));
    eventually(
        || async { slot(&admin, &app.db_name).await.is_some_and(|s| s.2 >= after as u64) },
        "the delivered change confirmed",
    )
    .await;
    ws.send(Message::text(r#"["1","2","realtime:t","phx_leave",{}]"#)).await.unwrap();
    eventually(
        || async { slot(&admin, &app.db_name).await.is_none() },
        "the slot dropped after the last subscriber left",
    )
    .await;
}
