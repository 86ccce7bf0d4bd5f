//! The auth surface's one error type and its wire format (GoTrue's): `{code, error_code, msg}` by default, or
//! `{code, message}` when the request carries `X-Supabase-Api-Version` (echoed back); always `x-sb-error-code`.
//! The field names are what auth-js parses: do not rename.

use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

/// An error as a client sees it: status, GoTrue's snake_case code, message.
#[derive(Debug, Clone, PartialEq)]
pub struct AuthError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    /// `weak_password.reasons` for 422 `weak_password`.
    pub weak_password: Option<Vec<&'static str>>,
}

/// The error carried in the response's extensions so the version layer can render the 2024 format.
#[derive(Debug, Clone)]
pub struct RenderedError(pub AuthError);

pub type AuthResult<T> = Result<T, AuthError>;

impl AuthError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        AuthError { status, code, message: message.into(), weak_password: None }
    }

    pub fn validation(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "validation_failed", message)
    }

    pub fn invalid_credentials() -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_credentials", "Invalid login credentials")
    }

    pub fn not_admin() -> Self {
        Self::new(StatusCode::FORBIDDEN, "not_admin", "User not allowed")
    }

    /// An address another account already has.
    pub fn email_exists() -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "email_exists",
            "A user with this email address has already been registered",
        )
    }

    pub fn rate_limited() -> Self {
        Self::new(StatusCode::TOO_MANY_REQUESTS, "over_request_rate_limit", "Request rate limit reached")
    }

    pub fn email_rate_limited() -> Self {
        Self::new(StatusCode::TOO_MANY_REQUESTS, "over_email_send_rate_limit", "email rate limit exceeded")
    }

    pub fn email_frequency(seconds: u64) -> Self {
        Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "over_email_send_rate_limit",
            format!("For security purposes, you can only request this after {seconds} seconds."),
        )
    }

    /// A refused bearer token: 403 `bad_jwt` with GoTrue's prefix and the reason in the key set's words.
    pub fn bad_jwt(refused: &crate::core::identity::Rejection) -> Self {
        use crate::core::identity::Rejection;
        let reason = match refused {
            // GoTrue's parser reads a token of another shape as a malformed one
            Rejection::PartCount(_) => "token is malformed".to_string(),
            other => other.to_string(),
        };
        Self::new(
            StatusCode::FORBIDDEN,
            "bad_jwt",
            format!("invalid JWT: unable to parse or verify signature, {reason}"),
        )
    }

    pub fn otp_expired(message: &str) -> Self {
        Self::new(StatusCode::FORBIDDEN, "otp_expired", message)
    }

    /// A server-side failure: logged here, rendered without internals.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "auth request failed");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "unexpected_failure",
            "Unexpected failure, please check server logs for more information",
        )
    }

    /// The classic body: `{code: <status>, error_code, msg}`.
    pub fn classic_body(&self) -> Value {
        let mut body = json!({"code": self.status.as_u16(), "error_code": self.code, "msg": self.message});
        self.add_weak_password(&mut body);
        body
    }

    /// The 2024-01-01 body: `{code, message}` (plus `error_code`, harmless, kept if a proxy strips headers).
    pub fn versioned_body(&self) -> Value {
        let mut body = json!({"code": self.code, "error_code": self.code, "message": self.message});
        self.add_weak_password(&mut body);
        body
    }

    fn add_weak_password(&self, body: &mut Value) {
        if let (Some(reasons), Some(obj)) = (&self.weak_password, body.as_object_mut()) {
            obj.insert("weak_password".into(), json!({"reasons": reasons}));
        }
    }
}

impl From<tokio_postgres::Error> for AuthError {
    fn from(e: tokio_postgres::Error) -> Self {
        if crate::core::db::is_unavailable(&e) {
            tracing::warn!(error = %e, "auth: database unavailable");
            return AuthError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "unexpected_failure",
                "Database unavailable, try again shortly",
            );
        }
        AuthError::internal(e)
    }
}

impl From<deadpool_postgres::PoolError> for AuthError {
    fn from(e: deadpool_postgres::PoolError) -> Self {
        tracing::warn!(error = %e, "no database connection for auth");
        AuthError::new(StatusCode::SERVICE_UNAVAILABLE, "unexpected_failure", "Database unavailable, try again shortly")
    }
}

impl IntoResponse for AuthError {
    fn into_response(self) -> Response {
        let mut res = (self.status, Json(self.classic_body())).into_response();
        if let Ok(v) = HeaderValue::from_str(self.code) {
            res.headers_mut().insert("x-sb-error-code", v);
        }
        res.extensions_mut().insert(RenderedError(self));
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_both_formats() {
        let e = AuthError::invalid_credentials();
        assert_eq!(
            e.classic_body(),
            json!({"code": 400, "error_code": "invalid_credentials", "msg": "Invalid login credentials"})
        );
        assert_eq!(e.versioned_body()["code"], "invalid_credentials");
        assert_eq!(e.versioned_body()["message"], "Invalid login credentials");
        let mut weak = AuthError::new(StatusCode::UNPROCESSABLE_ENTITY, "weak_password", "short");
        weak.weak_password = Some(vec!["length"]);
        let expired = AuthError::bad_jwt(&crate::core::identity::Rejection::Expired).message;
        assert_eq!(expired, "invalid JWT: unable to parse or verify signature, token has expired");
        let short = AuthError::bad_jwt(&crate::core::identity::Rejection::PartCount(1)).message;
        assert_eq!(short, "invalid JWT: unable to parse or verify signature, token is malformed");
        assert_eq!(weak.versioned_body()["weak_password"], json!({"reasons": ["length"]}));
    }
}
