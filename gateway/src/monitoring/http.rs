//! A tower layer that counts every answer by API and status and records its latency (to the response head).

use axum::http::Request;
use axum::response::Response;
use futures::future::BoxFuture;
use std::task::{Context, Poll};
use std::time::Instant;

pub const REQUESTS: &str = "gateway_http_requests_total";
pub const DURATION: &str = "gateway_http_request_duration_seconds";

/// Which API a path belongs to (a small fixed set, so label values stay bounded).
pub fn api_of(path: &str) -> &'static str {
    let first = path.trim_start_matches('/').split('/').next().unwrap_or("");
    match first {
        "rest" => "rest",
        "auth" => "auth",
        "storage" => "storage",
        "realtime" => "realtime",
        "health" | "ready" => "probe",
        _ => "site",
    }
}

#[derive(Clone, Copy)]
pub struct MeasureLayer;

impl<S> tower::Layer<S> for MeasureLayer {
    type Service = Measure<S>;

    fn layer(&self, inner: S) -> Measure<S> {
        Measure(inner)
    }
}

#[derive(Clone)]
pub struct Measure<S>(S);

impl<S, B> tower::Service<Request<B>> for Measure<S>
where
    S: tower::Service<Request<B>, Response = Response>,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = S::Error;
    type Future = BoxFuture<'static, Result<Response, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let api = api_of(request.uri().path());
        let started = Instant::now();
        let answer = self.0.call(request);
        Box::pin(async move {
            let response = answer.await?;
            let status = response.status().as_u16().to_string();
            metrics::counter!(REQUESTS, "api" => api, "status" => status).increment(1);
            metrics::histogram!(DURATION, "api" => api).record(started.elapsed().as_secs_f64());
            Ok(response)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::api_of;

    #[test]
    fn paths_map_to_a_bounded_set_of_apis() {
        assert_eq!(api_of("/rest/v1/jobs"), "rest");
        assert_eq!(api_of("/auth/v1/token"), "auth");
        assert_eq!(api_of("/storage/v1/object/x"), "storage");
        assert_eq!(api_of("/ready"), "probe");
        assert_eq!(api_of("/jobs/some-role"), "site");
        assert_eq!(api_of("/"), "site");
    }
}
