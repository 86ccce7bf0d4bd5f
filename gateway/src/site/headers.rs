//! Strict response headers for every answer, and HSTS when the site is served over https.

use axum::http::{header, HeaderValue};
use tower_http::set_header::SetResponseHeaderLayer;

/// `X-Content-Type-Options: nosniff` on everything; page-specific headers are set by the site handler.
pub fn security_headers() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"))
}

/// `Strict-Transport-Security` on every answer when the public URL (`API_EXTERNAL_URL`) is https: browsers then never
/// fall back to plain http for a year. None for an http URL (local development), where it would do harm.
pub fn hsts(external_url: &str) -> Option<SetResponseHeaderLayer<HeaderValue>> {
    external_url.to_ascii_lowercase().starts_with("https://").then(|| {
        SetResponseHeaderLayer::if_not_present(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000; includeSubDomains"),
        )
    })
}
