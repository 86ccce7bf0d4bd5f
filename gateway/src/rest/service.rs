//! The data API as one tower service under `/rest/v1`: the path is routed here by hand (the OpenAPI root, `rpc/{f}`,
//! `{relation}`, anything else PostgREST's invalid-path error), with CORS and `Allow` on OPTIONS wrapped once around
//! all of it and the handler's future boxed once. Through axum's router the same request went through six boxed
//! services (the route, its CORS and `Allow` layers, the nest's prefix layers, the app's fallback), each moving its
//! future into a new box.

use super::{
    allow_on_options::{add_vary, AllowOnOptions},
    handler, Rest,
};
use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use futures::future::BoxFuture;
use std::convert::Infallible;
use std::task::{Context, Poll};
use tower::Layer;

/// Where the data API is mounted.
pub const MOUNT: &str = "/rest/v1";

/// Whether `path` is the data API's (`/rest/v1` or below it).
pub fn owns(path: &str) -> bool {
    path.strip_prefix(MOUNT).is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// A path under the mount, as the handlers take it.
#[derive(Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// `/rest/v1` and `/rest/v1/`: the OpenAPI document.
    Root,
    /// `/rest/v1/{relation}`, percent-decoded.
    Relation(String),
    /// `/rest/v1/rpc/{function}`, percent-decoded.
    Routine(String),
    /// Any other path under the mount.
    Invalid,
    /// A path segment that is not UTF-8 once decoded (the parameter's name for the message).
    NotUtf8(&'static str),
}

/// The endpoint of `path` (one of [`owns`]' paths), as axum's routes `/`, `/{relation}`, `/rpc/{function}` and
/// the nested fallback matched it: a segment is non-empty and holds no `/`.
pub fn endpoint(path: &str) -> Endpoint {
    let tail = path.strip_prefix(MOUNT).unwrap_or(path);
    let segment = |s: &str, key: &'static str, make: fn(String) -> Endpoint| {
        if s.is_empty() || s.contains('/') {
            return Endpoint::Invalid;
        }
        match percent_encoding::percent_decode_str(s).decode_utf8() {
            Ok(name) => make(name.into_owned()),
            Err(_) => Endpoint::NotUtf8(key),
        }
    };
    match tail.strip_prefix('/') {
        None if tail.is_empty() => Endpoint::Root,
        Some("") => Endpoint::Root,
        None => Endpoint::Invalid,
        Some(below) => match below.strip_prefix("rpc/") {
            Some(function) => segment(function, "function", Endpoint::Routine),
            None => segment(below, "relation", Endpoint::Relation),
        },
    }
}

/// The service: [`Routes`] under CORS, under `Allow` on OPTIONS.
pub type Service = AllowOnOptions<tower_http::cors::Cors<Routes>>;

/// The data API's service over `rest`.
pub fn service(rest: Rest) -> Service {
    let cors = super::cors().layer(Routes { rest });
    super::allow_on_options::AllowOnOptionsLayer.layer(cors)
}

/// The routing and the handlers, without the layers.
#[derive(Clone)]
pub struct Routes {
    rest: Rest,
}

impl tower::Service<Request> for Routes {
    type Response = Response;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response, Infallible>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request) -> Self::Future {
        let rest = self.rest.clone();
        Box::pin(async move {
            let method = req.method().clone();
            let mut res = match endpoint(req.uri().path()) {
                Endpoint::Root => handler::root(rest, req).await,
                Endpoint::Relation(name) => handler::relation(rest, name, req).await,
                Endpoint::Routine(name) => handler::routine(rest, name, req).await,
                Endpoint::Invalid => handler::invalid_path(),
                Endpoint::NotUtf8(key) => not_utf8(key),
            };
            finish(&method, &mut res);
            Ok(res)
        })
    }
}

/// What axum's `Path` extractor answers for a segment that is not UTF-8.
fn not_utf8(key: &str) -> Response {
    (StatusCode::BAD_REQUEST, format!("Invalid URL: Invalid UTF-8 in `{key}`")).into_response()
}

/// What axum's router does to every answer of a route: `Content-Length` from a body of known size, and no body for
/// HEAD (after the length is set); and CORS's `Vary` (the CORS layer answers OPTIONS itself, so every answer that
/// reaches the routes is a non-preflight one).
fn finish(method: &Method, res: &mut Response) {
    use http_body::Body as _;
    add_vary(res);
    if !res.headers().contains_key(header::CONTENT_LENGTH) {
        if let Some(size) = res.body().size_hint().exact() {
            let value = HeaderValue::from(size);
            res.headers_mut().insert(header::CONTENT_LENGTH, value);
        }
    }
    if method == Method::HEAD {
        *res.body_mut() = Body::empty();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body::Body as _;

    #[test]
    fn owns_the_mount_and_below_only() {
        assert!(owns("/rest/v1"));
        assert!(owns("/rest/v1/"));
        assert!(owns("/rest/v1/items"));
        assert!(!owns("/rest/v1items"));
        assert!(!owns("/rest/v2/items"));
        assert!(!owns("/"));
    }

    #[test]
    fn routes_as_the_router_did() {
        let relation = |s: &str| Endpoint::Relation(s.into());
        let routine = |s: &str| Endpoint::Routine(s.into());
        assert_eq!(endpoint("/rest/v1"), Endpoint::Root);
        assert_eq!(endpoint("/rest/v1/"), Endpoint::Root);
        assert_eq!(endpoint("/rest/v1/items"), relation("items"));
        assert_eq!(endpoint("/rest/v1/rpc"), relation("rpc"), "rpc alone is a relation's name");
        assert_eq!(endpoint("/rest/v1/rpc/add_them"), routine("add_them"));
        assert_eq!(endpoint("/rest/v1/my%20table"), relation("my table"));
        assert_eq!(endpoint("/rest/v1/a%2Fb"), relation("a/b"), "an encoded slash is part of the name");
        assert_eq!(endpoint("/rest/v1/rpc/f%C3%A9"), routine("fé"));
        for invalid in ["/rest/v1//", "/rest/v1/items/", "/rest/v1/items/x", "/rest/v1/rpc/", "/rest/v1/rpc/f/g"] {
            assert_eq!(endpoint(invalid), Endpoint::Invalid, "{invalid}");
        }
        assert_eq!(endpoint("/rest/v1/%FF"), Endpoint::NotUtf8("relation"));
        assert_eq!(endpoint("/rest/v1/rpc/%FF"), Endpoint::NotUtf8("function"));
    }

    #[test]
    fn a_head_answer_keeps_its_length_and_loses_its_body() {
        let mut res = Response::new(Body::from("[1,2]"));
        finish(&Method::HEAD, &mut res);
        assert_eq!(res.headers()[header::CONTENT_LENGTH], "5");
        assert_eq!(res.body().size_hint().exact(), Some(0));
        let mut res = Response::new(Body::from("[1,2]"));
        finish(&Method::GET, &mut res);
        assert_eq!(res.body().size_hint().exact(), Some(5));
    }

    /// The whole layered service answers `Vary` as tower-http's CORS layer did by default: once, on a preflight
    /// and on a routed answer alike, after any `Vary` of the answer itself.
    #[test]
    fn cors_vary_as_the_layer_gave_it() {
        let expected = "origin, access-control-request-method, access-control-request-headers";
        let mut res = Response::new(Body::empty());
        res.headers_mut().insert(header::VARY, HeaderValue::from_static("accept"));
        finish(&Method::GET, &mut res);
        let vary: Vec<_> = res.headers().get_all(header::VARY).iter().collect();
        assert_eq!(vary, ["accept", expected]);
        let layered = super::super::cors()
            .layer(tower::service_fn(|_req: Request| async { Ok::<_, Infallible>(Response::new(Body::empty())) }));
        let mut svc = super::super::allow_on_options::AllowOnOptionsLayer.layer(layered);
        let preflight = Request::builder()
            .method(Method::OPTIONS)
            .uri("/rest/v1/items")
            .header(header::ORIGIN, "https://example.org")
            .header(header::ACCESS_CONTROL_REQUEST_METHOD, "GET")
            .body(Body::empty())
            .unwrap();
        let res = futures::executor::block_on(tower::Service::call(&mut svc, preflight)).unwrap();
        let vary: Vec<_> = res.headers().get_all(header::VARY).iter().collect();
        assert_eq!(vary, [expected]);
        assert_eq!(res.headers()[header::ALLOW], super::super::allow_on_options::ALLOWED);
    }
}
