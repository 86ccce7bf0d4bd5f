//! CORS for `/storage/v1`, as Supabase's gateway (Kong's `cors` plugin in front of Storage) answers it: any origin,
//! the request's headers mirrored, preflights answered without reaching a handler — so a supabase-js app served
//! from another origin can use Storage.

use axum::http::{HeaderName, Method};
use tower_http::cors::{AllowHeaders, AllowOrigin, CorsLayer};

pub fn layer() -> CorsLayer {
    let expose = ["content-length", "content-range", "content-type", "etag", "last-modified", "cache-control"];
    CorsLayer::new()
        // tokens travel in headers, never cookies: no credentials, any origin
        .allow_origin(AllowOrigin::any())
        .allow_methods([
            Method::GET,
            Method::HEAD,
            Method::PUT,
            Method::PATCH,
            Method::POST,
            Method::DELETE,
            Method::OPTIONS,
        ])
        .allow_headers(AllowHeaders::mirror_request())
        .expose_headers(expose.map(HeaderName::from_static))
        .max_age(std::time::Duration::from_secs(3600))
}
