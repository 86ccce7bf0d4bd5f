//! Storage's errors, rendered in Supabase Storage's JSON shape `{statusCode, code, error, message}`. As the real
//! server does, the HTTP status is 400 for every client error (the precise code is the body's `statusCode`),
//! 500 for server errors, and an explicit status only where Storage sets one (403 on role checks, 416 on ranges).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// Every way a storage request can fail. Messages are the ones Storage sends (supabase-js tests assert them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StorageError {
    NoSuchBucket,
    NoSuchKey,
    InvalidBucketName,
    InvalidKey(String),
    InvalidRequest(String),
    /// A request that fails its route's schema (Fastify's validation error), with ajv's message.
    Validation(String),
    /// `Invalid Parameter <name>` (e.g. `expiresIn` beyond the JWT range, a malformed list cursor).
    InvalidParameter(&'static str),
    FeatureNotEnabled(String),
    /// No route matches: Fastify's not-found answer, `Route GET:/path not found`.
    RouteNotFound(String),
    InvalidJwt(String),
    InvalidSignature(String),
    AccessDenied(String),
    AlreadyExists,
    BucketNotEmpty,
    EntityTooLarge,
    InvalidMimeType(String),
    InvalidRange,
    /// A rate limit in SQL refused the request (`PT429`, or `RAISE SQLSTATE 'PGRST'` with status 429).
    TooManyRequests {
        message: String,
        retry_after: Option<u64>,
    },
    /// An image that cannot be rendered (Storage's sanitised text: too large, too many pixels, not an image).
    RenderFailed(&'static str),
    DatabaseTimeout,
    /// The disk (or quota) of the storage folder is full: nothing was stored (507).
    InsufficientStorage,
    /// The database cannot be reached (connection lost or refused, server restarting): 503, try again.
    DatabaseUnavailable,
    Internal,
}

impl StorageError {
    /// `(statusCode, code, error, message)` as Storage renders them.
    fn parts(&self) -> (u16, &'static str, String, String) {
        use StorageError::*;
        match self {
            NoSuchBucket => (404, "NoSuchBucket", "Bucket not found".into(), "Bucket not found".into()),
            NoSuchKey => (404, "NoSuchKey", "not_found".into(), "Object not found".into()),
            InvalidBucketName => (400, "InvalidBucketName", "Invalid Input".into(), "Bucket name invalid".into()),
            InvalidKey(key) => (400, "InvalidKey", "InvalidKey".into(), format!("Invalid key: {key}")),
            InvalidRequest(m) => (400, "InvalidRequest", "InvalidRequest".into(), m.clone()),
            Validation(m) => (400, "InvalidRequest", "Bad Request".into(), m.clone()),
            InvalidParameter(p) => {
                (400, "InvalidParameter", "InvalidParameter".into(), format!("Invalid Parameter {p}"))
            }
            FeatureNotEnabled(m) => (400, "FeatureNotEnabled", "FeatureNotEnabled".into(), m.clone()),
            RouteNotFound(m) => (404, "InvalidRequest", "Not Found".into(), format!("Route {m} not found")),
            InvalidJwt(m) => (400, "InvalidJWT", "InvalidJWT".into(), m.clone()),
            InvalidSignature(m) => (400, "InvalidSignature", "InvalidSignature".into(), m.clone()),
            AccessDenied(m) => (403, "AccessDenied", "Unauthorized".into(), m.clone()),
            AlreadyExists => (409, "ResourceAlreadyExists", "Duplicate".into(), "The resource already exists".into()),
            BucketNotEmpty => (
                409,
                "ResourceNotEmpty",
                "ResourceNotEmpty".into(),
                "The bucket you tried to delete is not empty".into(),
            ),
            EntityTooLarge => (
                413,
                "EntityTooLarge",
                "Payload too large".into(),
                "The object exceeded the maximum allowed size".into(),
            ),
            InvalidMimeType(m) => {
                (415, "InvalidMimeType", "invalid_mime_type".into(), format!("mime type {m} is not supported"))
            }
            RenderFailed(m) => (400, "InvalidRequest", "InvalidRequest".into(), m.to_string()),
            InvalidRange => (416, "InvalidRange", "invalid_range".into(), "Invalid Range".into()),
            TooManyRequests { message, .. } => (429, "TooManyRequests", "too_many_requests".into(), message.clone()),
            DatabaseTimeout => (544, "DatabaseTimeout", "DatabaseTimeout".into(), "The database timed out".into()),
            InsufficientStorage => (
                507,
                "InsufficientStorage",
                "InsufficientStorage".into(),
                "The storage is full: the object was not stored".into(),
            ),
            DatabaseUnavailable => (
                503,
                "DatabaseUnavailable",
                "DatabaseUnavailable".into(),
                "The database is unavailable, try again shortly".into(),
            ),
            Internal => (500, "InternalError", "Internal".into(), "Internal Server Error".into()),
        }
    }

    /// The HTTP status: Storage answers 400 for client errors and 500 for server errors, except these.
    pub fn http_status(&self) -> StatusCode {
        match self {
            StorageError::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            StorageError::InvalidRange => StatusCode::RANGE_NOT_SATISFIABLE,
            StorageError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            StorageError::RouteNotFound(_) => StatusCode::NOT_FOUND,
            StorageError::InsufficientStorage => StatusCode::INSUFFICIENT_STORAGE,
            StorageError::DatabaseUnavailable => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::BAD_REQUEST,
        }
    }

    /// The body's `statusCode`.
    pub fn status_code(&self) -> u16 {
        self.parts().0
    }

    pub fn body(&self) -> serde_json::Value {
        let (status, code, error, message) = self.parts();
        json!({ "statusCode": status.to_string(), "code": code, "error": error, "message": message })
    }

    /// Logs the cause of an unexpected failure and returns the opaque 500.
    pub fn internal(context: &str, cause: impl std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "storage: {context}");
        StorageError::Internal
    }

    /// Maps a file-system error: a full disk or quota is the client's clear 507, anything else the opaque 500.
    pub fn from_io(context: &str, e: std::io::Error) -> Self {
        const ENOSPC: i32 = 28;
        const EDQUOT: i32 = 122;
        let full = matches!(e.kind(), std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded)
            || matches!(e.raw_os_error(), Some(ENOSPC | EDQUOT));
        if !full {
            return Self::internal(context, e);
        }
        tracing::warn!(error = %e, "storage: {context}: the storage folder is full");
        StorageError::InsufficientStorage
    }
}

impl StorageError {
    /// A refusal by a rate limit: a warning in the log (the client is told when to retry), never an error.
    pub fn rate_limited(message: String, retry_after: Option<u64>) -> Self {
        tracing::warn!(%message, ?retry_after, "storage: rate limit reached");
        StorageError::TooManyRequests { message, retry_after }
    }
}

impl IntoResponse for StorageError {
    fn into_response(self) -> Response {
        let mut res = (self.http_status(), axum::Json(self.body())).into_response();
        if let StorageError::TooManyRequests { retry_after, .. } = &self {
            let seconds = retry_after.unwrap_or(DEFAULT_RETRY_AFTER_SECS);
            res.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from(seconds));
        }
        res
    }
}

pub type Result<T> = std::result::Result<T, StorageError>;

/// `Retry-After` when a rate limit names none.
pub const DEFAULT_RETRY_AFTER_SECS: u64 = 60;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_storage_shape_with_http_400_for_client_errors() {
        let e = StorageError::EntityTooLarge;
        assert_eq!(e.http_status(), StatusCode::BAD_REQUEST);
        assert_eq!(
            e.body(),
            json!({"statusCode": "413", "code": "EntityTooLarge", "error": "Payload too large",
                   "message": "The object exceeded the maximum allowed size"})
        );
        assert_eq!(StorageError::NoSuchBucket.body()["message"], "Bucket not found");
        assert_eq!(
            StorageError::InvalidMimeType("image/jpeg".into()).body()["message"],
            "mime type image/jpeg is not supported"
        );
        assert_eq!(StorageError::Internal.http_status(), StatusCode::INTERNAL_SERVER_ERROR);
    }

    #[test]
    fn a_full_disk_is_507_and_other_io_errors_stay_opaque() {
        let full = StorageError::from_io("write", std::io::Error::from_raw_os_error(28));
        assert_eq!(full, StorageError::InsufficientStorage);
        assert_eq!(full.http_status(), StatusCode::INSUFFICIENT_STORAGE);
        assert_eq!(full.body()["statusCode"], "507");
        let other = StorageError::from_io("write", std::io::Error::from(std::io::ErrorKind::PermissionDenied));
        assert_eq!(other, StorageError::Internal);
    }
}
