//! A bounded cache of verified identities, so a signed-in user's repeated requests skip signature verification.
//! Keyed by a SHA-256 digest of the credentials (Authorization and apikey, never kept themselves) and the key set in
//! force; an entry is used only while its token's `exp` (plus the 30 s leeway `identify` allows) has not passed, and
//! is dropped otherwise. Failures are never cached, nor credentials above [`CACHEABLE_CREDENTIAL_BYTES`] (they are
//! verified each time). Bounded twice: at most [`CAPACITY`] entries and [`BYTE_BUDGET`] bytes (each entry counted at
//! an upper estimate of what it holds); when full, the oldest entries go (FIFO), so memory stays flat under unique
//! tokens of any size. Entries are shared (`Arc`) with the claims already rendered as the JSON text
//! `request.jwt.claims` gets, so a hit neither copies the claims nor serialises them again.

use super::{check_size, identify, Rejection, Verified};
use crate::core::config::Config;
use http::HeaderMap;
use jwks::KeySet;
use sha2::{Digest, Sha256};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

/// Entries kept at most.
pub const CAPACITY: usize = 1000;
/// Bytes the entries may hold together (an upper estimate per entry, [`entry_cost`]).
pub const BYTE_BUDGET: usize = 8 * 1024 * 1024;
/// Credentials (Authorization and apikey together) longer than this are verified every time, never cached.
pub const CACHEABLE_CREDENTIAL_BYTES: usize = 4 * 1024;
const LEEWAY_SECS: i64 = 30;

/// What a cache entry is found by: the key set's address and a digest of the credentials.
type Key = (usize, [u8; 32]);

/// The digest of the credentials exactly as sent (a separator keeps `("ab", "c")` and `("a", "bc")` apart).
fn key(keys: &Arc<KeySet>, authorization: &str, apikey: &str) -> Key {
    let mut hasher = Sha256::new();
    hasher.update((authorization.len() as u64).to_le_bytes());
    hasher.update(authorization.as_bytes());
    hasher.update(apikey.as_bytes());
    (Arc::as_ptr(keys) as usize, hasher.finalize().into())
}

/// An upper estimate of the memory an entry holds: the claims as JSON text and parsed (a tree of maps, strings and
/// values, several times the text), the role, the map's and the queue's slots and the allocator's overhead —
/// calibrated on the soak's measurement of about 6 KB per identity for a typical 700-byte claims set.
fn entry_cost(verified: &Verified) -> usize {
    6 * verified.claims_json.len() + verified.identity.role.len() + 1024
}

/// A verified identity with the key set it was verified against (held, so its address is never reused by another
/// key set while the entry lives — a rotated set never matches an entry of the old one).
struct Entry {
    keys: Arc<KeySet>,
    verified: Arc<Verified>,
    exp: i64,
    cost: usize,
}

#[derive(Default)]
struct Inner {
    entries: HashMap<Key, Entry>,
    order: VecDeque<Key>,
    bytes: usize,
}

impl Inner {
    fn remove(&mut self, key: &Key) {
        if let Some(e) = self.entries.remove(key) {
            self.bytes -= e.cost;
        }
    }
}

#[derive(Default)]
pub struct IdentityCache {
    inner: Mutex<Inner>,
}

impl IdentityCache {
    /// `identify`, answered from the cache when the same credentials were verified before and are still valid.
    /// Oversized credentials are refused before they are hashed.
    pub fn identify(
        &self,
        headers: &HeaderMap,
        keys: &Arc<KeySet>,
        config: &Config,
    ) -> Result<Arc<Verified>, Rejection> {
        check_size(headers)?;
        let header = |n: &str| headers.get(n).and_then(|v| v.to_str().ok()).unwrap_or("");
        let (authorization, apikey) = (header("authorization"), header("apikey"));
        if authorization.is_empty() && apikey.is_empty() {
            return identify(headers, keys, config).map(Verified::new);
        }
        if authorization.len() + apikey.len() > CACHEABLE_CREDENTIAL_BYTES {
            return identify(headers, keys, config).map(Verified::new);
        }
        let k = key(keys, authorization, apikey);
        if let Some(verified) = self.lookup(&k, keys) {
            return Ok(verified);
        }
        let identity = identify(headers, keys, config)?;
        let exp = identity.claims.get("exp").and_then(|v| v.as_i64()).filter(|_| identity.has_token);
        let verified = Verified::new(identity);
        if let Some(exp) = exp {
            let cost = entry_cost(&verified);
            self.insert(k, Entry { keys: keys.clone(), verified: verified.clone(), exp, cost });
        }
        Ok(verified)
    }

    /// The entry for these credentials while its token is valid; an expired one is dropped.
    fn lookup(&self, k: &Key, keys: &Arc<KeySet>) -> Option<Arc<Verified>> {
        let now = chrono::Utc::now().timestamp();
        let mut inner = self.inner.lock().ok()?;
        match inner.entries.get(k) {
            Some(e) if Arc::ptr_eq(&e.keys, keys) => {
                if now <= e.exp + LEEWAY_SECS {
                    return Some(e.verified.clone());
                }
                inner.remove(k);
            }
            _ => {}
        }
        None
    }

    /// Keeps `entry`, dropping the oldest entries while the cache is full in entries or bytes.
    fn insert(&self, k: Key, entry: Entry) {
        if entry.cost > BYTE_BUDGET {
            return;
        }
        let Ok(mut inner) = self.inner.lock() else { return };
        inner.remove(&k);
        inner.order.retain(|o| *o != k);
        while inner.entries.len() >= CAPACITY || inner.bytes + entry.cost > BYTE_BUDGET {
            match inner.order.pop_front() {
                Some(old) => inner.remove(&old),
                None => break,
            }
        }
        inner.bytes += entry.cost;
        inner.order.push_back(k);
        inner.entries.insert(k, entry);
    }

    /// Whether no identity is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many verified identities are held (never more than the capacity).
    pub fn len(&self) -> usize {
        self.inner.lock().map(|i| i.entries.len()).unwrap_or(0)
    }

    /// The estimated bytes held (never more than the budget).
    pub fn bytes(&self) -> usize {
        self.inner.lock().map(|i| i.bytes).unwrap_or(0)
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

    #[test]
    fn stays_within_its_byte_budget_and_skips_large_credentials() {
        let cache = IdentityCache::default();
        let keys = keyset();
        let now = chrono::Utc::now().timestamp();
        // tokens of about 3 KB: cacheable, but the budget holds fewer of them than the capacity
        let bio = "x".repeat(2000);
        for i in 0..CAPACITY {
            let claims = serde_json::json!({"role":"anon","sub": i.to_string(),"bio": bio,"exp": now + 60});
            cache.identify(&bearer(&keys.sign(&claims).unwrap()), &keys, &config()).unwrap();
        }
        assert!(cache.bytes() <= BYTE_BUDGET, "{} bytes", cache.bytes());
        assert!(cache.len() < CAPACITY && cache.len() > 100, "{} entries", cache.len());
        // above the cacheable size: verified, not kept
        let empty = IdentityCache::default();
        let big = serde_json::json!({"role":"anon","bio": "y".repeat(CACHEABLE_CREDENTIAL_BYTES),"exp": now + 60});
        let token = keys.sign(&big).unwrap();
        assert!(token.len() <= super::super::MAX_CREDENTIAL_BYTES);
        assert!(empty.identify(&bearer(&token), &keys, &config()).is_ok());
        assert!(empty.is_empty());
    }

    #[test]
    fn oversized_credentials_are_refused_before_any_work() {
        let cache = IdentityCache::default();
        let keys = keyset();
        let junk = "j".repeat(super::super::MAX_CREDENTIAL_BYTES + 1);
        let mut headers = HeaderMap::new();
        headers.insert("apikey", junk.parse().unwrap());
        assert_eq!(cache.identify(&headers, &keys, &config()), Err(Rejection::TooLarge));
        assert_eq!(cache.identify(&bearer(&junk), &keys, &config()), Err(Rejection::TooLarge));
        assert!(cache.is_empty());
    }
}
