//! Signing keys kept in the database (`gateway.signing_keys`) so every instance shares them; `migrate` creates an
//! ES256 key. `GOTRUE_JWT_KEYS` (Supabase Auth's JSON array of private JWKs), when set, replaces the stored keys.
//! The legacy HS256 secret, when configured, is accepted for verification. Running gateways reload the stored
//! keys on `NOTIFY gateway_keys` (sent by a trigger on the table) and every `GATEWAY_KEYS_REFRESH_SECS` (`reload`).

mod reload;
pub use reload::spawn_reloader;

use crate::core::config::Config;
use jwks::{KeyAlgorithm, KeySet, KeyStatus, SigningKey};
use tokio_postgres::Client;

/// Loads every key from the database.
pub async fn load(client: &Client, legacy_secret: Option<&str>) -> anyhow::Result<KeySet> {
    let rows = client
        .query("select kid, algorithm, status, private_key_der from gateway.signing_keys order by created_at", &[])
        .await?;
    let mut keys = Vec::with_capacity(rows.len());
    for row in rows {
        let (kid, alg, status, der): (String, String, String, Vec<u8>) =
            (row.get(0), row.get(1), row.get(2), row.get(3));
        keys.push(SigningKey::from_pkcs8_der(&kid, KeyAlgorithm::parse(&alg)?, KeyStatus::parse(&status)?, &der)?);
    }
    Ok(KeySet::new(keys).with_legacy_secret(legacy_secret.map(|s| s.as_bytes().to_vec())))
}

/// The keys from `GOTRUE_JWT_KEYS`, if set: ES256, RS256 and HS256 (`oct`) private JWKs, exactly one of which signs
/// (`key_ops` with `sign`), as Supabase Auth requires.
pub fn env_keys(config: &Config) -> anyhow::Result<Option<KeySet>> {
    let Some(text) = config.vars.first(&["GOTRUE_JWT_KEYS"]) else { return Ok(None) };
    let keys = jwks::keys_from_private_jwks(&text).map_err(|e| anyhow::anyhow!("GOTRUE_JWT_KEYS: {e}"))?;
    if !keys.iter().any(|k| k.status() == KeyStatus::Current) {
        anyhow::bail!("GOTRUE_JWT_KEYS: no signing key detected (one key needs \"sign\" in key_ops)");
    }
    Ok(Some(KeySet::new(keys).with_legacy_secret(config.jwt_secret.as_ref().map(|s| s.as_bytes().to_vec()))))
}

/// The key set a gateway serves with: `GOTRUE_JWT_KEYS` when set, else the stored keys.
pub async fn load_configured(client: &Client, config: &Config) -> anyhow::Result<KeySet> {
    match env_keys(config)? {
        Some(set) => Ok(set),
        None => load(client, config.jwt_secret.as_deref()).await,
    }
}

/// Creates a current ES256 key when none is current (needs the owner connection).
pub async fn ensure_current(client: &Client) -> anyhow::Result<bool> {
    let current: i64 =
        client.query_one("select count(*) from gateway.signing_keys where status = 'current'", &[]).await?.get(0);
    if current > 0 {
        return Ok(false);
    }
    insert(client, &SigningKey::generate_es256(KeyStatus::Current)?).await?;
    Ok(true)
}

/// Stores a key (owner connection).
pub async fn insert(client: &Client, key: &SigningKey) -> anyhow::Result<()> {
    client
        .execute(
            "insert into gateway.signing_keys (kid, algorithm, status, private_key_der) values ($1, $2, $3, $4)",
            &[&key.kid(), &key.algorithm().as_str(), &key.status().as_str(), &key.pkcs8_der()],
        )
        .await?;
    Ok(())
}

/// Generates a standby key: published in the JWKS, not signing yet.
pub async fn generate_standby(client: &Client, algorithm: KeyAlgorithm) -> anyhow::Result<SigningKey> {
    let key = SigningKey::generate(algorithm, KeyStatus::Standby)?;
    insert(client, &key).await?;
    Ok(key)
}

/// Rotates: the newest standby key becomes current (one is generated when there is none) and the current key
/// becomes previous (still verifying). Returns the new current kid.
pub async fn rotate(client: &mut Client, algorithm: KeyAlgorithm) -> anyhow::Result<String> {
    let tx = client.transaction().await?;
    tx.execute("lock table gateway.signing_keys in exclusive mode", &[]).await?;
    let standby = tx
        .query_opt(
            "select kid from gateway.signing_keys where status = 'standby' order by created_at desc limit 1",
            &[],
        )
        .await?;
    let kid: String = match standby {
        Some(row) => row.get(0),
        None => {
            let key = SigningKey::generate(algorithm, KeyStatus::Standby)?;
            tx.execute(
                "insert into gateway.signing_keys (kid, algorithm, status, private_key_der) values ($1, $2, $3, $4)",
                &[&key.kid(), &key.algorithm().as_str(), &key.status().as_str(), &key.pkcs8_der()],
            )
            .await?;
            key.kid().to_string()
        }
    };
    tx.execute("update gateway.signing_keys set status = 'previous', updated_at = now() where status = 'current'", &[])
        .await?;
    tx.execute("update gateway.signing_keys set status = 'current', updated_at = now() where kid = $1", &[&kid])
        .await?;
    tx.commit().await?;
    Ok(kid)
}

/// Revokes a key that does not sign: its tokens stop verifying and it leaves the JWKS.
pub async fn revoke(client: &Client, kid: &str) -> anyhow::Result<()> {
    let row = client.query_opt("select status from gateway.signing_keys where kid = $1", &[&kid]).await?;
    match row.map(|r| r.get::<_, String>(0)) {
        None => anyhow::bail!("no key with kid {kid}"),
        Some(s) if s == "current" => anyhow::bail!("{kid} is the current signing key: rotate first, then revoke it"),
        Some(_) => {
            client
                .execute(
                    "update gateway.signing_keys set status = 'revoked', updated_at = now() where kid = $1",
                    &[&kid],
                )
                .await?;
            Ok(())
        }
    }
}

/// Parses keys to import: a JSON array of private JWKs (`GOTRUE_JWT_KEYS`), one JWK, or a PEM private key. Imported
/// keys that would sign enter as standby, so `rotate` decides when they start signing.
pub fn parse_import(text: &str, kid: Option<&str>) -> anyhow::Result<Vec<SigningKey>> {
    let trimmed = text.trim_start();
    let keys = if trimmed.starts_with("-----BEGIN") {
        vec![SigningKey::from_pem(text, kid, KeyStatus::Standby)?]
    } else {
        jwks::keys_from_private_jwks(text)?
    };
    Ok(keys
        .into_iter()
        .map(|k| if k.status() == KeyStatus::Current { k.with_status(KeyStatus::Standby) } else { k })
        .collect())
}

/// The long-lived API keys: JWTs with role `anon` and `service_role`, signed by the current key.
pub fn api_keys(keys: &KeySet) -> anyhow::Result<(String, String)> {
    let iat = chrono::Utc::now().timestamp();
    let exp = iat + 10 * 365 * 24 * 3600;
    let anon = keys.sign(&serde_json::json!({"iss": "supabase", "role": "anon", "iat": iat, "exp": exp}))?;
    let service = keys.sign(&serde_json::json!({"iss": "supabase", "role": "service_role", "iat": iat, "exp": exp}))?;
    Ok((anon, service))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imported_signing_keys_enter_as_standby() {
        let key = SigningKey::generate_es256(KeyStatus::Current).unwrap();
        let text = format!("[{}]", key.to_private_jwk().unwrap());
        let keys = parse_import(&text, None).unwrap();
        assert_eq!(keys[0].status(), KeyStatus::Standby);
        let pem = parse_import(&key.to_pem().unwrap(), Some("k9")).unwrap();
        assert_eq!((pem[0].kid(), pem[0].status()), ("k9", KeyStatus::Standby));
        assert!(parse_import("nonsense", None).is_err());
    }
}
