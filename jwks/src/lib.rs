//! Signing keys, the public JWKS document, and JWT signing and verification for Supabase-compatible services.
//!
//! The crate has no HTTP or database dependencies: a service builds a [`KeySet`] from keys it stores wherever
//! it likes (the gateway keeps them in PostgreSQL), signs tokens with the current key, verifies tokens by `kid`
//! with pinned algorithms, and publishes [`KeySet::jwks_document`] for any JWT library to verify with.
#![deny(missing_docs)]

mod der;
mod error;
mod import;
mod key;
mod set;

pub use error::{Error, ErrorKind};
pub use import::keys_from_private_jwks;
pub use key::{KeyAlgorithm, KeyStatus, SigningKey};
pub use set::{KeySet, VerifyOptions};
