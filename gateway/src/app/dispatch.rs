//! The first split of a request: the data API's paths go straight to its own service (`rest::service`), everything
//! else to axum's router of the other APIs. The data API is the hot path; this keeps it out of the router's boxed
//! routes and nested prefixes.

use axum::extract::Request;
use axum::response::Response;
use futures::future::Either;
use std::convert::Infallible;
use std::task::{ready, Context, Poll};
use tower::Service;

#[derive(Clone)]
pub struct Dispatch {
    pub rest: crate::rest::service::Service,
    pub apis: axum::Router,
}

impl Service<Request> for Dispatch {
    type Response = Response;
    type Error = Infallible;
    type Future =
        Either<<crate::rest::service::Service as Service<Request>>::Future, <axum::Router as Service<Request>>::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        ready!(self.rest.poll_ready(cx))?;
        Service::<Request>::poll_ready(&mut self.apis, cx)
    }

    fn call(&mut self, req: Request) -> Self::Future {
        if crate::rest::service::owns(req.uri().path()) {
            Either::Left(self.rest.call(req))
        } else {
            Either::Right(self.apis.call(req))
        }
    }
}
