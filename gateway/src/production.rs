//! Production mode (`GATEWAY_ENV=production`): the gateway refuses to start while anything published or meant for
//! development is in place — demo accounts (their passwords are in the repository), signing keys whose service_role
//! key was printed in development, a publicly known or short JWT secret, a site or API URL left at a local default —
//! and says how to fix each. Outside production the same findings are warnings.

use crate::core::config::{Config, Vars};
use tokio_postgres::Client;

/// Whether `GATEWAY_ENV=production`.
pub fn is_production(vars: &Vars) -> bool {
    vars.first(&["GATEWAY_ENV"]).is_some_and(|e| e.trim().eq_ignore_ascii_case("production"))
}

/// JWT secrets published by Supabase's CLI and docs and by supabase-js's own test stack: anyone can sign with them.
const PUBLISHED_SECRETS: &[&str] = &[
    "super-secret-jwt-token-with-at-least-32-characters-long",
    "37c304f8-51aa-419a-a1af-06154e63707a",
    "Z7-AyPyChGNcQsX16cPBV-pPBo4q-zckDxkq1VZjATo",
];

/// What is wrong with the configuration alone (no database needed), each with its fix.
pub fn config_findings(config: &Config, site_url: &str) -> Vec<String> {
    let mut found = vec![];
    if let Some(secret) = config.jwt_secret.as_deref() {
        if PUBLISHED_SECRETS.contains(&secret) {
            found.push(
                "the JWT secret (GOTRUE_JWT_SECRET / PGRST_JWT_SECRET) is a published demo secret: anyone could \
                        sign tokens; set a long random secret or unset it (the signing keys do not need it)"
                    .to_string(),
            );
        } else if secret.len() < 32 {
            found.push("the JWT secret is shorter than 32 characters; set a long random one or unset it".to_string());
        }
    }
    if config.vars.first(&["API_EXTERNAL_URL", "GATEWAY_EXTERNAL_URL"]).is_none() {
        found.push(
            "API_EXTERNAL_URL is not set: e-mailed links would point at this machine's local address; set it to \
                    the public https URL"
                .to_string(),
        );
    } else if is_local_url(&config.external_url) {
        found.push(format!(
            "API_EXTERNAL_URL is a local address ({}); set it to the public https URL",
            config.external_url
        ));
    }
    if is_local_url(site_url) {
        found.push(format!(
            "the site URL (GOTRUE_SITE_URL) is a development default ({site_url}): sign-in links would hand tokens to \
             whatever runs there; set GOTRUE_SITE_URL (or API_EXTERNAL_URL) to the public https URL"
        ));
    }
    found
}

/// Loopback, unspecified or `localhost` hosts.
fn is_local_url(url: &str) -> bool {
    let Ok(parsed) = url::Url::parse(url) else { return true };
    match parsed.host() {
        Some(url::Host::Domain(d)) => {
            d.eq_ignore_ascii_case("localhost") || d.to_ascii_lowercase().ends_with(".localhost")
        }
        Some(url::Host::Ipv4(ip)) => ip.is_loopback() || ip.is_unspecified(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback() || ip.is_unspecified(),
        None => true,
    }
}

/// What is wrong in the database: demo accounts, and keys whose service_role key was printed in development (only
/// when the stored keys sign, i.e. without `GOTRUE_JWT_KEYS`).
pub async fn database_findings(client: &Client, stored_keys_sign: bool) -> anyhow::Result<Vec<String>> {
    let mut found = vec![];
    let demo = texts(client, "select coalesce(email, user_id::text) from gateway.demo_accounts order by 1").await?;
    if !demo.is_empty() {
        found.push(format!(
            "demo accounts with published passwords exist ({}): create your own admin first (`make admin \
             EMAIL=you@your-firm`), then remove them with `gateway demo remove`",
            demo.join(", ")
        ));
    }
    if stored_keys_sign {
        let sql = "select kid from gateway.signing_keys where exposed_at is not null and status <> 'revoked' \
                   order by created_at";
        let exposed = texts(client, sql).await?;
        if !exposed.is_empty() {
            found.push(format!(
                "signing keys whose service_role key was printed in development still verify ({}): run `gateway keys \
                 rotate`, then `gateway keys revoke KID` for each of them (tokens they signed stop working)",
                exposed.join(", ")
            ));
        }
    }
    Ok(found)
}

/// The first column of every row, as text.
async fn texts(client: &Client, sql: &str) -> anyhow::Result<Vec<String>> {
    Ok(client.query(sql, &[]).await?.iter().map(|r| r.get(0)).collect())
}

/// Refuses to start in production while anything is found; outside production, logs each finding as a warning.
pub async fn check(config: &Config, client: &Client, site_url: &str) -> anyhow::Result<()> {
    let production = is_production(&config.vars);
    let mut found = config_findings(config, site_url);
    if production {
        let stored_keys_sign = config.vars.first(&["GOTRUE_JWT_KEYS"]).is_none();
        found.extend(database_findings(client, stored_keys_sign).await?);
    }
    if found.is_empty() {
        return Ok(());
    }
    if production {
        let list: String = found.iter().map(|f| format!("\n  - {f}")).collect();
        anyhow::bail!("GATEWAY_ENV=production: refusing to start:{list}");
    }
    for f in found.iter().filter(|f| f.contains("secret")) {
        tracing::warn!("{f} (refused when GATEWAY_ENV=production)");
    }
    Ok(())
}

/// `gateway demo remove`: deletes the demo accounts (their sessions and identities go with them); returns their
/// e-mail addresses.
pub async fn remove_demo_accounts(client: &Client) -> anyhow::Result<Vec<String>> {
    let rows = client
        .query(
            "delete from auth.users u using gateway.demo_accounts d where d.user_id = u.id \
             returning coalesce(u.email, u.id::text)",
            &[],
        )
        .await?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn config(pairs: &[(&str, &str)]) -> Config {
        let mut vars: HashMap<String, String> = HashMap::from([("DATABASE_URL".into(), "postgres://x@h/db".into())]);
        vars.extend(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        Config::from_vars(Vars(vars)).unwrap()
    }

    #[test]
    fn local_urls_and_published_secrets_are_findings() {
        let c = config(&[("GOTRUE_JWT_SECRET", "super-secret-jwt-token-with-at-least-32-characters-long")]);
        let found = config_findings(&c, "http://localhost:3000");
        assert_eq!(found.len(), 3, "{found:#?}");
        let c = config(&[("API_EXTERNAL_URL", "http://127.0.0.1:54321")]);
        assert_eq!(config_findings(&c, "http://127.0.0.1:54321").len(), 2);
        let c = config(&[("API_EXTERNAL_URL", "https://jobs.firm.example"), ("GOTRUE_JWT_SECRET", "short")]);
        assert_eq!(config_findings(&c, "https://jobs.firm.example").len(), 1);
        let c = config(&[("API_EXTERNAL_URL", "https://jobs.firm.example")]);
        assert!(config_findings(&c, "https://www.firm.example").is_empty());
        for local in ["http://[::1]:80", "http://0.0.0.0:1", "http://app.localhost", "not a url"] {
            assert!(is_local_url(local), "{local}");
        }
    }
}
