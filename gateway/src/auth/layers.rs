//! The layers every auth route shares: GoTrue's body limit, the error format of the API version the client asks
//! for, and CORS.

use super::error::{AuthError, ErrorCode, RenderedError};
use axum::extract::Request;
use axum::http::{HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use tower_http::cors::{AllowOrigin, CorsLayer};

/// GoTrue's request body limit.
pub(super) const MAX_BODY_BYTES: usize = 1024 * 1024;

/// Refuses a declared body over the limit with GoTrue's 413 (chunked bodies stop at the same limit while read).
pub(super) async fn limit_body(req: Request, next: Next) -> Response {
    let Ok(req) = crate::core::body::admit(req, MAX_BODY_BYTES).await else {
        return AuthError::detail(
            ErrorCode::RequestEntityTooLarge,
            format!("Request body too large (max {MAX_BODY_BYTES} bytes)"),
        )
        .into_response();
    };
    next.run(req).await
}

/// The one place auth failures are logged: the error each response was rendered from (axum's error-handling
/// example); errors log nothing when built.
pub(super) async fn log_failures(req: Request, next: Next) -> Response {
    let res = next.run(req).await;
    if let Some(RenderedError(err)) = res.extensions().get::<RenderedError>() {
        err.log();
    }
    res
}

/// Renders errors in the 2024-01-01 format and echoes the version when the client sent
/// `X-Supabase-Api-Version` (auth-js always does).
pub(super) async fn api_version(req: Request, next: Next) -> Response {
    let versioned = req.headers().get("x-supabase-api-version").is_some();
    let mut res = next.run(req).await;
    if !versioned {
        return res;
    }
    if let Some(RenderedError(err)) = res.extensions().get::<RenderedError>().cloned() {
        let headers = res.headers().clone();
        res = (err.status, Json(err.versioned_body())).into_response();
        for (name, value) in headers.iter() {
            if name != axum::http::header::CONTENT_TYPE && name != axum::http::header::CONTENT_LENGTH {
                res.headers_mut().insert(name.clone(), value.clone());
            }
        }
    }
    res.headers_mut().insert("x-supabase-api-version", HeaderValue::from_static("2024-01-01"));
    res
}

/// GoTrue's CORS (plus `apikey`, as Kong allows it): any origin, credentials, and the exposed headers auth-js reads.
pub(super) fn cors() -> CorsLayer {
    use axum::http::HeaderName;
    let h = |s: &'static str| HeaderName::from_static(s);
    CorsLayer::new()
        .allow_origin(AllowOrigin::mirror_request())
        .allow_credentials(true)
        .allow_methods([Method::GET, Method::POST, Method::PUT, Method::PATCH, Method::DELETE])
        .allow_headers([
            h("accept"),
            h("authorization"),
            h("content-type"),
            h("apikey"),
            h("x-client-ip"),
            h("x-client-info"),
            h("x-jwt-aud"),
            h("x-use-cookie"),
            h("x-supabase-api-version"),
            h("x-retry-count"),
        ])
        .expose_headers([h("x-total-count"), h("link"), h("x-supabase-api-version"), h("x-sb-error-code")])
}
