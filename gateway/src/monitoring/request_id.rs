//! A request id per request: the caller's `x-request-id` when it is a short token, else a new UUID. It is returned
//! as the `x-request-id` response header, and every log line written while answering (JSON with
//! `GATEWAY_LOG_FORMAT=json`) carries it in the `request` span, with a closing `answered` line at debug level.
//! The same layer feeds the request metrics when they are served.

use axum::http::{HeaderName, HeaderValue, Request};
use axum::response::Response;
use futures::future::BoxFuture;
use std::task::{Context, Poll};
use std::time::Instant;
use tracing::Instrument;

pub const HEADER: HeaderName = HeaderName::from_static("x-request-id");

/// The id to use: the caller's when it is 1–64 characters of `[A-Za-z0-9._-]`, else a fresh one (as the header's
/// value, so the caller's is shared rather than copied).
pub fn choose(incoming: Option<&HeaderValue>) -> HeaderValue {
    let valid = |v: &&HeaderValue| {
        let s = v.as_bytes();
        !s.is_empty() && s.len() <= 64 && s.iter().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(b))
    };
    match incoming.filter(valid) {
        Some(id) => id.clone(),
        // a v4 UUID from the thread's generator: `Uuid::new_v4` asks the kernel for its bytes (a syscall per request)
        None => {
            let mut text = [0u8; uuid::fmt::Simple::LENGTH];
            let uuid = uuid::Builder::from_random_bytes(rand::random()).into_uuid();
            HeaderValue::from_str(uuid.simple().encode_lower(&mut text)).unwrap_or(HeaderValue::from_static("-"))
        }
    }
}

/// The layer; `measured`: also count answers and record latencies (metrics served).
#[derive(Clone, Copy)]
pub struct RequestIdLayer {
    pub measured: bool,
}

impl<S> tower::Layer<S> for RequestIdLayer {
    type Service = RequestId<S>;

    fn layer(&self, inner: S) -> RequestId<S> {
        RequestId { inner, measured: self.measured }
    }
}

#[derive(Clone)]
pub struct RequestId<S> {
    inner: S,
    measured: bool,
}

impl<S, B> tower::Service<Request<B>> for RequestId<S>
where
    S: tower::Service<Request<B>, Response = Response>,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = S::Error;
    type Future = BoxFuture<'static, Result<Response, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let id = choose(request.headers().get(&HEADER));
        let (api, measured) = (super::http::api_of(request.uri().path()), self.measured);
        let span = tracing::info_span!("request", request_id = id.to_str().unwrap_or_default(),
            method = %request.method(), path = %request.uri().path());
        let started = Instant::now();
        let answer = self.inner.call(request).instrument(span.clone());
        Box::pin(async move {
            let mut response = answer.await?;
            let (elapsed, status) = (started.elapsed(), response.status().as_u16());
            if measured {
                super::http::record(api, status, elapsed);
            }
            span.in_scope(|| tracing::debug!(status, ms = elapsed.as_secs_f64() * 1000.0, "answered"));
            response.headers_mut().insert(HEADER, id);
            Ok(response)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_a_short_token_and_replaces_anything_else() {
        assert_eq!(choose(Some(&HeaderValue::from_static("abc-123_x.y"))), "abc-123_x.y");
        assert_eq!(choose(None).len(), 32);
        let fresh = uuid::Uuid::parse_str(choose(None).to_str().unwrap()).unwrap();
        assert_eq!(fresh.get_version(), Some(uuid::Version::Random));
        assert_ne!(choose(None), choose(None));
        assert_eq!(choose(Some(&HeaderValue::from_static("has space"))).len(), 32);
        assert_eq!(choose(Some(&HeaderValue::from_str(&"a".repeat(65)).unwrap())).len(), 32);
    }
}
