//! `OPTIONS` answers carry `Allow` and CORS's `Vary`, also the ones the CORS layer gives itself (it answers every
//! OPTIONS, preflight or not). A plain tower layer rather than `middleware::from_fn`, which clones the whole inner
//! stack on every request (a cost that showed in profiles of the hot GET).

use axum::extract::Request;
use axum::http::{header, HeaderValue, Method};
use axum::response::Response;
use futures::future::{Either, Map};
use futures::FutureExt;
use std::task::{Context, Poll};
use tower::{Layer, Service};

/// The methods the data API answers.
pub const ALLOWED: &str = "OPTIONS,GET,HEAD,POST,PUT,PATCH,DELETE";

/// CORS's `Vary` on every data API answer: the request headers a preflight's answer depends on (tower-http's
/// default list, as one constant instead of a value joined per answer).
pub const VARY: HeaderValue =
    HeaderValue::from_static("origin, access-control-request-method, access-control-request-headers");

/// Adds CORS's `Vary` after any the answer already names (the CORS layer appended its own the same way).
pub fn add_vary(res: &mut Response) {
    res.headers_mut().append(header::VARY, VARY);
}

#[derive(Clone, Copy, Default)]
pub struct AllowOnOptionsLayer;

impl<S> Layer<S> for AllowOnOptionsLayer {
    type Service = AllowOnOptions<S>;

    fn layer(&self, inner: S) -> Self::Service {
        AllowOnOptions(inner)
    }
}

#[derive(Clone)]
pub struct AllowOnOptions<S>(S);

type WithAllow<F, E> = Map<F, fn(Result<Response, E>) -> Result<Response, E>>;

fn with_allow<E>(result: Result<Response, E>) -> Result<Response, E> {
    result.map(|mut res| {
        if !res.headers().contains_key(header::ALLOW) {
            res.headers_mut().insert(header::ALLOW, HeaderValue::from_static(ALLOWED));
        }
        add_vary(&mut res);
        res
    })
}

impl<S> Service<Request> for AllowOnOptions<S>
where
    S: Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Either<S::Future, WithAllow<S::Future, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, req: Request) -> Self::Future {
        if req.method() == Method::OPTIONS {
            Either::Right(self.0.call(req).map(with_allow as fn(_) -> _))
        } else {
            Either::Left(self.0.call(req))
        }
    }
}
