//! Why a caller is refused, as a type. Each API renders a [`Rejection`] in its own words from its own table
//! (`rest::jwt_errors` PostgREST's PGRST30x, `auth::error` GoTrue's `bad_jwt`, `storage::error` Storage's 403,
//! `realtime::credentials` Realtime's join errors); `Display` is the gateway's own description, for logs and for the
//! APIs whose wire text it is.

use std::fmt;

/// Why a token, or a request without one, does not identify a caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    /// `apikey` is required (`GATEWAY_REQUIRE_APIKEY`) but absent or not a key of this gateway.
    ApiKeyMissing,
    /// No token, and no anonymous role is configured.
    AnonymousDisabled,
    /// The `role` claim names a role the gateway never switches to.
    RoleNotAllowed(String),
    /// The token is not three dot-separated parts (it has this many).
    PartCount(usize),
    /// The header or payload is not base64url-encoded JSON, or a registered claim cannot be read.
    Malformed,
    /// The header says `alg: none`: an unsecured token.
    Unsecured,
    /// The header names an algorithm the key set does not accept for this token.
    WrongAlgorithm(String),
    /// No verifying key carries the token's `kid`.
    UnknownKey,
    /// The signature does not verify.
    BadSignature,
    /// `exp` has passed (beyond the leeway).
    Expired,
    /// `nbf` is in the future (beyond the leeway).
    NotYetValid,
    /// `iat` is in the future (beyond the leeway).
    IssuedInFuture,
    /// `aud` is not the audience required.
    WrongAudience,
    /// A registered claim is missing or of the wrong type, in the key set's words (`missing exp`, …).
    InvalidClaims(String),
    /// The claims are not a JSON object.
    ClaimsNotObject,
    /// `iat` is not a number.
    IatNotNumber,
    /// `role` is not a string.
    RoleNotString,
    /// A token minted for another purpose (a signed Storage URL) presented for API access.
    PurposeRefused,
    /// An `apikey` (or an opaque `sb_` key anywhere) that is not a key of this gateway.
    ApiKeyInvalid,
    /// An `Authorization` or `apikey` value larger than the gateway reads.
    TooLarge,
    /// The token's session was ended (sign-out, a new password, a reused refresh token) or its user deleted.
    Revoked,
}

impl Rejection {
    /// The key set's refusal of `token`, typed. `alg: none` is told apart from other undecodable headers by
    /// reading the (refused, untrusted) header.
    pub fn from_key_set(error: &jwks::Error, token: &str) -> Self {
        use jwks::ErrorKind as K;
        match error.kind() {
            K::Malformed if super::token::is_unsecured(token) => Rejection::Unsecured,
            K::Malformed => Rejection::Malformed,
            K::AlgorithmNotAllowed(alg) => Rejection::WrongAlgorithm(alg.clone()),
            K::UnknownKid => Rejection::UnknownKey,
            K::Expired => Rejection::Expired,
            K::NotYetValid => Rejection::NotYetValid,
            K::InvalidAudience => Rejection::WrongAudience,
            K::InvalidClaims(detail) => Rejection::InvalidClaims(detail.clone()),
            // an invalid signature; key errors, which verification does not produce, count as one
            _ => Rejection::BadSignature,
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::ApiKeyMissing => write!(f, "No API key found in request"),
            Rejection::AnonymousDisabled => write!(f, "anonymous access is disabled"),
            Rejection::RoleNotAllowed(role) => write!(f, "role {role} is not allowed"),
            Rejection::PartCount(n) => write!(f, "Expected 3 parts in JWT; got {n}"),
            Rejection::Malformed | Rejection::Unsecured => write!(f, "token is malformed"),
            Rejection::WrongAlgorithm(alg) => write!(f, "algorithm {alg} is not allowed"),
            Rejection::UnknownKey => write!(f, "no key matches the token's kid"),
            Rejection::BadSignature => write!(f, "signature is invalid"),
            Rejection::Expired => write!(f, "token has expired"),
            Rejection::NotYetValid => write!(f, "token is not valid yet"),
            Rejection::IssuedInFuture => write!(f, "token is not valid yet: issued in the future"),
            Rejection::WrongAudience => write!(f, "audience does not match"),
            Rejection::InvalidClaims(detail) => write!(f, "invalid claims: {detail}"),
            Rejection::ClaimsNotObject => write!(f, "claims are not a JSON object"),
            Rejection::IatNotNumber => write!(f, "iat claim is not a number"),
            Rejection::RoleNotString => write!(f, "role claim is not a string"),
            Rejection::PurposeRefused => write!(f, "the token was issued for a signed URL, not for API access"),
            Rejection::ApiKeyInvalid => write!(f, "Invalid API key"),
            Rejection::TooLarge => write!(f, "the credentials are larger than {} bytes", super::MAX_CREDENTIAL_BYTES),
            Rejection::Revoked => write!(f, "the session or user of this token no longer exists"),
        }
    }
}

impl std::error::Error for Rejection {}
