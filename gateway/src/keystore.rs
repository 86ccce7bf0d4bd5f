//! Signing keys kept in the database (`gateway.signing_keys`) so every instance shares them; the first start
//! creates an ES256 key. The legacy HS256 secret, when configured, is accepted for verification.

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

/// Creates a current ES256 key when none is current (needs the owner connection).
pub async fn ensure_current(client: &Client) -> anyhow::Result<bool> {
    let current: i64 =
        client.query_one("select count(*) from gateway.signing_keys where status = 'current'", &[]).await?.get(0);
    if current > 0 {
        return Ok(false);
    }
    let key = SigningKey::generate_es256(KeyStatus::Current)?;
    client
        .execute(
            "insert into gateway.signing_keys (kid, algorithm, status, private_key_der) values ($1, $2, $3, $4)",
            &[&key.kid(), &key.algorithm().as_str(), &key.status().as_str(), &key.pkcs8_der()],
        )
        .await?;
    Ok(true)
}

/// The long-lived API keys: JWTs with role `anon` and `service_role`, signed by the current key.
pub fn api_keys(keys: &KeySet) -> anyhow::Result<(String, String)> {
    let iat = chrono::Utc::now().timestamp();
    let exp = iat + 10 * 365 * 24 * 3600;
    let anon = keys.sign(&serde_json::json!({"iss": "supabase", "role": "anon", "iat": iat, "exp": exp}))?;
    let service = keys.sign(&serde_json::json!({"iss": "supabase", "role": "service_role", "iat": iat, "exp": exp}))?;
    Ok((anon, service))
}
