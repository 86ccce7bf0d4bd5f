//! GoTrue's error codes (`internal/api/apierrors/errorcode.go`) that this gateway answers, each with the HTTP
//! status and message it is sent with. A call site names a code; the status and text live here, once.

use axum::http::StatusCode;

/// One of GoTrue's snake_case `error_code`s. Clients branch on the code, never on the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    UnexpectedFailure,
    ValidationFailed,
    BadJson,
    RequestEntityTooLarge,
    InvalidCredentials,
    EmailNotConfirmed,
    UserBanned,
    UserAlreadyExists,
    EmailExists,
    SignupDisabled,
    EmailProviderDisabled,
    PhoneProviderDisabled,
    AnonymousProviderDisabled,
    OtpDisabled,
    WeakPassword,
    SamePassword,
    ReauthenticationNeeded,
    ReauthenticationNotValid,
    NotAdmin,
    NoAuthorization,
    BadJwt,
    UserNotFound,
    SessionNotFound,
    RefreshTokenNotFound,
    RefreshTokenAlreadyUsed,
    OtpExpired,
    FlowStateNotFound,
    FlowStateExpired,
    BadCodeVerifier,
    OverRequestRateLimit,
    OverEmailSendRateLimit,
}

use ErrorCode::*;

impl ErrorCode {
    /// The wire spelling (`error_code`, `x-sb-error-code`).
    pub fn as_str(self) -> &'static str {
        match self {
            UnexpectedFailure => "unexpected_failure",
            ValidationFailed => "validation_failed",
            BadJson => "bad_json",
            RequestEntityTooLarge => "request_entity_too_large",
            InvalidCredentials => "invalid_credentials",
            EmailNotConfirmed => "email_not_confirmed",
            UserBanned => "user_banned",
            UserAlreadyExists => "user_already_exists",
            EmailExists => "email_exists",
            SignupDisabled => "signup_disabled",
            EmailProviderDisabled => "email_provider_disabled",
            PhoneProviderDisabled => "phone_provider_disabled",
            AnonymousProviderDisabled => "anonymous_provider_disabled",
            OtpDisabled => "otp_disabled",
            WeakPassword => "weak_password",
            SamePassword => "same_password",
            ReauthenticationNeeded => "reauthentication_needed",
            ReauthenticationNotValid => "reauthentication_not_valid",
            NotAdmin => "not_admin",
            NoAuthorization => "no_authorization",
            BadJwt => "bad_jwt",
            UserNotFound => "user_not_found",
            SessionNotFound => "session_not_found",
            RefreshTokenNotFound => "refresh_token_not_found",
            RefreshTokenAlreadyUsed => "refresh_token_already_used",
            OtpExpired => "otp_expired",
            FlowStateNotFound => "flow_state_not_found",
            FlowStateExpired => "flow_state_expired",
            BadCodeVerifier => "bad_code_verifier",
            OverRequestRateLimit => "over_request_rate_limit",
            OverEmailSendRateLimit => "over_email_send_rate_limit",
        }
    }

    /// The status GoTrue sends the code with (a few codes have a second one: see `AuthError::at`).
    pub fn status(self) -> StatusCode {
        match self {
            UnexpectedFailure => StatusCode::INTERNAL_SERVER_ERROR,
            RequestEntityTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            UserAlreadyExists
            | EmailExists
            | SignupDisabled
            | AnonymousProviderDisabled
            | OtpDisabled
            | WeakPassword
            | SamePassword
            | FlowStateExpired => StatusCode::UNPROCESSABLE_ENTITY,
            UserBanned | NotAdmin | BadJwt | SessionNotFound | OtpExpired => StatusCode::FORBIDDEN,
            NoAuthorization => StatusCode::UNAUTHORIZED,
            UserNotFound | FlowStateNotFound => StatusCode::NOT_FOUND,
            OverRequestRateLimit | OverEmailSendRateLimit => StatusCode::TOO_MANY_REQUESTS,
            _ => StatusCode::BAD_REQUEST,
        }
    }

    /// The message sent with the code. Codes whose text carries a detail (which field, which limit) are built
    /// with `AuthError::detail`; their text here is the generic fallback.
    pub fn message(self) -> &'static str {
        match self {
            UnexpectedFailure => "Unexpected failure, please check server logs for more information",
            ValidationFailed => "Invalid request",
            BadJson => "Could not parse request body as JSON",
            RequestEntityTooLarge => "Request body too large",
            InvalidCredentials => "Invalid login credentials",
            EmailNotConfirmed => "Email not confirmed",
            UserBanned => "User is banned",
            UserAlreadyExists => "User already registered",
            EmailExists => "A user with this email address has already been registered",
            SignupDisabled => "Signups not allowed for this instance",
            EmailProviderDisabled => "Email logins are disabled",
            PhoneProviderDisabled => "Phone logins are disabled",
            AnonymousProviderDisabled => "Anonymous sign-ins are disabled",
            OtpDisabled => "Signups not allowed for otp",
            WeakPassword => "Password is too weak",
            SamePassword => "New password should be different from the old password.",
            ReauthenticationNeeded => "Password update requires reauthentication",
            ReauthenticationNotValid => "Requires reauthentication",
            NotAdmin => "User not allowed",
            NoAuthorization => "This endpoint requires a valid Bearer token",
            BadJwt => "invalid JWT: unable to parse or verify signature",
            UserNotFound => "User not found",
            SessionNotFound => "Session from session_id claim in JWT does not exist",
            RefreshTokenNotFound => "Invalid Refresh Token: Refresh Token Not Found",
            RefreshTokenAlreadyUsed => "Invalid Refresh Token: Already Used",
            OtpExpired => "Token has expired or is invalid",
            FlowStateNotFound => "invalid flow state, no valid flow state found",
            FlowStateExpired => "invalid flow state, flow state has expired",
            BadCodeVerifier => "code challenge does not match previously saved code verifier",
            OverRequestRateLimit => "Request rate limit reached",
            OverEmailSendRateLimit => "email rate limit exceeded",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_carry_gotrue_spelling_status_and_text() {
        assert_eq!(PhoneProviderDisabled.as_str(), "phone_provider_disabled");
        assert_eq!(PhoneProviderDisabled.status(), StatusCode::BAD_REQUEST);
        assert_eq!(OverRequestRateLimit.status().as_u16(), 429);
        assert_eq!(InvalidCredentials.message(), "Invalid login credentials");
        assert_eq!(UnexpectedFailure.status().as_u16(), 500);
    }
}
