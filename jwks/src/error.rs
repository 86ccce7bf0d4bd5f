//! The crate's one error type.

use std::fmt;

/// Why a key operation or a token verification failed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The token is not three base64url parts with a JSON header and payload.
    Malformed,
    /// The header names an algorithm this key set does not accept (including `none` and HS256 without a secret).
    AlgorithmNotAllowed(String),
    /// No verification key carries the token's `kid`.
    UnknownKid,
    /// The signature does not verify.
    InvalidSignature,
    /// The token has expired (`exp` in the past, beyond the leeway).
    Expired,
    /// The token is not valid yet (`nbf` or `iat` in the future, beyond the leeway).
    NotYetValid,
    /// A registered claim has the wrong type or a required claim is missing.
    InvalidClaims(String),
    /// The audience does not match.
    InvalidAudience,
    /// Key material could not be created, parsed or encoded.
    Key(String),
    /// The key set has no current signing key.
    NoSigningKey,
}

/// The crate's error: a boxed [`ErrorKind`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(Box<ErrorKind>);

impl Error {
    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error(Box::new(kind))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            ErrorKind::Malformed => write!(f, "token is malformed"),
            ErrorKind::AlgorithmNotAllowed(a) => write!(f, "algorithm {a} is not allowed"),
            ErrorKind::UnknownKid => write!(f, "no key matches the token's kid"),
            ErrorKind::InvalidSignature => write!(f, "signature is invalid"),
            ErrorKind::Expired => write!(f, "token has expired"),
            ErrorKind::NotYetValid => write!(f, "token is not valid yet"),
            ErrorKind::InvalidClaims(c) => write!(f, "invalid claims: {c}"),
            ErrorKind::InvalidAudience => write!(f, "audience does not match"),
            ErrorKind::Key(m) => write!(f, "key error: {m}"),
            ErrorKind::NoSigningKey => write!(f, "no current signing key"),
        }
    }
}

impl std::error::Error for Error {}

pub(crate) fn key_error(message: impl fmt::Display) -> Error {
    ErrorKind::Key(message.to_string()).into()
}
