//! `GET /realtime/v1/websocket`: the upgrade (protocol version, connect token from `x-api-key` or `apikey`, the
//! socket cap — each refusal as Realtime answers it) and the socket's task, which reads client frames, writes its
//! queue, and closes idle sockets, slow sockets and channels whose token expired.

use super::credentials::{self, TokenError};
use super::outbound::{Frame, SocketTx};
use super::protocol::{decode_text, decode_user_push, Vsn};
use super::session::Session;
use super::RealtimeState;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures::{SinkExt, StreamExt};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// Refusals before the upgrade: JSON `{"error": …}` after Realtime's connect back-off.
async fn refuse(rt: &RealtimeState, status: StatusCode, message: &str) -> Response {
    tokio::time::sleep(rt.config.connect_error_backoff).await;
    (status, axum::Json(serde_json::json!({ "error": message }))).into_response()
}

pub async fn upgrade(
    State(rt): State<Arc<RealtimeState>>,
    Query(params): Query<HashMap<String, String>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let Some(vsn) = Vsn::parse(params.get("vsn").map(String::as_str)) else {
        return StatusCode::FORBIDDEN.into_response();
    };
    let token = headers
        .get("x-api-key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .or_else(|| params.get("apikey").cloned());
    let Some(token) = token.filter(|t| !t.is_empty()) else {
        return refuse(&rt, StatusCode::UNAUTHORIZED, &TokenError::Missing.message()).await;
    };
    if let Err(e) = rt.require_api_key(Some(&token)) {
        return refuse(&rt, StatusCode::UNAUTHORIZED, &e.message()).await;
    }
    let caller = match rt.verify(&token) {
        Ok(c) => c,
        Err(e) => return refuse(&rt, StatusCode::UNAUTHORIZED, &e.message()).await,
    };
    let Some(guard) = rt.admit_socket() else {
        return refuse(&rt, StatusCode::TOO_MANY_REQUESTS, "Too many connected users").await;
    };
    let headers_json = super::admission::x_headers_json(&headers);
    ws.read_buffer_size(4096).write_buffer_size(0).max_message_size(5_000_000).max_frame_size(5_000_000).on_upgrade(
        move |socket| async move {
            let _guard = guard;
            run(rt, socket, vsn, caller, headers_json).await
        },
    )
}

async fn run(
    rt: Arc<RealtimeState>,
    socket: WebSocket,
    vsn: Vsn,
    caller: credentials::Credentials,
    headers_json: String,
) {
    let (out, mut queue) = SocketTx::new(rt.next_id(), rt.config.socket_queue);
    let (events_tx, mut events) = tokio::sync::mpsc::unbounded_channel();
    let mut session = Session::new(rt.clone(), vsn, caller, headers_json, out, events_tx);
    let (mut sink, mut stream) = socket.split();
    let idle = tokio::time::sleep(rt.config.idle_timeout);
    tokio::pin!(idle);
    let mut close: Option<(u16, &'static str)> = None;
    loop {
        let expiry = session.next_expiry().map(|exp| {
            let wait = (exp - chrono::Utc::now().timestamp()).max(0) as u64;
            tokio::time::Instant::now() + Duration::from_secs(wait)
        });
        tokio::select! {
            // while frames wait behind joins up to their budget, nothing more is read until a join is answered
            incoming = stream.next(), if !session.backlogged() => match incoming {
                Some(Ok(message)) => {
                    idle.as_mut().reset(tokio::time::Instant::now() + rt.config.idle_timeout);
                    if !on_frame(&mut session, vsn, message) { break }
                }
                _ => break,
            },
            frame = queue.recv() => {
                let Some(frame) = frame else { break };
                if let Some(c) = write(&mut sink, frame, &mut queue).await { close = Some(c); break }
                if queue.overflowed() { close = Some((1013, "too slow")); break }
            },
            Some(event) = events.recv() => session.on_event(*event),
            _ = sleep_until(expiry) => session.expire_tokens(),
            _ = &mut idle => { close = Some((1000, "idle")); break }
        }
        if let Some(c) = session.closing.take() {
            // flush what was queued (the refusal reply) first
            while let Some(frame) = queue.try_recv() {
                let _ = sink.feed(to_message(frame)).await;
            }
            close = Some(c);
            break;
        }
    }
    session.close_all();
    if let Some((code, reason)) = close {
        let _ = sink.send(Message::Close(Some(CloseFrame { code, reason: reason.into() }))).await;
    }
}

async fn sleep_until(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

/// Handles one client frame; false when the socket should close.
fn on_frame(session: &mut Session, vsn: Vsn, message: Message) -> bool {
    let decoded = match message {
        Message::Text(text) => decode_text(vsn, text.as_str()).map_err(|e| e.to_string()),
        Message::Binary(bytes) if vsn == Vsn::V2 => decode_user_push(&bytes).map_err(|e| e.to_string()),
        Message::Binary(_) => Err("binary frames need vsn 2.0.0".into()),
        Message::Close(_) => return false,
        Message::Ping(_) | Message::Pong(_) => return true,
    };
    match decoded {
        Ok(m) => session.on_message(m),
        Err(e) => tracing::debug!(error = %e, "realtime: invalid message dropped"),
    }
    true
}

fn to_message(frame: Frame) -> Message {
    match frame {
        Frame::Text(t) => Message::Text(t),
        Frame::Binary(b) => Message::Binary(b),
        Frame::Close(code, reason) => Message::Close(Some(CloseFrame { code, reason: reason.into() })),
    }
}

/// Writes a frame and whatever else is queued, then flushes once. Returns a close order if one was queued.
async fn write<S>(sink: &mut S, first: Frame, queue: &mut super::outbound::SocketRx) -> Option<(u16, &'static str)>
where
    S: futures::Sink<Message> + Unpin,
{
    let mut next = Some(first);
    let mut written = 0;
    while let Some(frame) = next.take() {
        if let Frame::Close(code, reason) = frame {
            let _ = sink.flush().await;
            return Some((code, reason));
        }
        if sink.feed(to_message(frame)).await.is_err() {
            return Some((1011, "write failed"));
        }
        written += 1;
        if written < 256 {
            next = queue.try_recv();
        }
    }
    if sink.flush().await.is_err() {
        return Some((1011, "write failed"));
    }
    None
}
