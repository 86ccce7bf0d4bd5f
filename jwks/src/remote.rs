//! A caching client for a remote JWKS URL (e.g. `https://<project>/auth/v1/.well-known/jwks.json`): verifies
//! tokens by `kid` with the algorithm each published key names, keeps the document for its `Cache-Control`
//! `max-age`, and refetches early when a token names an unknown `kid` — at most once per `min_refresh`.

use crate::set::verify_with;
use crate::{Error, ErrorKind, VerifyOptions};
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{decode_header, Algorithm, DecodingKey};
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Mutex;

/// Settings of a [`RemoteJwks`].
#[derive(Debug, Clone)]
pub struct RemoteOptions {
    /// How long a document is kept when the response has no `Cache-Control: max-age`.
    pub default_max_age: Duration,
    /// The shortest time between two fetches caused by unknown `kid`s (protects the issuer from token floods).
    pub min_refresh: Duration,
    /// Request timeout.
    pub timeout: Duration,
}

impl Default for RemoteOptions {
    fn default() -> Self {
        RemoteOptions {
            default_max_age: Duration::from_secs(600),
            min_refresh: Duration::from_secs(30),
            timeout: Duration::from_secs(10),
        }
    }
}

struct Cached {
    keys: HashMap<String, (Algorithm, Arc<DecodingKey>)>,
    fetched_at: Instant,
    max_age: Duration,
}

/// A remote JWKS document, fetched lazily and cached.
pub struct RemoteJwks {
    url: String,
    http: reqwest::Client,
    options: RemoteOptions,
    cache: Mutex<Option<Cached>>,
    fetches: std::sync::atomic::AtomicUsize,
}

impl std::fmt::Debug for RemoteJwks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteJwks").field("url", &self.url).finish_non_exhaustive()
    }
}

/// Reads `max-age` from a `Cache-Control` value (`no-store`/`no-cache` mean zero).
pub fn cache_max_age(cache_control: &str) -> Option<Duration> {
    let mut age = None;
    for directive in cache_control.split(',').map(|d| d.trim().to_ascii_lowercase()) {
        if directive == "no-store" || directive == "no-cache" {
            return Some(Duration::ZERO);
        }
        if let Some(v) = directive.strip_prefix("max-age=") {
            age = v.trim_matches('"').parse::<u64>().ok().map(Duration::from_secs);
        }
    }
    age
}

fn tls_config() -> Result<rustls::ClientConfig, Error> {
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
    Ok(rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::from(ErrorKind::Fetch(e.to_string())))?
        .with_root_certificates(roots)
        .with_no_client_auth())
}

impl RemoteJwks {
    /// A client for `url` (http or https; https uses rustls with the Mozilla roots).
    pub fn new(url: &str, options: RemoteOptions) -> Result<Self, Error> {
        let http = reqwest::Client::builder()
            .use_preconfigured_tls(tls_config()?)
            .timeout(options.timeout)
            .build()
            .map_err(|e| Error::from(ErrorKind::Fetch(e.to_string())))?;
        Ok(RemoteJwks {
            url: url.to_string(),
            http,
            options,
            cache: Mutex::new(None),
            fetches: std::sync::atomic::AtomicUsize::new(0),
        })
    }

    /// How many times the document has been fetched (for monitoring and tests).
    pub fn fetch_count(&self) -> usize {
        self.fetches.load(std::sync::atomic::Ordering::Relaxed)
    }

    async fn fetch(&self) -> Result<Cached, Error> {
        self.fetches.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let fetch_err = |e: reqwest::Error| Error::from(ErrorKind::Fetch(e.to_string()));
        let res = self.http.get(&self.url).send().await.map_err(fetch_err)?;
        if !res.status().is_success() {
            return Err(ErrorKind::Fetch(format!("HTTP {}", res.status())).into());
        }
        let max_age = res
            .headers()
            .get(reqwest::header::CACHE_CONTROL)
            .and_then(|v| v.to_str().ok())
            .and_then(cache_max_age)
            .unwrap_or(self.options.default_max_age);
        let set: JwkSet = res.json().await.map_err(fetch_err)?;
        let keys = set.keys.iter().filter_map(usable_key).collect();
        Ok(Cached { keys, fetched_at: Instant::now(), max_age })
    }

    /// The verification key and pinned algorithm for `kid`, fetching the document when it is stale or the `kid`
    /// is unknown (unknown-`kid` refetches are rate limited by `min_refresh`).
    pub async fn key(&self, kid: &str) -> Result<(Algorithm, Arc<DecodingKey>), Error> {
        let mut cache = self.cache.lock().await;
        let now = Instant::now();
        let (fresh, known, may_refetch) = match cache.as_ref() {
            Some(c) => (
                now.duration_since(c.fetched_at) < c.max_age,
                c.keys.contains_key(kid),
                now.duration_since(c.fetched_at) >= self.options.min_refresh,
            ),
            None => (false, false, true),
        };
        if !fresh || (!known && may_refetch) {
            match self.fetch().await {
                Ok(c) => *cache = Some(c),
                // Keep serving a stale document when the issuer is briefly unreachable.
                Err(e) if cache.is_none() => return Err(e),
                Err(_) => {}
            }
        }
        cache.as_ref().and_then(|c| c.keys.get(kid).cloned()).ok_or_else(|| Error::from(ErrorKind::UnknownKid))
    }

    /// Verifies a token against the remote key named by its `kid`, with that key's algorithm only.
    pub async fn verify<C: DeserializeOwned>(&self, token: &str, options: &VerifyOptions) -> Result<C, Error> {
        let header = decode_header(token).map_err(|_| Error::from(ErrorKind::Malformed))?;
        let kid = header.kid.as_deref().ok_or_else(|| Error::from(ErrorKind::UnknownKid))?;
        let (algorithm, key) = self.key(kid).await?;
        if header.alg != algorithm {
            return Err(ErrorKind::AlgorithmNotAllowed(format!("{:?}", header.alg)).into());
        }
        verify_with(token, algorithm, &key, options)
    }
}

/// A published key we can verify with: asymmetric, with a `kid` and an algorithm (named, or implied by the curve).
fn usable_key(jwk: &Jwk) -> Option<(String, (Algorithm, Arc<DecodingKey>))> {
    use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, KeyAlgorithm as A};
    let kid = jwk.common.key_id.clone()?;
    let algorithm = match (&jwk.common.key_algorithm, &jwk.algorithm) {
        (Some(A::ES256), AlgorithmParameters::EllipticCurve(_)) => Algorithm::ES256,
        (Some(A::RS256), AlgorithmParameters::RSA(_)) => Algorithm::RS256,
        (None, AlgorithmParameters::EllipticCurve(p)) if p.curve == EllipticCurve::P256 => Algorithm::ES256,
        (None, AlgorithmParameters::RSA(_)) => Algorithm::RS256,
        _ => return None,
    };
    let key = DecodingKey::from_jwk(jwk).ok()?;
    Some((kid, (algorithm, Arc::new(key))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{KeySet, KeyStatus, SigningKey};
    use serde_json::{json, Value};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A one-route HTTP server answering with the current document of `docs` (its index moves on each hit).
    async fn serve(docs: Arc<std::sync::Mutex<String>>, cache_control: &'static str) -> (String, Arc<AtomicUsize>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let hits = Arc::new(AtomicUsize::new(0));
        let counter = hits.clone();
        tokio::spawn(async move {
            while let Ok((mut sock, _)) = listener.accept().await {
                let mut buf = [0u8; 4096];
                let _ = sock.read(&mut buf).await;
                counter.fetch_add(1, Ordering::SeqCst);
                let body = docs.lock().unwrap().clone();
                let resp = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncache-control: {cache_control}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = sock.write_all(resp.as_bytes()).await;
            }
        });
        (format!("http://{addr}/jwks.json"), hits)
    }

    fn now() -> u64 {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
    }

    #[test]
    fn parses_cache_control() {
        assert_eq!(cache_max_age("public, max-age=600"), Some(Duration::from_secs(600)));
        assert_eq!(cache_max_age("no-store"), Some(Duration::ZERO));
        assert_eq!(cache_max_age("public"), None);
    }

    #[tokio::test]
    async fn verifies_from_the_cache_and_refetches_once_for_an_unknown_kid() {
        let first = SigningKey::generate_es256(KeyStatus::Current).unwrap();
        let set = KeySet::new(vec![first.clone()]);
        let docs = Arc::new(std::sync::Mutex::new(set.jwks_document().to_string()));
        let (url, hits) = serve(docs.clone(), "public, max-age=600").await;
        let remote =
            RemoteJwks::new(&url, RemoteOptions { min_refresh: Duration::ZERO, ..Default::default() }).unwrap();
        let token = set.sign(&json!({"sub": "a", "exp": now() + 60})).unwrap();
        for _ in 0..3 {
            let claims: Value = remote.verify(&token, &VerifyOptions::default()).await.unwrap();
            assert_eq!(claims["sub"], "a");
        }
        assert_eq!(hits.load(Ordering::SeqCst), 1, "cached for max-age");

        // Rotation: a new key appears in the document; a token with its kid triggers one refetch.
        let second = SigningKey::generate(crate::KeyAlgorithm::Rs256, KeyStatus::Current).unwrap();
        let rotated = KeySet::new(vec![first.with_status(KeyStatus::Previous), second]);
        *docs.lock().unwrap() = rotated.jwks_document().to_string();
        let new_token = rotated.sign(&json!({"sub": "b", "exp": now() + 60})).unwrap();
        let claims: Value = remote.verify(&new_token, &VerifyOptions::default()).await.unwrap();
        assert_eq!(claims["sub"], "b");
        assert_eq!(hits.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn unknown_kid_refetches_are_rate_limited_and_forged_tokens_fail() {
        let key = SigningKey::generate_es256(KeyStatus::Current).unwrap();
        let set = KeySet::new(vec![key]);
        let docs = Arc::new(std::sync::Mutex::new(set.jwks_document().to_string()));
        let (url, hits) = serve(docs, "public, max-age=600").await;
        let remote = RemoteJwks::new(&url, RemoteOptions::default()).unwrap();
        let stranger = KeySet::new(vec![SigningKey::generate_es256(KeyStatus::Current).unwrap()]);
        let forged = stranger.sign(&json!({"exp": now() + 60})).unwrap();
        for _ in 0..5 {
            let err = remote.verify::<Value>(&forged, &VerifyOptions::default()).await.unwrap_err();
            assert_eq!(err.kind(), &ErrorKind::UnknownKid);
        }
        assert_eq!(hits.load(Ordering::SeqCst), 1, "unknown kids must not cause a fetch per token");
    }
}
