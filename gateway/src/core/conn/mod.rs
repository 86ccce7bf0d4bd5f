//! Serving HTTP/1 connections with a bounded time per phase and a cap on connections per peer (S10): a connection
//! that has not sent complete request headers within `GATEWAY_HEADER_READ_TIMEOUT_SECS` of the server waiting for
//! them (a fresh connection, or the next request on a kept-alive one — so idle connections close too) is closed; a
//! request body that stalls for `GATEWAY_BODY_IDLE_TIMEOUT_SECS` or is not complete within
//! `GATEWAY_BODY_READ_TIMEOUT_SECS` fails; one peer holds at most `GATEWAY_MAX_CONNECTIONS_PER_PEER` connections
//! (trusted proxies are exempt). Each HTTP worker runs this accept loop on its own runtime. On shutdown (which the
//! app starts after `GATEWAY_SHUTDOWN_DELAY_SECS`) the listener closes (new connections are refused), each
//! connection reads for a moment more (a request already sent is answered, not closed unread), requests in flight
//! finish, and connections still open after `GATEWAY_SHUTDOWN_TIMEOUT_SECS` are cut.

mod body;
mod peers;
mod service;

use axum::extract::Request;
use axum::response::Response;
pub use body::BodyTimedOut;
use hyper_util::rt::{TokioIo, TokioTimer};
use peers::PeerCounter;
use service::ConnService;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// What a connection serves: the app as one service (no router around it, so no boxed route of its own).
pub trait App:
    tower::Service<Request, Response = Response, Error = Infallible, Future: Send + 'static> + Clone + Send + 'static
{
}

impl<S> App for S where
    S: tower::Service<Request, Response = Response, Error = Infallible, Future: Send + 'static>
        + Clone
        + Send
        + 'static
{
}

/// The connection limits, shared by every worker.
#[derive(Clone)]
pub struct ConnLimits {
    pub header_read: Duration,
    pub body_idle: Duration,
    pub body_total: Duration,
    /// How long a stopping worker waits for its connections to finish before cutting them.
    pub drain: Duration,
    /// How long the gateway keeps accepting after a stop signal, with `/ready` answering 503, before its listeners
    /// close: the time a load balancer's health check needs to take it out of rotation.
    pub stop_delay: Duration,
    peers: Arc<PeerCounter>,
}

impl ConnLimits {
    pub fn from_vars(vars: &crate::core::config::Vars, proxies: crate::core::client_addr::TrustedProxies) -> Self {
        let secs = |name: &str, default: f64| vars.secs(&[name], default, 0.05);
        ConnLimits {
            header_read: secs("GATEWAY_HEADER_READ_TIMEOUT_SECS", 10.0),
            body_idle: secs("GATEWAY_BODY_IDLE_TIMEOUT_SECS", 15.0),
            body_total: secs("GATEWAY_BODY_READ_TIMEOUT_SECS", 300.0),
            drain: secs("GATEWAY_SHUTDOWN_TIMEOUT_SECS", 30.0),
            stop_delay: vars.secs(&["GATEWAY_SHUTDOWN_DELAY_SECS"], 0.0, 0.0),
            peers: Arc::new(PeerCounter::new(vars.num(&["GATEWAY_MAX_CONNECTIONS_PER_PEER"], 128usize), proxies)),
        }
    }
}

/// Accepts on `listener` until `stop` turns true, then closes it and lets open connections finish (idle ones close
/// after `LATE_REQUEST_GRACE`) for at most `limits.drain`; the caller's runtime then drops what is left.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: impl App,
    limits: ConnLimits,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> std::io::Result<()> {
    // every connection task holds a receiver; the sender's `closed()` waits for the last one
    let (all_closed, open) = tokio::sync::watch::channel(());
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // e.g. too many open files: wait instead of spinning
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = stopped(&mut stop) => break,
        };
        let Some(slot) = limits.peers.admit(peer.ip()) else {
            tracing::warn!(peer = %peer.ip(), "refused a connection: too many from this peer");
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let (app, limits, stop, open) = (app.clone(), limits.clone(), stop.clone(), open.clone());
        tokio::spawn(async move {
            serve_connection(stream, peer, app, &limits, stop).await;
            drop((slot, open));
        });
    }
    drop(listener);
    drop(open);
    if tokio::time::timeout(limits.drain, all_closed.closed()).await.is_err() {
        tracing::warn!(secs = limits.drain.as_secs_f64(), "shutdown: cutting connections still open after the bound");
    }
    Ok(())
}

async fn serve_connection(
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    app: impl App,
    limits: &ConnLimits,
    mut stop: tokio::sync::watch::Receiver<bool>,
) {
    let service = ConnService::new(app, peer, limits.body_idle, limits.body_total);
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(limits.header_read).keep_alive(true);
    let conn = builder.serve_connection(TokioIo::new(stream), service).with_upgrades();
    let mut conn = std::pin::pin!(conn);
    tokio::select! {
        result = conn.as_mut() => log_end(result),
        _ = stopped(&mut stop) => {
            // a request that reached the socket as the stop came (a connection accepted a moment before, its
            // request not parsed yet) would be closed unread: read for a moment first, then stop
            if let Ok(result) = tokio::time::timeout(LATE_REQUEST_GRACE, conn.as_mut()).await {
                return log_end(result);
            }
            conn.as_mut().graceful_shutdown();
            log_end(conn.await);
        }
    }
}

/// How long a connection still reads after the stop before it closes once idle: enough for a request already sent
/// (by a proxy that connected just before the listener closed) to be parsed and then answered in full.
const LATE_REQUEST_GRACE: Duration = Duration::from_millis(100);

/// Resolves once the stop flag is set (the flag's guard is not held across an await).
async fn stopped(stop: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await.map(|_| ());
}

fn log_end(result: Result<(), hyper::Error>) {
    if let Err(e) = result {
        if e.is_timeout() {
            tracing::debug!("closed a connection that sent no complete request in time");
        } else {
            tracing::trace!(error = %e, "connection ended with an error");
        }
    }
}
