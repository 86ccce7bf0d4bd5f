//! A set of keys: signs with the current one, verifies by `kid`, publishes the JWKS document.

use crate::{Error, ErrorKind, KeyStatus, SigningKey};
use jsonwebtoken::{decode, decode_header, encode, Algorithm, DecodingKey, Header, Validation};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// What verification checks beyond the signature.
#[derive(Debug, Clone)]
pub struct VerifyOptions {
    /// Accepted clock skew in seconds for `exp`, `nbf` and `iat`.
    pub leeway_secs: u64,
    /// Audiences accepted; `None` skips the `aud` check.
    pub audience: Option<Vec<String>>,
    /// Claims that must be present.
    pub required_claims: Vec<String>,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions { leeway_secs: 30, audience: None, required_claims: vec!["exp".into()] }
    }
}

/// A key set with an optional legacy HS256 secret.
#[derive(Debug, Clone, Default)]
pub struct KeySet {
    keys: Vec<SigningKey>,
    legacy_secret: Option<Vec<u8>>,
}

impl KeySet {
    /// A key set over the given keys.
    pub fn new(keys: Vec<SigningKey>) -> Self {
        KeySet { keys, legacy_secret: None }
    }

    /// Also accepts HS256 tokens signed with this shared secret (Supabase's legacy JWT secret).
    pub fn with_legacy_secret(mut self, secret: Option<Vec<u8>>) -> Self {
        self.legacy_secret = secret.filter(|s| !s.is_empty());
        self
    }

    /// All keys, in every status.
    pub fn keys(&self) -> &[SigningKey] {
        &self.keys
    }

    /// The key that signs new tokens.
    pub fn current(&self) -> Option<&SigningKey> {
        self.keys.iter().find(|k| k.status() == KeyStatus::Current)
    }

    /// Signs claims with the current key, setting `kid` and `typ: JWT` in the header.
    pub fn sign<C: Serialize>(&self, claims: &C) -> Result<String, Error> {
        let key = self.current().ok_or_else(|| Error::from(ErrorKind::NoSigningKey))?;
        let mut header = Header::new(key.algorithm().jwt());
        header.kid = Some(key.kid().to_string());
        header.typ = Some("JWT".into());
        encode(&header, claims, key.encoding()).map_err(|e| ErrorKind::Key(e.to_string()).into())
    }

    /// Verifies a token: the algorithm is pinned by the key the `kid` names (HS256 only with a legacy secret).
    pub fn verify<C: DeserializeOwned>(&self, token: &str, options: &VerifyOptions) -> Result<C, Error> {
        let header = decode_header(token).map_err(|_| Error::from(ErrorKind::Malformed))?;
        let (algorithm, key): (Algorithm, &DecodingKey) = match header.alg {
            Algorithm::HS256 => {
                // The symmetric key the `kid` names, else the legacy secret (tokens without a `kid`), as GoTrue.
                let named = header.kid.as_deref().and_then(|kid| {
                    self.keys.iter().find(|k| k.kid() == kid && k.algorithm().is_symmetric() && k.status().verifies())
                });
                if let Some(key) = named {
                    return verify_with(token, Algorithm::HS256, key.decoding(), options);
                }
                let Some(secret) = &self.legacy_secret else {
                    return Err(ErrorKind::AlgorithmNotAllowed("HS256".into()).into());
                };
                return verify_with(token, Algorithm::HS256, &DecodingKey::from_secret(secret), options);
            }
            Algorithm::ES256 | Algorithm::RS256 => {
                let kid = header.kid.as_deref().ok_or_else(|| Error::from(ErrorKind::UnknownKid))?;
                let key = self
                    .keys
                    .iter()
                    .find(|k| k.kid() == kid && k.status().verifies())
                    .ok_or_else(|| Error::from(ErrorKind::UnknownKid))?;
                if key.algorithm().jwt() != header.alg {
                    return Err(ErrorKind::AlgorithmNotAllowed(format!("{:?}", header.alg)).into());
                }
                (header.alg, key.decoding())
            }
            other => return Err(ErrorKind::AlgorithmNotAllowed(format!("{other:?}")).into()),
        };
        verify_with(token, algorithm, key, options)
    }

    /// The key with this `kid`, in any status.
    pub fn key(&self, kid: &str) -> Option<&SigningKey> {
        self.keys.iter().find(|k| k.kid() == kid)
    }

    /// Whether HS256 tokens signed with a legacy secret are accepted.
    pub fn has_legacy_secret(&self) -> bool {
        self.legacy_secret.is_some()
    }

    /// A short description of the keys and their statuses, to tell whether a reload changed anything.
    pub fn fingerprint(&self) -> String {
        self.keys.iter().map(|k| format!("{}:{};", k.kid(), k.status().as_str())).collect()
    }

    /// The public JWKS document: every asymmetric key that still verifies, public members only (a symmetric key
    /// is never published).
    pub fn jwks_document(&self) -> serde_json::Value {
        let keys: Vec<serde_json::Value> = self
            .keys
            .iter()
            .filter(|k| k.status().verifies())
            .filter_map(|k| k.public_jwk())
            .filter_map(|jwk| serde_json::to_value(jwk).ok())
            .collect();
        serde_json::json!({ "keys": keys })
    }
}

pub(crate) fn verify_with<C: DeserializeOwned>(
    token: &str,
    algorithm: Algorithm,
    key: &DecodingKey,
    options: &VerifyOptions,
) -> Result<C, Error> {
    let mut validation = Validation::new(algorithm);
    validation.leeway = options.leeway_secs;
    validation.validate_nbf = true;
    validation.set_required_spec_claims(&options.required_claims);
    match &options.audience {
        Some(aud) => validation.set_audience(aud),
        None => validation.validate_aud = false,
    }
    decode::<C>(token, key, &validation).map(|d| d.claims).map_err(|e| {
        use jsonwebtoken::errors::ErrorKind as J;
        let kind = match e.kind() {
            J::InvalidSignature => ErrorKind::InvalidSignature,
            J::ExpiredSignature => ErrorKind::Expired,
            J::ImmatureSignature => ErrorKind::NotYetValid,
            J::InvalidAudience => ErrorKind::InvalidAudience,
            J::MissingRequiredClaim(c) => ErrorKind::InvalidClaims(format!("missing {c}")),
            J::InvalidAlgorithm => ErrorKind::AlgorithmNotAllowed(format!("{algorithm:?}")),
            J::Json(_) => ErrorKind::InvalidClaims("claims are not valid JSON of the expected types".into()),
            _ => ErrorKind::Malformed,
        };
        Error::from(kind)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn now() -> u64 {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
    }

    #[test]
    fn signs_and_verifies_with_the_current_key() {
        let set = KeySet::new(vec![SigningKey::generate_es256(KeyStatus::Current).unwrap()]);
        let token = set.sign(&json!({"sub": "u1", "role": "authenticated", "exp": now() + 60})).unwrap();
        let claims: Value = set.verify(&token, &VerifyOptions::default()).unwrap();
        assert_eq!(claims["sub"], "u1");
    }

    #[test]
    fn rejects_tokens_of_a_revoked_key_and_unknown_kid() {
        let key = SigningKey::generate_es256(KeyStatus::Current).unwrap();
        let set = KeySet::new(vec![key.clone()]);
        let token = set.sign(&json!({"exp": now() + 60})).unwrap();
        let revoked = KeySet::new(vec![key.with_status(KeyStatus::Revoked)]);
        let err = revoked.verify::<Value>(&token, &VerifyOptions::default()).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::UnknownKid);
    }

    #[test]
    fn rejects_hs256_without_a_legacy_secret_and_expired_tokens() {
        let set = KeySet::new(vec![SigningKey::generate_es256(KeyStatus::Current).unwrap()]);
        let hs = encode(
            &Header::new(Algorithm::HS256),
            &json!({"exp": now() + 60}),
            &jsonwebtoken::EncodingKey::from_secret(b"s"),
        )
        .unwrap();
        assert!(matches!(
            set.verify::<Value>(&hs, &VerifyOptions::default()).unwrap_err().kind(),
            ErrorKind::AlgorithmNotAllowed(_)
        ));
        let old = set.sign(&json!({"exp": now() - 3600})).unwrap();
        assert_eq!(set.verify::<Value>(&old, &VerifyOptions::default()).unwrap_err().kind(), &ErrorKind::Expired);
    }

    #[test]
    fn symmetric_keys_sign_and_verify_by_kid_and_stay_out_of_the_jwks() {
        let oct = SigningKey::from_secret("hs", KeyStatus::Current, b"a-long-shared-secret-of-32-bytes").unwrap();
        let es = SigningKey::generate_es256(KeyStatus::Previous).unwrap();
        let set = KeySet::new(vec![oct, es.clone()]);
        let token = set.sign(&json!({"sub": "u1", "exp": now() + 60})).unwrap();
        let header = decode_header(&token).unwrap();
        assert_eq!((header.alg, header.kid.as_deref()), (Algorithm::HS256, Some("hs")));
        assert_eq!(set.verify::<Value>(&token, &VerifyOptions::default()).unwrap()["sub"], "u1");
        let doc = set.jwks_document();
        assert_eq!(doc["keys"].as_array().unwrap().len(), 1);
        assert_eq!(doc["keys"][0]["kid"], es.kid());
        // Without a kid an HS256 token needs the legacy secret; another secret never verifies.
        let plain = encode(
            &Header::new(Algorithm::HS256),
            &json!({"exp": now() + 60}),
            &jsonwebtoken::EncodingKey::from_secret(b"a-long-shared-secret-of-32-bytes"),
        )
        .unwrap();
        assert!(set.verify::<Value>(&plain, &VerifyOptions::default()).is_err());
        let legacy = set.clone().with_legacy_secret(Some(b"a-long-shared-secret-of-32-bytes".to_vec()));
        assert!(legacy.verify::<Value>(&plain, &VerifyOptions::default()).is_ok());
    }

    #[test]
    fn jwks_document_has_public_members_only() {
        let set = KeySet::new(vec![SigningKey::generate_es256(KeyStatus::Current).unwrap()]);
        let doc = set.jwks_document();
        let k = &doc["keys"][0];
        assert_eq!(k["kty"], "EC");
        assert_eq!(k["alg"], "ES256");
        assert_eq!(k["use"], "sig");
        assert_eq!(k["key_ops"], json!(["verify"]));
        assert!(k.get("d").is_none());
    }

    #[test]
    fn pins_the_algorithm_of_the_kid_and_refuses_none_and_hs_confusion() {
        let rsa = SigningKey::generate(crate::KeyAlgorithm::Rs256, KeyStatus::Current).unwrap();
        let set = KeySet::new(vec![rsa.clone()]);
        // alg=none with an empty signature.
        let b64 = |v: Value| {
            use base64::Engine;
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string())
        };
        let none = format!("{}.{}.", b64(json!({"alg": "none", "kid": rsa.kid()})), b64(json!({"exp": now() + 60})));
        assert!(set.verify::<Value>(&none, &VerifyOptions::default()).is_err());
        // HS256 signed with the public key's bytes as the secret.
        let n = serde_json::to_value(rsa.public_jwk().unwrap()).unwrap()["n"].as_str().unwrap().to_string();
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some(rsa.kid().into());
        let hs = encode(&header, &json!({"exp": now() + 60}), &jsonwebtoken::EncodingKey::from_secret(n.as_bytes()))
            .unwrap();
        assert!(set.verify::<Value>(&hs, &VerifyOptions::default()).is_err());
        // A string exp is not a missing exp (CVE-2026-25537).
        let s = set.sign(&json!({"exp": (now() - 3600).to_string()})).unwrap();
        assert!(set.verify::<Value>(&s, &VerifyOptions::default()).is_err());
        let standby = KeySet::new(vec![rsa.with_status(KeyStatus::Standby)]);
        assert_eq!(standby.sign(&json!({})).unwrap_err().kind(), &ErrorKind::NoSigningKey);
    }
}
