//! The app as one connection's hyper service: each request gets the body's time limits and the peer's address, then
//! goes to the connection's own copy of the app. hyper-util's adapter cloned the whole layered app (CORS's settings,
//! every layer's fields) and drove it through a `oneshot` on every request; an HTTP/1 connection answers one request
//! at a time, so one copy per connection, borrowed for the length of `call`, is enough.

use super::{body, App};
use crate::core::client_addr::PeerText;
use axum::extract::{ConnectInfo, Request};
use axum::response::Response;
use futures::future::Either;
use std::cell::RefCell;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::task::{Context, Poll, Waker};
use std::time::Duration;
use tower::util::Oneshot;
use tower::ServiceExt;

pub struct ConnService<S> {
    app: RefCell<S>,
    peer: SocketAddr,
    peer_text: PeerText,
    idle: Duration,
    total: Duration,
}

impl<S: App> ConnService<S> {
    pub fn new(app: S, peer: SocketAddr, idle: Duration, total: Duration) -> Self {
        ConnService { app: RefCell::new(app), peer, peer_text: PeerText::of(peer.ip()), idle, total }
    }
}

impl<S: App> hyper::service::Service<http::Request<hyper::body::Incoming>> for ConnService<S> {
    type Response = Response;
    type Error = Infallible;
    type Future = Either<S::Future, Oneshot<S, Request>>;

    fn call(&self, req: http::Request<hyper::body::Incoming>) -> Self::Future {
        let mut req = req.map(|b| body::timed(b, self.idle, self.total));
        let extensions = req.extensions_mut();
        extensions.insert(ConnectInfo(self.peer));
        extensions.insert(self.peer_text.clone());
        // the app is always ready (no layer applies back-pressure); were it not, a copy waits for readiness
        let mut app = self.app.borrow_mut();
        match app.poll_ready(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(Ok(())) => Either::Left(app.call(req)),
            Poll::Ready(Err(never)) => match never {},
            Poll::Pending => Either::Right(app.clone().oneshot(req)),
        }
    }
}
