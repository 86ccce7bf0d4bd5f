//! Supabase's opaque API keys (`sb_publishable_…`, `sb_secret_…`), checked against the configured ones exactly as
//! Supabase's API gateway matches them (`SUPABASE_PUBLISHABLE_KEY` → the anonymous role, `SUPABASE_SECRET_KEY` →
//! `service_role`; comma-separated for rotation). Only digests are kept and compared, so neither the keys nor the
//! time a comparison takes tell anything about them. An `sb_` key that is not configured is refused on every API.

use crate::core::secret_eq::same_bytes;
use sha2::{Digest, Sha256};

/// What a configured key stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    /// A publishable key: the anonymous role.
    Publishable,
    /// A secret key: `service_role`.
    Secret,
}

/// The configured opaque keys, as SHA-256 digests.
#[derive(Debug, Clone, Default)]
pub struct ApiKeys {
    keys: Vec<([u8; 32], KeyKind)>,
}

/// A secret key shorter than this is refused at start: it could be guessed.
const MIN_SECRET_CHARS: usize = 32;

/// Whether `value` has the shape of an opaque API key (never a JWT).
pub fn is_opaque(value: &str) -> bool {
    value.starts_with("sb_")
}

fn digest(value: &str) -> [u8; 32] {
    Sha256::digest(value.as_bytes()).into()
}

impl ApiKeys {
    /// The publishable and secret keys as configured; a key without the `sb_` prefix, or a secret key shorter than
    /// 32 characters, is a configuration error.
    pub fn new(publishable: &[String], secret: &[String]) -> anyhow::Result<Self> {
        let mut keys = vec![];
        for (list, kind) in [(publishable, KeyKind::Publishable), (secret, KeyKind::Secret)] {
            for key in list {
                if !is_opaque(key) {
                    anyhow::bail!("an opaque API key must start with sb_ (a JWT key needs no configuration)");
                }
                if kind == KeyKind::Secret && key.chars().count() < MIN_SECRET_CHARS {
                    anyhow::bail!("SUPABASE_SECRET_KEY: a secret key needs at least {MIN_SECRET_CHARS} characters");
                }
                keys.push((digest(key), kind));
            }
        }
        Ok(ApiKeys { keys })
    }

    /// What `key` stands for, or `None` when it is not a configured key. Every configured digest is compared in
    /// full, whatever matches.
    pub fn kind_of(&self, key: &str) -> Option<KeyKind> {
        let presented = digest(key);
        let mut found = None;
        for (stored, kind) in &self.keys {
            if same_bytes(stored, &presented) {
                found = Some(*kind);
            }
        }
        found
    }

    /// Whether no opaque key is configured.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "sb_secret_0123456789abcdefghijklmnop";

    #[test]
    fn only_configured_keys_are_known() {
        let keys = ApiKeys::new(&["sb_publishable_abc".into()], &[SECRET.into()]).unwrap();
        assert_eq!(keys.kind_of("sb_publishable_abc"), Some(KeyKind::Publishable));
        assert_eq!(keys.kind_of(SECRET), Some(KeyKind::Secret));
        assert_eq!(keys.kind_of("sb_publishable_abd"), None);
        assert_eq!(keys.kind_of("sb_garbage"), None);
        assert_eq!(ApiKeys::default().kind_of("sb_publishable_abc"), None, "none configured: every sb_ key is unknown");
    }

    #[test]
    fn weak_or_misshapen_keys_are_refused_at_start() {
        assert!(ApiKeys::new(&["publishable_abc".into()], &[]).is_err());
        assert!(ApiKeys::new(&[], &["sb_secret_short".into()]).is_err());
        assert!(is_opaque("sb_x") && !is_opaque("eyJ.a.b"));
    }
}
