//! DER plumbing for private keys: PKCS#8 ↔ PKCS#1 for RSA, and RSA key components.
//!
//! Keys are stored as PKCS#8 whatever their type; jsonwebtoken signs RSA with PKCS#1 and ECDSA with PKCS#8.

use crate::error::key_error;
use crate::{Error, KeyAlgorithm};
use simple_asn1::{from_der, oid, to_der, ASN1Block, BigInt, BigUint, OID};

/// The eight RSA private-key integers of PKCS#1 (RFC 8017), big-endian unsigned bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RsaComponents {
    pub n: Vec<u8>,
    pub e: Vec<u8>,
    pub d: Vec<u8>,
    pub p: Vec<u8>,
    pub q: Vec<u8>,
    pub dp: Vec<u8>,
    pub dq: Vec<u8>,
    pub qi: Vec<u8>,
}

fn rsa_oid() -> OID {
    oid!(1, 2, 840, 113549, 1, 1, 1)
}

fn ec_oid() -> OID {
    oid!(1, 2, 840, 10045, 2, 1)
}

/// Which algorithm a PKCS#8 document holds a key for (RSA → RS256, P-256 → ES256).
pub(crate) fn pkcs8_algorithm(pkcs8: &[u8]) -> Result<KeyAlgorithm, Error> {
    let (alg_oid, _) = split_pkcs8(pkcs8)?;
    if alg_oid == rsa_oid() {
        Ok(KeyAlgorithm::Rs256)
    } else if alg_oid == ec_oid() {
        Ok(KeyAlgorithm::Es256)
    } else {
        Err(key_error("unsupported PKCS#8 key algorithm"))
    }
}

fn split_pkcs8(pkcs8: &[u8]) -> Result<(OID, Vec<u8>), Error> {
    let blocks = from_der(pkcs8).map_err(|e| key_error(format!("invalid PKCS#8: {e}")))?;
    let Some(ASN1Block::Sequence(_, items)) = blocks.first() else {
        return Err(key_error("invalid PKCS#8: not a sequence"));
    };
    let (Some(ASN1Block::Sequence(_, alg)), Some(ASN1Block::OctetString(_, inner))) = (items.get(1), items.get(2))
    else {
        return Err(key_error("invalid PKCS#8: missing algorithm or key"));
    };
    let Some(ASN1Block::ObjectIdentifier(_, id)) = alg.first() else {
        return Err(key_error("invalid PKCS#8: missing algorithm identifier"));
    };
    Ok((id.clone(), inner.clone()))
}

/// The PKCS#1 `RSAPrivateKey` inside an RSA PKCS#8 document.
pub(crate) fn pkcs8_to_pkcs1(pkcs8: &[u8]) -> Result<Vec<u8>, Error> {
    let (id, inner) = split_pkcs8(pkcs8)?;
    if id != rsa_oid() {
        return Err(key_error("not an RSA key"));
    }
    Ok(inner)
}

/// Wraps a PKCS#1 `RSAPrivateKey` as PKCS#8.
pub(crate) fn pkcs1_to_pkcs8(pkcs1: &[u8]) -> Result<Vec<u8>, Error> {
    let doc = ASN1Block::Sequence(
        0,
        vec![
            ASN1Block::Integer(0, BigInt::from(0)),
            ASN1Block::Sequence(0, vec![ASN1Block::ObjectIdentifier(0, rsa_oid()), ASN1Block::Null(0)]),
            ASN1Block::OctetString(0, pkcs1.to_vec()),
        ],
    );
    to_der(&doc).map_err(|e| key_error(format!("cannot encode PKCS#8: {e}")))
}

/// Reads the components of a PKCS#1 `RSAPrivateKey`.
pub(crate) fn rsa_components(pkcs1: &[u8]) -> Result<RsaComponents, Error> {
    let blocks = from_der(pkcs1).map_err(|e| key_error(format!("invalid PKCS#1: {e}")))?;
    let Some(ASN1Block::Sequence(_, items)) = blocks.first() else {
        return Err(key_error("invalid PKCS#1: not a sequence"));
    };
    let ints: Vec<Vec<u8>> = items
        .iter()
        .filter_map(|b| match b {
            ASN1Block::Integer(_, i) => Some(i.to_biguint().map(|u| u.to_bytes_be()).unwrap_or_default()),
            _ => None,
        })
        .collect();
    if ints.len() < 9 {
        return Err(key_error("invalid PKCS#1: expected nine integers"));
    }
    Ok(RsaComponents {
        n: ints[1].clone(),
        e: ints[2].clone(),
        d: ints[3].clone(),
        p: ints[4].clone(),
        q: ints[5].clone(),
        dp: ints[6].clone(),
        dq: ints[7].clone(),
        qi: ints[8].clone(),
    })
}

/// Encodes RSA components as a PKCS#1 `RSAPrivateKey`.
pub(crate) fn rsa_pkcs1(c: &RsaComponents) -> Result<Vec<u8>, Error> {
    let int = |b: &[u8]| ASN1Block::Integer(0, BigInt::from(BigUint::from_bytes_be(b)));
    let doc = ASN1Block::Sequence(
        0,
        vec![
            ASN1Block::Integer(0, BigInt::from(0)),
            int(&c.n),
            int(&c.e),
            int(&c.d),
            int(&c.p),
            int(&c.q),
            int(&c.dp),
            int(&c.dq),
            int(&c.qi),
        ],
    );
    to_der(&doc).map_err(|e| key_error(format!("cannot encode PKCS#1: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rsa_components_round_trip_through_pkcs1_and_pkcs8() {
        let c = RsaComponents {
            n: vec![0xc1, 2, 3],
            e: vec![1, 0, 1],
            d: vec![4, 5],
            p: vec![6],
            q: vec![7],
            dp: vec![8],
            dq: vec![9],
            qi: vec![10],
        };
        let pkcs1 = rsa_pkcs1(&c).unwrap();
        let pkcs8 = pkcs1_to_pkcs8(&pkcs1).unwrap();
        assert_eq!(pkcs8_algorithm(&pkcs8).unwrap(), KeyAlgorithm::Rs256);
        assert_eq!(pkcs8_to_pkcs1(&pkcs8).unwrap(), pkcs1);
        assert_eq!(rsa_components(&pkcs1).unwrap(), c);
    }

    #[test]
    fn rejects_garbage() {
        assert!(pkcs8_algorithm(b"not der").is_err());
        assert!(rsa_components(&[0x30, 0x00]).is_err());
    }
}
