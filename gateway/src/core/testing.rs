//! What unit tests of the core and the APIs share: variables from pairs, a configuration with nothing but a database
//! URL, a key set with one current ES256 key, and a request carrying a bearer token.

use super::config::{Config, Vars};
use http::HeaderMap;
use jwks::{KeySet, KeyStatus, SigningKey};

/// Variables with just these values.
pub fn vars(pairs: &[(&str, &str)]) -> Vars {
    Vars(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect())
}

/// The configuration of an unset environment (a database URL only).
pub fn config() -> Config {
    let vars = Vars([("DATABASE_URL".to_string(), "postgres://x@localhost/db".to_string())].into());
    Config::from_vars(vars).expect("a database URL is all a configuration needs")
}

/// A key set with one current ES256 key.
pub fn key_set() -> KeySet {
    KeySet::new(vec![SigningKey::generate_es256(KeyStatus::Current).expect("an ES256 key")])
}

/// Headers with `Authorization: Bearer <token>`.
pub fn bearer(token: &str) -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert(http::header::AUTHORIZATION, format!("Bearer {token}").parse().expect("a header value"));
    h
}
