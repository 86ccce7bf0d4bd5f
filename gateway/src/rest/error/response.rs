//! An error as the answer: PostgREST's status and JSON body, `Proxy-Status`, a raised error's own headers,
//! `Retry-After` on a pool timeout and `WWW-Authenticate` on a refused token.

use super::Error;
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        if let Error::Internal(cause) = &self {
            tracing::error!(%cause, "rest: internal error");
        }
        let status = self.status();
        let code = self.parts().code;
        if status == StatusCode::TOO_MANY_REQUESTS {
            // a limit doing its job (e.g. the site's per-client limits, PT429): worth a warning, never an error
            tracing::warn!(%code, "rest: rate limit reached");
        }
        let body = self.body().to_string();
        let mut res = (status, body).into_response();
        let h = res.headers_mut();
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json; charset=utf-8"));
        if let Ok(v) = HeaderValue::from_str(&format!("PostgREST; error={code}")) {
            h.insert("proxy-status", v);
        }
        self.add_headers(h);
        if status == StatusCode::UNAUTHORIZED && !h.contains_key(header::WWW_AUTHENTICATE) {
            h.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        res
    }
}

impl Error {
    /// A raised error's own headers, `Retry-After` on a pool timeout, the challenge of a refused token.
    fn add_headers(&self, h: &mut HeaderMap) {
        match self {
            Error::Custom { headers, .. } => {
                for (k, v) in headers {
                    if let (Ok(k), Ok(v)) = (HeaderName::from_bytes(k.as_bytes()), HeaderValue::from_str(v)) {
                        h.insert(k, v);
                    }
                }
            }
            Error::PoolTimeout => {
                h.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            }
            Error::Jwt(j) if j.invalid_token => {
                let description = serde_json::to_string(&j.message).unwrap_or_default();
                let challenge = format!("Bearer error=\"invalid_token\", error_description={description}");
                if let Ok(v) = HeaderValue::from_str(&challenge) {
                    h.insert(header::WWW_AUTHENTICATE, v);
                }
            }
            _ => {}
        }
    }
}
