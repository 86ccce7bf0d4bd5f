//! A bounded cache of verified identities, so a signed-in user's repeated requests skip signature verification.
//! Found by a 64-bit keyed hash of the credentials (Authorization and apikey exactly as sent) and the key set in
//! force; an entry is used only when the credentials it holds are byte-for-byte the ones presented and while its
//! token's `exp` (plus the 30 s leeway `identify` allows) has not passed, and is dropped otherwise. Failures are
//! never cached, nor credentials above [`CACHEABLE_CREDENTIAL_BYTES`] (they are verified each time). Bounded twice:
//! at most [`CAPACITY`] entries and [`BYTE_BUDGET`] bytes (each entry counted at an upper estimate of what it
//! holds); when full, the oldest entries go (FIFO), so memory stays flat under unique tokens of any size. Entries are
//! shared (`Arc`) with the claims already rendered as the JSON text `request.jwt.claims` gets, so a hit neither
//! copies the claims nor serialises them again.
//!
//! Why a wrong identity cannot come out of it: the hash only *finds* an entry; what *accepts* it is the full
//! comparison of the stored credentials with the presented ones (and the same key set, by address). Two different
//! tokens that share a hash therefore never share an identity: the second one misses, is verified itself and
//! replaces the first one's entry. The hash is foldhash's `quality::RandomState` (its secrets drawn at random per
//! process, every folded multiply mixed with them, so no list of inputs collides for every instance) rather than
//! std's SipHash, which cost a few thousand instructions per request over a whole token; nobody outside the process
//! can aim collisions at one entry to make it thrash, and even then the cost is a signature check per request, as
//! without the cache. The comparison does not stop at the first differing byte, so its timing says nothing about a
//! stored token. This replaced a SHA-256 of the credentials, which cost about as much CPU as the rest of a cached
//! GET; holding the credentials (at most 4 KiB, counted in the byte budget) is what makes the shorter hash safe.

use super::{check_size, identify, Rejection, Verified, APIKEY};
use crate::core::config::Config;
use crate::core::secret_eq::same_bytes;
use foldhash::quality::RandomState;
use http::{HeaderMap, HeaderName};
use jwks::KeySet;
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex};

/// Entries kept at most.
pub const CAPACITY: usize = 1000;
/// Bytes the entries may hold together (an upper estimate per entry, [`entry_cost`]).
pub const BYTE_BUDGET: usize = 8 * 1024 * 1024;
/// Credentials (Authorization and apikey together) longer than this are verified every time, never cached.
pub const CACHEABLE_CREDENTIAL_BYTES: usize = 4 * 1024;
const LEEWAY_SECS: i64 = 30;

/// What a cache entry is found by (not what it is accepted by): a keyed hash of the key set's address and the
/// credentials.
type Key = u64;

/// The credentials exactly as sent, as an entry holds them (`split` keeps `("ab", "c")` and `("a", "bc")` apart).
struct Credentials {
    bytes: Box<[u8]>,
    split: usize,
}

impl Credentials {
    fn new(authorization: &str, apikey: &str) -> Self {
        let bytes = [authorization.as_bytes(), apikey.as_bytes()].concat().into_boxed_slice();
        Credentials { bytes, split: authorization.len() }
    }

    /// Whether these are exactly `authorization` and `apikey`, compared without stopping at the first difference.
    fn matches(&self, authorization: &str, apikey: &str) -> bool {
        let (a, k) = self.bytes.split_at(self.split);
        same_bytes(a, authorization.as_bytes()) & same_bytes(k, apikey.as_bytes())
    }
}

/// The map's hasher for [`Key`]s, which are already keyed hashes: passed through rather than hashed again.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// An upper estimate of the memory an entry holds: the claims as JSON text and parsed (a tree of maps, strings and
/// values, several times the text), the role, the credentials, the map's and the queue's slots and the allocator's
/// overhead — calibrated on the soak's measurement of about 6 KB per identity for a typical 700-byte claims set.
fn entry_cost(verified: &Verified, credentials: &Credentials) -> usize {
    6 * verified.claims_json.len() + verified.identity.role.len() + credentials.bytes.len() + 1024
}

/// A verified identity with the credentials it was verified from and the key set it was verified against (held,
/// so its address is never reused by another key set while the entry lives — a rotated set never matches an entry
/// of the old one).
struct Entry {
    keys: Arc<KeySet>,
    credentials: Credentials,
    verified: Arc<Verified>,
    exp: i64,
    cost: usize,
}

#[derive(Default)]
struct Inner {
    entries: HashMap<Key, Entry, BuildHasherDefault<PassThrough>>,
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
    /// The hash's keys, random per process.
    state: RandomState,
    /// Tests only: every credential gets the same key, as if every hash collided.
    #[cfg(test)]
    collide: bool,
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
        let header = |n: &HeaderName| headers.get(n).and_then(|v| v.to_str().ok()).unwrap_or("");
        let (authorization, apikey) = (header(&http::header::AUTHORIZATION), header(&APIKEY));
        if authorization.is_empty() && apikey.is_empty() {
            return identify(headers, keys, config).map(Verified::new);
        }
        if authorization.len() + apikey.len() > CACHEABLE_CREDENTIAL_BYTES {
            return identify(headers, keys, config).map(Verified::new);
        }
        let k = self.key(keys, authorization, apikey);
        if let Some(verified) = self.lookup(k, keys, authorization, apikey) {
            return Ok(verified);
        }
        let identity = identify(headers, keys, config)?;
        let exp = identity.claims.get("exp").and_then(|v| v.as_i64()).filter(|_| identity.has_token);
        let verified = Verified::new(identity);
        if let Some(exp) = exp {
            let credentials = Credentials::new(authorization, apikey);
            let cost = entry_cost(&verified, &credentials);
            self.insert(k, Entry { keys: keys.clone(), credentials, verified: verified.clone(), exp, cost });
        }
        Ok(verified)
    }

    /// The keyed hash an entry for these credentials is found by.
    fn key(&self, keys: &Arc<KeySet>, authorization: &str, apikey: &str) -> Key {
        #[cfg(test)]
        if self.collide {
            return 0;
        }
        let mut hasher = self.state.build_hasher();
        hasher.write_usize(Arc::as_ptr(keys) as usize);
        hasher.write_usize(authorization.len());
        hasher.write(authorization.as_bytes());
        hasher.write(apikey.as_bytes());
        hasher.finish()
    }

    /// The entry for exactly these credentials and key set while its token is valid; an expired one is dropped.
    /// An entry found by the same hash for other credentials is left for `insert` to replace.
    fn lookup(&self, k: Key, keys: &Arc<KeySet>, authorization: &str, apikey: &str) -> Option<Arc<Verified>> {
        let now = chrono::Utc::now().timestamp();
        let mut inner = self.inner.lock().ok()?;
        match inner.entries.get(&k) {
            Some(e) if Arc::ptr_eq(&e.keys, keys) && e.credentials.matches(authorization, apikey) => {
                if now <= e.exp + LEEWAY_SECS {
                    return Some(e.verified.clone());
                }
                inner.remove(&k);
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

    /// Every hash colliding (the test hook): different credentials still never share an identity, whichever was
    /// cached first, and the same credentials under another key set or split differently never match.
    #[test]
    fn colliding_hashes_never_return_another_callers_identity() {
        let cache = IdentityCache { collide: true, ..IdentityCache::default() };
        let keys = keyset();
        let now = chrono::Utc::now().timestamp();
        let sign = |sub: &str| keys.sign(&serde_json::json!({"role":"authenticated","sub": sub,"exp": now + 60}));
        let (alice, bob) = (sign("alice").unwrap(), sign("bob").unwrap());
        let sub = |token: &str| {
            let verified = cache.identify(&bearer(token), &keys, &config()).unwrap();
            verified.identity.claims["sub"].as_str().unwrap().to_string()
        };
        for _ in 0..2 {
            assert_eq!(sub(&alice), "alice");
            assert_eq!(cache.len(), 1);
            assert_eq!(sub(&bob), "bob");
            assert_eq!(sub(&bob), "bob");
            assert_eq!(cache.len(), 1);
        }
        // a forged token colliding with a cached one is verified itself, and refused
        assert_eq!(sub(&alice), "alice");
        let forged = format!("{}x", &alice[..alice.len() - 1]);
        assert!(cache.identify(&bearer(&forged), &keys, &config()).is_err());
        assert_eq!(sub(&alice), "alice");
    }

    #[test]
    fn credentials_match_only_exactly_as_sent() {
        let c = Credentials::new("Bearer ab", "c");
        assert!(c.matches("Bearer ab", "c"));
        assert!(!c.matches("Bearer a", "bc"));
        assert!(!c.matches("Bearer ab", ""));
        assert!(!c.matches("Bearer ac", "c"));
        assert!(!c.matches("Bearer ab", "cc"));
        assert!(Credentials::new("", "").matches("", ""));
    }

    #[test]
    fn keys_depend_on_every_credential_byte_and_the_key_set() {
        let cache = IdentityCache::default();
        let (a, b) = (keyset(), keyset());
        let k = |keys: &Arc<KeySet>, auth: &str, apikey: &str| cache.key(keys, auth, apikey);
        assert_eq!(k(&a, "Bearer x", "k"), k(&a, "Bearer x", "k"));
        assert_ne!(k(&a, "Bearer x", "k"), k(&b, "Bearer x", "k"));
        assert_ne!(k(&a, "Bearer x", "k"), k(&a, "Bearer xk", ""));
        assert_ne!(k(&a, "Bearer x", "k"), k(&a, "Bearer y", "k"));
        // another cache (process) has other hash keys
        assert_ne!(k(&a, "Bearer x", "k"), IdentityCache::default().key(&a, "Bearer x", "k"));
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
