//! Strict response headers for every answer.

use axum::http::{header, HeaderValue};
use tower_http::set_header::SetResponseHeaderLayer;

/// `X-Content-Type-Options: nosniff` on everything; page-specific headers are set by the site handler.
pub fn security_headers() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"))
}
