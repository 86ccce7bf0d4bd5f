//! A bounded cache of verified identities, so a signed-in user's repeated requests skip signature verification.
//! Keyed by the credentials exactly as sent (Authorization and apikey) and the key set in force; an entry is used
//! only while its token's `exp` (plus the 30 s leeway `identify` allows) has not passed, and is dropped otherwise.
//! Failures are never cached. When full, the oldest entry goes (FIFO), so memory stays flat under unique tokens.
//! Entries are shared (`Arc`) with the claims already rendered as the JSON text `request.jwt.claims` gets, so a hit
//! neither copies the claims nor serialises them again.

use super::{identify, Rejection, Verified};
use crate::core::config::Config;
use http::HeaderMap;
use jwks::KeySet;
use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex};

/// Entries kept at most.
pub const CAPACITY: usize = 1000;
const LEEWAY_SECS: i64 = 30;

/// A fast fingerprint of the key set and credentials, so a lookup neither copies the credentials nor runs SipHash
/// over them; entries keep the whole key and a hit compares it, so credentials that share a fingerprint never
/// share an entry.
fn fingerprint(keys: &Arc<KeySet>, authorization: &str, apikey: &str) -> u64 {
    rustc_hash::FxBuildHasher.hash_one((Arc::as_ptr(keys) as usize, authorization, apikey))
}

/// A verified identity with what it was verified against: the key set (held, so its address is never reused by
/// another key set while the entry lives — a rotated set never matches an entry of the old one) and the
/// credentials exactly as sent (Authorization, apikey).
struct Entry {
    fingerprint: u64,
    keys: Arc<KeySet>,
    authorization: Box<str>,
    apikey: Box<str>,
    verified: Arc<Verified>,
    exp: i64,
}

impl Entry {
    fn matches(&self, fingerprint: u64, keys: &Arc<KeySet>, authorization: &str, apikey: &str) -> bool {
        self.fingerprint == fingerprint
            && Arc::ptr_eq(&self.keys, keys)
            && *self.authorization == *authorization
            && *self.apikey == *apikey
    }
}

#[derive(Default)]
struct Inner {
    entries: HashMap<u64, Entry>,
    order: VecDeque<u64>,
}

#[derive(Default)]
pub struct IdentityCache {
    inner: Mutex<Inner>,
}

impl IdentityCache {
    /// `identify`, answered from the cache when the same credentials were verified before and are still valid.
    pub fn identify(
        &self,
        headers: &HeaderMap,
        keys: &Arc<KeySet>,
        config: &Config,
    ) -> Result<Arc<Verified>, Rejection> {
        let header = |n: &str| headers.get(n).and_then(|v| v.to_str().ok()).unwrap_or("");
        let (authorization, apikey) = (header("authorization"), header("apikey"));
        if authorization.is_empty() && apikey.is_empty() {
            return identify(headers, keys, config).map(Verified::new);
        }
        let fp = fingerprint(keys, authorization, apikey);
        if let Some(verified) = self.lookup(fp, keys, authorization, apikey) {
            return Ok(verified);
        }
        let identity = identify(headers, keys, config)?;
        let exp = identity.claims.get("exp").and_then(|v| v.as_i64()).filter(|_| identity.has_token);
        let verified = Verified::new(identity);
        if let Some(exp) = exp {
            let entry = Entry {
                fingerprint: fp,
                keys: keys.clone(),
                authorization: authorization.into(),
                apikey: apikey.into(),
                verified: verified.clone(),
                exp,
            };
            self.insert(entry);
        }
        Ok(verified)
    }

    /// The entry for these credentials while its token is valid; an expired one is dropped.
    fn lookup(&self, fp: u64, keys: &Arc<KeySet>, authorization: &str, apikey: &str) -> Option<Arc<Verified>> {
        let now = chrono::Utc::now().timestamp();
        let mut inner = self.inner.lock().ok()?;
        match inner.entries.get(&fp) {
            Some(e) if e.matches(fp, keys, authorization, apikey) => {
                if now <= e.exp + LEEWAY_SECS {
                    return Some(e.verified.clone());
                }
                inner.entries.remove(&fp);
            }
            _ => {}
        }
        None
    }

    /// Keeps `entry`, dropping the oldest entries while the cache is full.
    fn insert(&self, entry: Entry) {
        let Ok(mut inner) = self.inner.lock() else { return };
        while inner.entries.len() >= CAPACITY {
            match inner.order.pop_front() {
                Some(old) => {
                    inner.entries.remove(&old);
                }
                None => break,
            }
        }
        let fp = entry.fingerprint;
        inner.order.retain(|k| *k != fp);
        inner.order.push_back(fp);
        inner.entries.insert(fp, entry);
    }

    /// Whether no identity is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many verified identities are held (never more than the capacity).
    pub fn len(&self) -> usize {
        self.inner.lock().map(|i| i.entries.len()).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::testing::{bearer, config, key_set};

    fn keyset() -> Arc<KeySet> {
        Arc::new(key_set())
    }

    #[test]
    fn caches_valid_tokens_and_never_failures() {
        let cache = IdentityCache::default();
        let keys = keyset();
        let now = chrono::Utc::now().timestamp();
        let token = keys.sign(&serde_json::json!({"role":"authenticated","sub":"u1","exp": now + 60})).unwrap();
        let a = cache.identify(&bearer(&token), &keys, &config()).unwrap();
        let b = cache.identify(&bearer(&token), &keys, &config()).unwrap();
        assert_eq!(a, b);
        assert_eq!(cache.len(), 1);
        assert!(cache.identify(&bearer("a.b.c"), &keys, &config()).is_err());
        assert_eq!(cache.len(), 1);
        // another key set (rotation) never reuses the entry
        let other = keyset();
        assert!(cache.identify(&bearer(&token), &other, &config()).is_err());
    }

    #[test]
    fn expired_entries_are_not_served() {
        let cache = IdentityCache::default();
        let keys = keyset();
        let now = chrono::Utc::now().timestamp();
        let token = keys.sign(&serde_json::json!({"role":"authenticated","exp": now - 10})).unwrap();
        // within the leeway it verifies and is cached
        assert!(cache.identify(&bearer(&token), &keys, &config()).is_ok());
        let stale = keys.sign(&serde_json::json!({"role":"authenticated","exp": now - 100})).unwrap();
        assert!(cache.identify(&bearer(&stale), &keys, &config()).is_err());
    }

    #[test]
    fn future_nbf_and_iat_are_rejected() {
        let cache = IdentityCache::default();
        let keys = keyset();
        let now = chrono::Utc::now().timestamp();
        for claim in ["nbf", "iat"] {
            let t = keys.sign(&serde_json::json!({"role":"anon", claim: now + 120, "exp": now + 600})).unwrap();
            assert!(cache.identify(&bearer(&t), &keys, &config()).is_err(), "{claim}");
        }
        let t = keys.sign(&serde_json::json!({"role":"anon", "iat": now + 10, "exp": now + 600})).unwrap();
        assert!(cache.identify(&bearer(&t), &keys, &config()).is_ok());
    }

    #[test]
    fn stays_bounded() {
        let cache = IdentityCache::default();
        let keys = keyset();
        let now = chrono::Utc::now().timestamp();
        for i in 0..(CAPACITY + 20) {
            let t = keys.sign(&serde_json::json!({"role":"anon","sub": i.to_string(),"exp": now + 60})).unwrap();
            cache.identify(&bearer(&t), &keys, &config()).unwrap();
        }
        assert_eq!(cache.len(), CAPACITY);
    }
}
