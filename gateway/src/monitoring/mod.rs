//! Prometheus metrics (the `metrics` facade with `metrics-exporter-prometheus`) on their own listener,
//! `GATEWAY_METRICS_ADDR` (off when unset; a loopback address unless `GATEWAY_METRICS_ALLOW_REMOTE=true`):
//! requests by API and status with latency histograms (`http`), pool use and the outbox backlog (`gauges`); and
//! the request id of every answer and log line (`request_id`).

mod gauges;
mod http;
pub mod request_id;

use crate::core::config::Vars;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder};
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

/// Installs the global recorder and its HTTP listener (inside a Tokio runtime), then starts the gauge sampler.
pub fn start(sampled: Sampled, addr: SocketAddr) -> anyhow::Result<()> {
    PrometheusBuilder::new()
        .with_http_listener(addr)
        .set_buckets_for_metric(Matcher::Full(http::DURATION.to_string()), LATENCY_BUCKETS)?
        .install()
        .map_err(|e| anyhow::anyhow!("cannot serve metrics on {addr}: {e}"))?;
    gauges::spawn(sampled);
    tracing::info!(%addr, "metrics served");
    Ok(())
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
