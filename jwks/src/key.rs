//! One signing key: its material, algorithm, `kid` and lifecycle status. Asymmetric keys (ES256, RS256) are kept as
//! PKCS#8 and publish a public JWK; a symmetric key (HS256, `kty: oct`, as Supabase Auth accepts in
//! `GOTRUE_JWT_KEYS`) is kept as its secret and is never published.

use crate::der;
use crate::error::key_error;
use crate::{Error, ErrorKind};
use aws_lc_rs::encoding::AsDer;
use aws_lc_rs::rsa::{KeyPair as RsaKeyPair, KeySize};
use aws_lc_rs::signature::{EcdsaKeyPair, ECDSA_P256_SHA256_FIXED_SIGNING};
use jsonwebtoken::jwk::{Jwk, KeyOperations, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey};

/// The signing algorithms a key can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyAlgorithm {
    /// ECDSA on P-256 with SHA-256 (the default, as Supabase's asymmetric keys).
    Es256,
    /// RSASSA-PKCS1-v1_5 with SHA-256 (2048-bit keys when generated).
    Rs256,
    /// HMAC with SHA-256 over a shared secret (`kty: oct`): signs and verifies, never published.
    Hs256,
}

impl KeyAlgorithm {
    /// The JOSE name (`ES256`, `RS256`).
    pub fn as_str(self) -> &'static str {
        match self {
            KeyAlgorithm::Es256 => "ES256",
            KeyAlgorithm::Rs256 => "RS256",
            KeyAlgorithm::Hs256 => "HS256",
        }
    }

    /// Parses a JOSE name (case-insensitive).
    pub fn parse(s: &str) -> Result<Self, Error> {
        match s.to_ascii_uppercase().as_str() {
            "ES256" => Ok(KeyAlgorithm::Es256),
            "RS256" => Ok(KeyAlgorithm::Rs256),
            "HS256" => Ok(KeyAlgorithm::Hs256),
            _ => Err(ErrorKind::AlgorithmNotAllowed(s.to_string()).into()),
        }
    }

    /// The jsonwebtoken algorithm.
    pub fn jwt(self) -> Algorithm {
        match self {
            KeyAlgorithm::Es256 => Algorithm::ES256,
            KeyAlgorithm::Rs256 => Algorithm::RS256,
            KeyAlgorithm::Hs256 => Algorithm::HS256,
        }
    }

    /// Whether keys of this algorithm are shared secrets (never published).
    pub fn is_symmetric(self) -> bool {
        self == KeyAlgorithm::Hs256
    }
}

/// Where a key is in its lifecycle: standby → current → previous → revoked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyStatus {
    /// Published in the JWKS so verifiers learn it before it signs anything.
    Standby,
    /// Signs new tokens; published.
    Current,
    /// No longer signs; still verifies tokens it signed; published.
    Previous,
    /// Neither signs nor verifies; not published.
    Revoked,
}

impl KeyStatus {
    /// The stored name (`standby`, `current`, `previous`, `revoked`).
    pub fn as_str(self) -> &'static str {
        match self {
            KeyStatus::Standby => "standby",
            KeyStatus::Current => "current",
            KeyStatus::Previous => "previous",
            KeyStatus::Revoked => "revoked",
        }
    }

    /// Parses a stored name.
    pub fn parse(s: &str) -> Result<Self, Error> {
        match s {
            "standby" => Ok(KeyStatus::Standby),
            "current" => Ok(KeyStatus::Current),
            "previous" => Ok(KeyStatus::Previous),
            "revoked" => Ok(KeyStatus::Revoked),
            other => Err(key_error(format!("unknown key status {other}"))),
        }
    }

    /// Whether tokens signed by a key in this status still verify (and the key is published).
    pub fn verifies(self) -> bool {
        !matches!(self, KeyStatus::Revoked)
    }
}

/// A private signing key with its `kid`, algorithm and status.
#[derive(Clone)]
pub struct SigningKey {
    kid: String,
    algorithm: KeyAlgorithm,
    status: KeyStatus,
    /// PKCS#8 DER for ES256 and RS256; the secret itself for HS256.
    material: Vec<u8>,
    encoding: EncodingKey,
    decoding: DecodingKey,
    /// `None` for a symmetric key: it has no public half.
    public_jwk: Option<Jwk>,
}

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SigningKey")
            .field("kid", &self.kid)
            .field("algorithm", &self.algorithm)
            .field("status", &self.status)
            .finish_non_exhaustive()
    }
}

impl SigningKey {
    /// Generates a fresh key of the given algorithm with a random `kid`.
    pub fn generate(algorithm: KeyAlgorithm, status: KeyStatus) -> Result<Self, Error> {
        let der = match algorithm {
            KeyAlgorithm::Es256 => {
                let rng = aws_lc_rs::rand::SystemRandom::new();
                EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng)
                    .map_err(key_error)?
                    .as_ref()
                    .to_vec()
            }
            KeyAlgorithm::Rs256 => {
                let pair = RsaKeyPair::generate(KeySize::Rsa2048).map_err(key_error)?;
                pair.as_der().map_err(key_error)?.as_ref().to_vec()
            }
            KeyAlgorithm::Hs256 => {
                let mut secret = vec![0u8; 64];
                aws_lc_rs::rand::fill(&mut secret).map_err(key_error)?;
                secret
            }
        };
        Self::from_pkcs8_der(&uuid::Uuid::new_v4().to_string(), algorithm, status, &der)
    }

    /// Generates a fresh ES256 key with a random `kid`.
    pub fn generate_es256(status: KeyStatus) -> Result<Self, Error> {
        Self::generate(KeyAlgorithm::Es256, status)
    }

    /// A symmetric HS256 key from its secret (a JWK's decoded `k`).
    pub fn from_secret(kid: &str, status: KeyStatus, secret: &[u8]) -> Result<Self, Error> {
        if secret.is_empty() {
            return Err(key_error("an HS256 key needs a non-empty secret"));
        }
        Ok(SigningKey {
            kid: kid.to_string(),
            algorithm: KeyAlgorithm::Hs256,
            status,
            material: secret.to_vec(),
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            public_jwk: None,
        })
    }

    /// Builds a key from its stored form: PKCS#8 DER private-key bytes for ES256 and RS256, the secret for HS256.
    pub fn from_pkcs8_der(kid: &str, algorithm: KeyAlgorithm, status: KeyStatus, der: &[u8]) -> Result<Self, Error> {
        if algorithm == KeyAlgorithm::Hs256 {
            return Self::from_secret(kid, status, der);
        }
        if der::pkcs8_algorithm(der)? != algorithm {
            return Err(key_error(format!("the key material is not an {} key", algorithm.as_str())));
        }
        let key_err = |e: jsonwebtoken::errors::Error| key_error(e);
        let encoding = match algorithm {
            KeyAlgorithm::Es256 => {
                EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, der).map_err(key_error)?;
                EncodingKey::from_ec_der(der)
            }
            KeyAlgorithm::Rs256 => {
                let pkcs1 = der::pkcs8_to_pkcs1(der)?;
                RsaKeyPair::from_der(&pkcs1).map_err(key_error)?;
                EncodingKey::from_rsa_der(&pkcs1)
            }
            KeyAlgorithm::Hs256 => unreachable!("handled above"),
        };
        let mut public_jwk = Jwk::from_encoding_key(&encoding, algorithm.jwt()).map_err(key_err)?;
        public_jwk.common.key_id = Some(kid.to_string());
        public_jwk.common.public_key_use = Some(PublicKeyUse::Signature);
        public_jwk.common.key_operations = Some(vec![KeyOperations::Verify]);
        let decoding = DecodingKey::from_jwk(&public_jwk).map_err(key_err)?;
        Ok(SigningKey {
            kid: kid.to_string(),
            algorithm,
            status,
            material: der.to_vec(),
            encoding,
            decoding,
            public_jwk: Some(public_jwk),
        })
    }

    /// The key id published as `kid`.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    /// The signing algorithm.
    pub fn algorithm(&self) -> KeyAlgorithm {
        self.algorithm
    }

    /// The lifecycle status.
    pub fn status(&self) -> KeyStatus {
        self.status
    }

    /// Returns the same key in another status.
    pub fn with_status(mut self, status: KeyStatus) -> Self {
        self.status = status;
        self
    }

    /// The stored form of the key: PKCS#8 DER for ES256 and RS256, the secret for HS256. Never publish it.
    pub fn pkcs8_der(&self) -> &[u8] {
        &self.material
    }

    /// The public JWK (no private members), with `kid`, `use: sig`, `key_ops: [verify]` and `alg`; `None` for a
    /// symmetric key, which has nothing that may be published.
    pub fn public_jwk(&self) -> Option<&Jwk> {
        self.public_jwk.as_ref()
    }

    pub(crate) fn encoding(&self) -> &EncodingKey {
        &self.encoding
    }

    pub(crate) fn decoding(&self) -> &DecodingKey {
        &self.decoding
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_of_both_algorithms_publish_public_members() {
        for alg in [KeyAlgorithm::Es256, KeyAlgorithm::Rs256] {
            let key = SigningKey::generate(alg, KeyStatus::Standby).unwrap();
            let jwk = serde_json::to_value(key.public_jwk().unwrap()).unwrap();
            assert_eq!(jwk["alg"], alg.as_str());
            assert_eq!(jwk["kid"], key.kid());
            assert!(jwk.get("d").is_none() && jwk.get("p").is_none());
            let again = SigningKey::from_pkcs8_der(key.kid(), alg, KeyStatus::Current, key.pkcs8_der()).unwrap();
            assert_eq!(again.public_jwk(), key.public_jwk());
        }
    }

    #[test]
    fn symmetric_keys_have_no_public_jwk() {
        let key = SigningKey::generate(KeyAlgorithm::Hs256, KeyStatus::Current).unwrap();
        assert!(key.public_jwk().is_none());
        assert_eq!(key.pkcs8_der().len(), 64);
        assert!(SigningKey::from_secret("k", KeyStatus::Current, b"").is_err());
    }

    #[test]
    fn refuses_material_of_the_wrong_algorithm() {
        let es = SigningKey::generate_es256(KeyStatus::Current).unwrap();
        assert!(SigningKey::from_pkcs8_der("k", KeyAlgorithm::Rs256, KeyStatus::Current, es.pkcs8_der()).is_err());
        assert!(KeyAlgorithm::parse("HS512").is_err());
        assert_eq!(KeyAlgorithm::parse("hs256").unwrap(), KeyAlgorithm::Hs256);
        assert_eq!(KeyAlgorithm::parse("rs256").unwrap(), KeyAlgorithm::Rs256);
    }
}
