//! A request body with time limits: it fails when no data arrives for `idle` while a handler waits for it, or when it
//! is not complete `total` after a handler first asked for it — so a client trickling a body byte by byte cannot
//! hold a connection (and a handler) for ever. Time a handler spends between reads does not count as idle.

use axum::body::Body;
use bytes::Bytes;
use http_body::{Body as HttpBody, Frame, SizeHint};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::{Instant, Sleep};

/// The error a timed-out body yields.
#[derive(Debug)]
pub struct BodyTimedOut;

impl std::fmt::Display for BodyTimedOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request body was not received in time")
    }
}

impl std::error::Error for BodyTimedOut {}

/// `incoming` as an axum body with the limits; a body known to be empty is passed through untouched.
pub fn timed(incoming: hyper::body::Incoming, idle: Duration, total: Duration) -> Body {
    if incoming.is_end_stream() {
        return Body::new(incoming);
    }
    Body::new(TimedBody { inner: incoming, idle, total, deadline: None, idle_timer: None })
}

struct TimedBody {
    inner: hyper::body::Incoming,
    idle: Duration,
    total: Duration,
    deadline: Option<Instant>,
    idle_timer: Option<Pin<Box<Sleep>>>,
}

impl HttpBody for TimedBody {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = &mut *self;
        let now = Instant::now();
        let deadline = *this.deadline.get_or_insert(now + this.total);
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            this.idle_timer = None;
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        let wake_at = deadline.min(now + this.idle);
        let timer = this.idle_timer.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(wake_at)));
        if timer.as_mut().poll(cx).is_ready() {
            this.idle_timer = None;
            return Poll::Ready(Some(Err(Box::new(BodyTimedOut))));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
