//! Import and export of private keys: JWK (Supabase Auth's `GOTRUE_JWT_KEYS`, a JSON array of private JWKs)
//! and PEM (PKCS#8 `PRIVATE KEY`, plus PKCS#1 `RSA PRIVATE KEY` and SEC1 `EC PRIVATE KEY` on import).

use crate::der::{self, RsaComponents};
use crate::error::key_error;
use crate::{Error, KeyAlgorithm, KeyStatus, SigningKey};
use aws_lc_rs::encoding::AsBigEndian;
use aws_lc_rs::signature::{EcdsaKeyPair, KeyPair, ECDSA_P256_SHA256_FIXED_SIGNING};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::{json, Map, Value};

fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

fn member(jwk: &Map<String, Value>, name: &str) -> Result<Vec<u8>, Error> {
    let text = jwk.get(name).and_then(Value::as_str).ok_or_else(|| key_error(format!("JWK lacks member {name}")))?;
    URL_SAFE_NO_PAD
        .decode(text.trim_end_matches('='))
        .map_err(|_| key_error(format!("JWK member {name} is not base64url")))
}

impl SigningKey {
    /// Imports a private JWK: EC P-256 (ES256), RSA (RS256) or a symmetric `oct` key (HS256, also when `alg` is
    /// absent, as Supabase Auth defaults it). Its status is `current` when `key_ops` contains `sign`, else
    /// `previous` (verify only), as Supabase Auth reads `GOTRUE_JWT_KEYS`. A missing `kid` gets a random one.
    pub fn from_private_jwk(jwk: &Value) -> Result<Self, Error> {
        let obj = jwk.as_object().ok_or_else(|| key_error("a JWK must be a JSON object"))?;
        let kty = obj.get("kty").and_then(Value::as_str).unwrap_or_default();
        let algorithm = match (obj.get("alg").and_then(Value::as_str), kty) {
            (Some(alg), _) => KeyAlgorithm::parse(alg)?,
            (None, "EC") => KeyAlgorithm::Es256,
            (None, "RSA") => KeyAlgorithm::Rs256,
            (None, "oct") => KeyAlgorithm::Hs256,
            (None, other) => return Err(key_error(format!("unsupported key type {other:?}"))),
        };
        let signs = obj
            .get("key_ops")
            .and_then(Value::as_array)
            .is_some_and(|ops| ops.iter().any(|o| o.as_str() == Some("sign")));
        let status = if signs { KeyStatus::Current } else { KeyStatus::Previous };
        let kid = obj
            .get("kid")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
        let material = stored_material(obj, algorithm, kty)?;
        SigningKey::from_pkcs8_der(&kid, algorithm, status, &material)
    }

    /// Exports the private JWK (for `GOTRUE_JWT_KEYS`): `key_ops` is `[sign, verify]` for the current key,
    /// `[verify]` otherwise. Contains private members: never publish it.
    pub fn to_private_jwk(&self) -> Result<Value, Error> {
        let ops = if self.status() == KeyStatus::Current { json!(["sign", "verify"]) } else { json!(["verify"]) };
        let mut jwk = match self.algorithm() {
            KeyAlgorithm::Es256 => {
                let pair =
                    EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, self.pkcs8_der()).map_err(key_error)?;
                let d = pair.private_key().as_be_bytes().map_err(key_error)?;
                let point = pair.public_key().as_ref();
                json!({"kty": "EC", "crv": "P-256", "x": b64(&point[1..33]), "y": b64(&point[33..65]), "d": b64(d.as_ref())})
            }
            KeyAlgorithm::Rs256 => {
                let c = der::rsa_components(&der::pkcs8_to_pkcs1(self.pkcs8_der())?)?;
                json!({"kty": "RSA", "n": b64(&c.n), "e": b64(&c.e), "d": b64(&c.d), "p": b64(&c.p), "q": b64(&c.q),
                       "dp": b64(&c.dp), "dq": b64(&c.dq), "qi": b64(&c.qi)})
            }
            KeyAlgorithm::Hs256 => json!({"kty": "oct", "k": b64(self.pkcs8_der())}),
        };
        if let Some(obj) = jwk.as_object_mut() {
            obj.insert("kid".into(), json!(self.kid()));
            obj.insert("alg".into(), json!(self.algorithm().as_str()));
            obj.insert("use".into(), json!("sig"));
            obj.insert("key_ops".into(), ops);
            obj.insert("ext".into(), json!(true));
        }
        Ok(jwk)
    }

    /// Imports a PEM private key (`PRIVATE KEY`, `RSA PRIVATE KEY` or `EC PRIVATE KEY`).
    pub fn from_pem(pem_text: &str, kid: Option<&str>, status: KeyStatus) -> Result<Self, Error> {
        let block = pem::parse(pem_text).map_err(|e| key_error(format!("invalid PEM: {e}")))?;
        let pkcs8 = match block.tag() {
            "PRIVATE KEY" => block.contents().to_vec(),
            "RSA PRIVATE KEY" => der::pkcs1_to_pkcs8(block.contents())?,
            "EC PRIVATE KEY" => EcdsaKeyPair::from_private_key_der(&ECDSA_P256_SHA256_FIXED_SIGNING, block.contents())
                .map_err(key_error)?
                .to_pkcs8v1()
                .map_err(key_error)?
                .as_ref()
                .to_vec(),
            other => return Err(key_error(format!("unsupported PEM block {other:?}; expected a private key"))),
        };
        let algorithm = der::pkcs8_algorithm(&pkcs8)?;
        let kid = kid.map(str::to_string).unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
        SigningKey::from_pkcs8_der(&kid, algorithm, status, &pkcs8)
    }

    /// Exports the private key as a PKCS#8 PEM block (asymmetric keys only). Contains the private key: never
    /// publish it.
    pub fn to_pem(&self) -> Result<String, Error> {
        if self.algorithm().is_symmetric() {
            return Err(key_error("an HS256 secret has no PEM form; export it as a JWK"));
        }
        Ok(pem::encode(&pem::Pem::new("PRIVATE KEY", self.pkcs8_der().to_vec())))
    }
}

/// A JWK's private key in its stored form: PKCS#8 for EC and RSA, the secret `k` for `oct`.
fn stored_material(obj: &Map<String, Value>, algorithm: KeyAlgorithm, kty: &str) -> Result<Vec<u8>, Error> {
    match (algorithm, kty) {
        (KeyAlgorithm::Es256, "EC") => {
            if obj.get("crv").and_then(Value::as_str) != Some("P-256") {
                return Err(key_error("ES256 needs crv P-256"));
            }
            let mut point = vec![4u8];
            point.extend(member(obj, "x")?);
            point.extend(member(obj, "y")?);
            let pair = EcdsaKeyPair::from_private_key_and_public_key(
                &ECDSA_P256_SHA256_FIXED_SIGNING,
                &member(obj, "d")?,
                &point,
            )
            .map_err(key_error)?;
            Ok(pair.to_pkcs8v1().map_err(key_error)?.as_ref().to_vec())
        }
        (KeyAlgorithm::Rs256, "RSA") => {
            let c = RsaComponents {
                n: member(obj, "n")?,
                e: member(obj, "e")?,
                d: member(obj, "d")?,
                p: member(obj, "p")?,
                q: member(obj, "q")?,
                dp: member(obj, "dp")?,
                dq: member(obj, "dq")?,
                qi: member(obj, "qi")?,
            };
            der::pkcs1_to_pkcs8(&der::rsa_pkcs1(&c)?)
        }
        (KeyAlgorithm::Hs256, "oct") => member(obj, "k"),
        _ => Err(key_error(format!("key type {kty:?} does not match alg {}", algorithm.as_str()))),
    }
}

/// Parses `GOTRUE_JWT_KEYS`: a JSON array of private JWKs (a `{"keys":[…]}` object is accepted too). At most one
/// key may sign (`key_ops` containing `sign`), as Supabase Auth requires.
pub fn keys_from_private_jwks(text: &str) -> Result<Vec<SigningKey>, Error> {
    let value: Value = serde_json::from_str(text).map_err(|e| key_error(format!("not JSON: {e}")))?;
    let list = match &value {
        Value::Array(items) => items.clone(),
        Value::Object(o) => o.get("keys").and_then(Value::as_array).cloned().unwrap_or_else(|| vec![value.clone()]),
        _ => return Err(key_error("expected a JSON array of JWKs")),
    };
    let keys = list.iter().map(SigningKey::from_private_jwk).collect::<Result<Vec<_>, _>>()?;
    if keys.iter().filter(|k| k.status() == KeyStatus::Current).count() > 1 {
        return Err(key_error("multiple signing keys detected, only 1 signing key is supported"));
    }
    Ok(keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_jwk_round_trips_for_both_algorithms() {
        for alg in [KeyAlgorithm::Es256, KeyAlgorithm::Rs256, KeyAlgorithm::Hs256] {
            let key = SigningKey::generate(alg, KeyStatus::Current).unwrap();
            let jwk = key.to_private_jwk().unwrap();
            assert_eq!(jwk["key_ops"], json!(["sign", "verify"]));
            let back = SigningKey::from_private_jwk(&jwk).unwrap();
            assert_eq!(back.kid(), key.kid());
            assert_eq!(back.status(), KeyStatus::Current);
            assert_eq!(back.public_jwk(), key.public_jwk());
        }
    }

    #[test]
    fn pem_round_trips_and_verify_only_jwks_are_previous_keys() {
        let key = SigningKey::generate(KeyAlgorithm::Rs256, KeyStatus::Previous).unwrap();
        let pem_text = key.to_pem().unwrap();
        assert!(pem_text.starts_with("-----BEGIN PRIVATE KEY-----"));
        let back = SigningKey::from_pem(&pem_text, Some("k1"), KeyStatus::Standby).unwrap();
        assert_eq!(back.algorithm(), KeyAlgorithm::Rs256);
        assert_eq!(back.kid(), "k1");
        let list = format!("[{}]", key.to_private_jwk().unwrap());
        let keys = keys_from_private_jwks(&list).unwrap();
        assert_eq!(keys[0].status(), KeyStatus::Previous);
    }

    #[test]
    fn refuses_two_signing_keys_and_public_only_jwks() {
        let a = SigningKey::generate_es256(KeyStatus::Current).unwrap().to_private_jwk().unwrap();
        let b = SigningKey::generate_es256(KeyStatus::Current).unwrap().to_private_jwk().unwrap();
        assert!(keys_from_private_jwks(&json!([a, b]).to_string()).is_err());
        let public =
            serde_json::to_value(SigningKey::generate_es256(KeyStatus::Current).unwrap().public_jwk().unwrap())
                .unwrap();
        assert!(SigningKey::from_private_jwk(&public).is_err());
        assert!(keys_from_private_jwks("{not json").is_err());
    }

    #[test]
    fn reads_supabase_key_sets_with_a_symmetric_key() {
        // A project that moved from the legacy secret to signing keys: the old secret verifies only, RS256 signs.
        let rsa = SigningKey::generate(KeyAlgorithm::Rs256, KeyStatus::Current).unwrap().to_private_jwk().unwrap();
        let oct = json!({"kty": "oct", "k": "c2VjcmV0LXNlY3JldC1zZWNyZXQ", "kid": "legacy", "key_ops": ["verify"]});
        let keys = keys_from_private_jwks(&json!([oct, rsa]).to_string()).unwrap();
        assert_eq!((keys[0].algorithm(), keys[0].status()), (KeyAlgorithm::Hs256, KeyStatus::Previous));
        assert_eq!(keys[0].pkcs8_der(), b"secret-secret-secret");
        assert_eq!(keys[1].status(), KeyStatus::Current);
        let signing_oct = json!({"kty": "oct", "k": "c2VjcmV0", "alg": "HS256", "key_ops": ["sign", "verify"]});
        assert_eq!(SigningKey::from_private_jwk(&signing_oct).unwrap().status(), KeyStatus::Current);
        assert!(SigningKey::from_private_jwk(&json!({"kty": "oct", "k": "c2VjcmV0", "alg": "RS256"})).is_err());
        assert!(SigningKey::from_private_jwk(&json!({"kty": "oct", "k": "c2VjcmV0", "alg": "HS512"})).is_err());
    }
}
