//! The auth surface's one error type and its wire format (GoTrue's): `{code, error_code, msg}` by default, or
//! `{code, message}` when the request carries `X-Supabase-Api-Version` (echoed back); always `x-sb-error-code`.
//! The field names are what auth-js parses: do not rename.

use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

pub use crate::auth::error_code::ErrorCode;

/// An error as a client sees it: status, GoTrue's code, message; plus, for failures, the cause (logged when the
/// error is rendered, never sent).
#[derive(Debug, Clone, PartialEq)]
pub struct AuthError {
    pub status: StatusCode,
    pub code: ErrorCode,
    pub message: String,
    /// `weak_password.reasons` for 422 `weak_password`.
    pub weak_password: Option<Vec<&'static str>>,
    cause: Option<String>,
}

/// The error carried in the response's extensions so the version layer can render the 2024 format.
#[derive(Debug, Clone)]
pub struct RenderedError(pub AuthError);

pub type AuthResult<T> = Result<T, AuthError>;

impl From<ErrorCode> for AuthError {
    fn from(code: ErrorCode) -> Self {
        AuthError { status: code.status(), code, message: code.message().into(), weak_password: None, cause: None }
    }
}

impl AuthError {
    /// `code` with a message that carries a detail (which field, which limit, which token).
    pub fn detail(code: ErrorCode, message: impl Into<String>) -> Self {
        AuthError { message: message.into(), ..code.into() }
    }

    /// The same code under GoTrue's other status for it (e.g. `user_banned` is 400 on refresh, 403 elsewhere).
    pub fn at(self, status: StatusCode) -> Self {
        AuthError { status, ..self }
    }

    pub fn validation(message: impl Into<String>) -> Self {
        Self::detail(ErrorCode::ValidationFailed, message)
    }

    pub fn invalid_credentials() -> Self {
        ErrorCode::InvalidCredentials.into()
    }

    pub fn not_admin() -> Self {
        ErrorCode::NotAdmin.into()
    }

    /// An address another account already has.
    pub fn email_exists() -> Self {
        ErrorCode::EmailExists.into()
    }

    pub fn rate_limited() -> Self {
        ErrorCode::OverRequestRateLimit.into()
    }

    pub fn email_rate_limited() -> Self {
        ErrorCode::OverEmailSendRateLimit.into()
    }

    pub fn email_frequency(seconds: u64) -> Self {
        let message = format!("For security purposes, you can only request this after {seconds} seconds.");
        Self::detail(ErrorCode::OverEmailSendRateLimit, message)
    }

    /// A refused bearer token: 403 `bad_jwt` with GoTrue's prefix and the reason in the key set's words.
    pub fn bad_jwt(refused: &crate::core::identity::Rejection) -> Self {
        use crate::core::identity::Rejection;
        let reason = match refused {
            // GoTrue's parser reads a token of another shape as a malformed one
            Rejection::PartCount(_) => "token is malformed".to_string(),
            other => other.to_string(),
        };
        Self::detail(ErrorCode::BadJwt, format!("{}, {reason}", ErrorCode::BadJwt.message()))
    }

    /// A token claim GoTrue refuses (`invalid claim: …`).
    pub fn bad_claim(message: &str) -> Self {
        Self::detail(ErrorCode::BadJwt, format!("invalid claim: {message}"))
    }

    /// The link (`token_hash`) form of an unknown or expired one-time token; the code form is the default text.
    pub fn link_expired() -> Self {
        Self::detail(ErrorCode::OtpExpired, "Email link is invalid or has expired")
    }

    /// A refresh token whose session is gone (auth-js reads `session_not_found` as "signed out").
    pub fn refresh_without_session() -> Self {
        Self::detail(ErrorCode::SessionNotFound, "Invalid Refresh Token: No Valid Session Found")
            .at(StatusCode::BAD_REQUEST)
    }

    /// A refresh token of a banned user.
    pub fn refresh_user_banned() -> Self {
        Self::detail(ErrorCode::UserBanned, "Invalid Refresh Token: User Banned").at(StatusCode::BAD_REQUEST)
    }

    /// A valid token whose user was deleted.
    pub fn user_of_token_gone() -> Self {
        Self::detail(ErrorCode::UserNotFound, "User from sub claim in JWT does not exist").at(StatusCode::FORBIDDEN)
    }

    /// An admin link for an address no account has.
    pub fn no_user_with_email() -> Self {
        Self::detail(ErrorCode::UserNotFound, "User with this email not found")
    }

    /// A user's own update that touches `app_metadata`.
    pub fn app_metadata_needs_admin() -> Self {
        Self::detail(ErrorCode::NotAdmin, "Updating app_metadata requires admin privileges")
    }

    /// A `grant_type` other than password, refresh_token and pkce (GoTrue's text is the OAuth error name).
    pub fn unsupported_grant() -> Self {
        Self::detail(ErrorCode::InvalidCredentials, "unsupported_grant_type")
    }

    /// A server-side failure: rendered without internals, its cause logged when rendered.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        AuthError { cause: Some(cause.to_string()), ..ErrorCode::UnexpectedFailure.into() }
    }

    /// No database connection: 503, so clients retry.
    pub fn unavailable(cause: impl std::fmt::Display) -> Self {
        let error = Self::internal(cause).at(StatusCode::SERVICE_UNAVAILABLE);
        AuthError { message: "Database unavailable, try again shortly".into(), ..error }
    }

    /// A failure with a message of its own (`Error sending … email`).
    pub fn failed(message: impl Into<String>, cause: impl std::fmt::Display) -> Self {
        AuthError { message: message.into(), ..Self::internal(cause) }
    }

    /// Logs a failure's cause: called once, where the error meets the wire (`layers::log_failures`, or the
    /// redirect that carries it).
    pub fn log(&self) {
        let Some(cause) = &self.cause else { return };
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            tracing::warn!(error = %cause, code = %self.code, "auth: database unavailable");
        } else {
            tracing::error!(error = %cause, code = %self.code, message = %self.message, "auth request failed");
        }
    }

    /// The classic body: `{code: <status>, error_code, msg}`.
    pub fn classic_body(&self) -> Value {
        let mut body = json!({"code": self.status.as_u16(), "error_code": self.code.as_str(), "msg": self.message});
        self.add_weak_password(&mut body);
        body
    }

    /// The 2024-01-01 body: `{code, message}` (plus `error_code`, harmless, kept if a proxy strips headers).
    pub fn versioned_body(&self) -> Value {
        let mut body = json!({"code": self.code.as_str(), "error_code": self.code.as_str(), "message": self.message});
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
            return AuthError::unavailable(e);
        }
        AuthError::internal(e)
    }
}

impl From<deadpool_postgres::PoolError> for AuthError {
    fn from(e: deadpool_postgres::PoolError) -> Self {
        AuthError::unavailable(format!("no database connection: {e}"))
    }
}

impl IntoResponse for AuthError {
    fn into_response(self) -> Response {
        let mut res = (self.status, Json(self.classic_body())).into_response();
        if let Ok(v) = HeaderValue::from_str(self.code.as_str()) {
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
        let mut weak = AuthError::detail(ErrorCode::WeakPassword, "short");
        weak.weak_password = Some(vec!["length"]);
        let expired = AuthError::bad_jwt(&crate::core::identity::Rejection::Expired).message;
        assert_eq!(expired, "invalid JWT: unable to parse or verify signature, token has expired");
        let short = AuthError::bad_jwt(&crate::core::identity::Rejection::PartCount(1)).message;
        assert_eq!(short, "invalid JWT: unable to parse or verify signature, token is malformed");
        assert_eq!(weak.versioned_body()["weak_password"], json!({"reasons": ["length"]}));
    }
}
