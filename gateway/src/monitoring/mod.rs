//! Prometheus metrics (the `metrics` facade with `metrics-exporter-prometheus`'s recorder) on their own listener,
//! `GATEWAY_METRICS_ADDR` (off when unset; a loopback address unless `GATEWAY_METRICS_ALLOW_REMOTE=true`):
//! requests by API and status with latency histograms (`http`), pool use and the outbox backlog (`gauges`); and
//! the request id of every answer and log line (`request_id`).

mod gauges;
mod http;
pub mod request_id;

use crate::core::config::Vars;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
pub use request_id::RequestIdLayer;
use std::net::SocketAddr;

/// Latency buckets in seconds, from a cached read to a slow upload.
const LATENCY_BUCKETS: &[f64] = &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// Where metrics are served, if anywhere; a malformed or (unless allowed) non-loopback address is an error.
pub fn address(vars: &Vars) -> anyhow::Result<Option<SocketAddr>> {
    let Some(text) = vars.first(&["GATEWAY_METRICS_ADDR"]) else { return Ok(None) };
    let addr: SocketAddr =
        text.trim().parse().map_err(|_| anyhow::anyhow!("GATEWAY_METRICS_ADDR must be host:port, got {text:?}"))?;
    if !addr.ip().is_loopback() && !vars.bool(&["GATEWAY_METRICS_ALLOW_REMOTE"], false) {
        anyhow::bail!("GATEWAY_METRICS_ADDR {addr} is not a loopback address; set GATEWAY_METRICS_ALLOW_REMOTE=true to serve metrics beyond this host");
    }
    Ok(Some(addr))
}

/// What the gauges sample: the shared pool and the outbox (core), the data API's pools, Realtime's sockets.
pub struct Sampled {
    pub core: crate::core::Core,
    pub rest: crate::rest::Rest,
    pub realtime: crate::realtime::Realtime,
}

/// How often histograms are drained into their summaries (the exporter's own listener did this every 5 s).
const UPKEEP: std::time::Duration = std::time::Duration::from_secs(5);

/// Installs the global recorder and serves it on `addr` (inside a Tokio runtime), then starts the gauge sampler.
/// The listener is the gateway's own axum (HTTP/1): every path answers the text exposition, as the exporter's
/// listener did, without that listener's HTTP/2 stack in the build.
pub fn start(sampled: Sampled, addr: SocketAddr) -> anyhow::Result<()> {
    let listener = std::net::TcpListener::bind(addr)
        .and_then(|l| l.set_nonblocking(true).map(|()| l))
        .and_then(tokio::net::TcpListener::from_std)
        .map_err(|e| anyhow::anyhow!("cannot serve metrics on {addr}: {e}"))?;
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Full(http::DURATION.to_string()), LATENCY_BUCKETS)?
        .install_recorder()
        .map_err(|e| anyhow::anyhow!("cannot record metrics: {e}"))?;
    tokio::spawn(upkeep(handle.clone()));
    tokio::spawn(serve(listener, handle));
    gauges::spawn(sampled);
    tracing::info!(%addr, "metrics served");
    Ok(())
}

async fn upkeep(handle: PrometheusHandle) {
    loop {
        tokio::time::sleep(UPKEEP).await;
        handle.run_upkeep();
    }
}

async fn serve(listener: tokio::net::TcpListener, handle: PrometheusHandle) {
    let render = move || {
        let text = handle.render();
        async move { ([(axum::http::header::CONTENT_TYPE, "text/plain")], text) }
    };
    if let Err(e) = axum::serve(listener, axum::Router::new().fallback(render)).await {
        tracing::error!(error = %e, "the metrics listener stopped");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::testing::vars;

    #[test]
    fn metrics_stay_on_loopback_unless_allowed() {
        assert_eq!(address(&vars(&[])).unwrap(), None);
        assert!(address(&vars(&[("GATEWAY_METRICS_ADDR", "127.0.0.1:9464")])).unwrap().is_some());
        assert!(address(&vars(&[("GATEWAY_METRICS_ADDR", "0.0.0.0:9464")])).is_err());
        assert!(address(&vars(&[("GATEWAY_METRICS_ADDR", "nonsense")])).is_err());
        let remote = vars(&[("GATEWAY_METRICS_ADDR", "0.0.0.0:9464"), ("GATEWAY_METRICS_ALLOW_REMOTE", "true")]);
        assert!(address(&remote).unwrap().is_some());
    }
}
