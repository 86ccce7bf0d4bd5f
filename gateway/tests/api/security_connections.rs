//! S10: hostile connections are closed within bounded time per phase and capped per peer, while other clients are
//! served: 400 idle connections, 50 slowloris clients sending headers a byte at a time, request bodies trickled or
//! stalled. Loopback only; every case bounded in time.

use crate::helpers::{spawn_app_with, TestApp};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// A connection from `from` (a loopback address) to the app.
async fn connect_from(app: &TestApp, from: &str) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(app.base_url.trim_start_matches("http://").parse().unwrap()).await.unwrap()
}

/// Waits until the server closes `stream` (EOF or reset), reading and discarding what it sends; `None` past `limit`.
async fn closed_within(mut stream: TcpStream, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    let mut buf = [0u8; 1024];
    tokio::time::timeout(limit, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return started.elapsed(),
                Ok(_) => {}
            }
        }
    })
    .await
    .ok()
}

/// A normal request from another client, answered while the attack goes on.
async fn still_serves(app: &TestApp) {
    let http = crate::security_support::client_from("127.0.0.99");
    let res = tokio::time::timeout(Duration::from_secs(5), http.get(app.url("/auth/v1/health")).send()).await;
    assert_eq!(res.expect("answered in time").unwrap().status(), 200);
}

#[tokio::test]
async fn s10_idle_connections_are_capped_per_peer_and_closed_after_the_header_time_out() {
    let app =
        spawn_app_with(&[("GATEWAY_HEADER_READ_TIMEOUT_SECS", "2"), ("GATEWAY_MAX_CONNECTIONS_PER_PEER", "100")]).await;
    let mut idle = Vec::with_capacity(400);
    for _ in 0..400 {
        idle.push(connect_from(&app, "127.0.0.1").await);
    }
    still_serves(&app).await;
    let waits = futures::future::join_all(idle.into_iter().map(|s| closed_within(s, Duration::from_secs(8)))).await;
    let closed: Vec<Duration> = waits.iter().flatten().copied().collect();
    assert_eq!(closed.len(), 400, "every idle connection is closed within 8 s");
    let at_once = closed.iter().filter(|d| **d < Duration::from_millis(1500)).count();
    assert!(at_once >= 300, "the 300 over the per-peer cap are closed at once ({at_once})");
}

#[tokio::test]
async fn s10_slowloris_headers_are_closed_after_the_header_time_out() {
    let app = spawn_app_with(&[("GATEWAY_HEADER_READ_TIMEOUT_SECS", "2")]).await;
    let started = Instant::now();
    let clients = (0..50).map(|i| {
        let app = &app;
        async move {
            let mut s = connect_from(app, &format!("127.0.5.{}", i + 1)).await;
            let _ = s.write_all(b"GET /auth/v1/health HTTP/1.1\r\nHost: x\r\n").await;
            // one header byte every 500 ms: never complete, never idle
            for b in b"X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".iter() {
                tokio::time::sleep(Duration::from_millis(500)).await;
                if s.write_all(&[*b]).await.is_err() {
                    return started.elapsed();
                }
            }
            started.elapsed()
        }
    });
    let (ended, _) = tokio::join!(futures::future::join_all(clients), async {
        tokio::time::sleep(Duration::from_millis(700)).await;
        still_serves(&app).await;
    });
    for (i, t) in ended.iter().enumerate() {
        assert!(*t < Duration::from_secs(6), "slowloris client {i} held its connection for {t:?}");
    }
}

#[tokio::test]
async fn s10_request_bodies_that_stall_or_trickle_are_closed() {
    let app = spawn_app_with(&[("GATEWAY_BODY_IDLE_TIMEOUT_SECS", "1"), ("GATEWAY_BODY_READ_TIMEOUT_SECS", "3")]).await;
    let head = format!(
        "POST /rest/v1/enquiries HTTP/1.1\r\nHost: x\r\napikey: {0}\r\nAuthorization: Bearer {0}\r\n\
         Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{{\"name\":\"",
        app.anon_key
    );
    // Stalled: a few bytes, then nothing.
    let mut stalled = connect_from(&app, "127.0.0.61").await;
    stalled.write_all(head.as_bytes()).await.unwrap();
    let stall = closed_within(stalled, Duration::from_secs(6)).await;
    assert!(stall.is_some_and(|d| d < Duration::from_secs(4)), "a stalled body: {stall:?}");
    // Trickled: a byte every 400 ms, never idle for a second, but never done.
    let mut trickled = connect_from(&app, "127.0.0.62").await;
    trickled.write_all(head.as_bytes()).await.unwrap();
    let started = Instant::now();
    let mut open_for = None;
    for _ in 0..40 {
        tokio::time::sleep(Duration::from_millis(400)).await;
        if trickled.write_all(b"a").await.is_err() {
            open_for = Some(started.elapsed());
            break;
        }
    }
    let open_for = match open_for {
        Some(d) => d,
        None => {
            closed_within(trickled, Duration::from_secs(2)).await.map(|d| d + started.elapsed()).unwrap_or_default()
        }
    };
    assert!(open_for > Duration::ZERO && open_for < Duration::from_secs(7), "a trickled body: {open_for:?}");
    still_serves(&app).await;
}

#[tokio::test]
async fn s10_one_peer_cannot_hold_every_connection() {
    let app =
        spawn_app_with(&[("GATEWAY_MAX_CONNECTIONS_PER_PEER", "5"), ("GATEWAY_HEADER_READ_TIMEOUT_SECS", "30")]).await;
    let mut held = vec![];
    for _ in 0..5 {
        held.push(connect_from(&app, "127.0.0.71").await);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let sixth = connect_from(&app, "127.0.0.71").await;
    assert!(closed_within(sixth, Duration::from_secs(2)).await.is_some(), "the sixth connection is closed at once");
    still_serves(&app).await;
    drop(held);
}
