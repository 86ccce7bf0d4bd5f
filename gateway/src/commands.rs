//! The CLI commands: serve, migrate, keys, lint.

use crate::cli::{KeysAction, KeysArgs};
use crate::core::config::{env_first, Config};
use std::path::Path;

pub async fn serve() -> anyhow::Result<()> {
    let config = Config::from_env()?;
    let app = crate::Application::build(config).await?;
    report_lint(&app).await;
    let addr = app.local_addr()?;
    let url = &app.state().core.config.external_url;
    tracing::info!(%addr, "gateway listening");
    println!("Serving on {url} (listening on {addr})");
    app.serve(shutdown_signal()).await
}

pub async fn migrate() -> anyhow::Result<()> {
    let uri = admin_uri()?;
    let mut client = crate::core::db::pool::connect(&uri).await?;
    let dir = env_first(&["GATEWAY_MIGRATIONS_DIR"]).unwrap_or_else(|| "sql/migrations".into());
    let vars = crate::core::config::Vars::from_env();
    let grants = if vars.bool(&["GATEWAY_SUPABASE_DEFAULT_PRIVILEGES"], false) {
        crate::core::db::migrate::DefaultGrants::Supabase
    } else {
        crate::core::db::migrate::DefaultGrants::Off
    };
    let report = crate::core::db::migrate::run(&mut client, Path::new(&dir), grants).await?;
    if crate::core::keys::ensure_current(&client).await? {
        println!("created a new ES256 signing key");
    }
    for name in &report.applied {
        println!("applied {name}");
    }
    println!("migrations: {} applied, {} already applied", report.applied.len(), report.skipped);
    Ok(())
}

pub async fn keys(args: KeysArgs) -> anyhow::Result<()> {
    use crate::core::keys;
    let uri = admin_uri()?;
    let mut client = crate::core::db::pool::connect(&uri).await?;
    let secret = env_first(&["PGRST_JWT_SECRET", "GOTRUE_JWT_SECRET", "JWT_SECRET"]);
    let set = keys::load(&client, secret.as_deref()).await?;
    match args.action.unwrap_or(KeysAction::ApiKeys { service_role: false }) {
        KeysAction::ApiKeys { service_role } => print_api_keys(&client, set, service_role).await?,
        KeysAction::List => {
            for k in set.keys() {
                println!("{}\t{}\t{}", k.kid(), k.algorithm().as_str(), k.status().as_str());
            }
        }
        KeysAction::Generate { alg } => {
            let key = keys::generate_standby(&client, jwks::KeyAlgorithm::parse(&alg)?).await?;
            println!("generated standby key {} ({})", key.kid(), key.algorithm().as_str());
        }
        KeysAction::Rotate { alg } => {
            let kid = keys::rotate(&mut client, jwks::KeyAlgorithm::parse(&alg)?).await?;
            println!("key {kid} is now current; the previous key still verifies until revoked");
        }
        KeysAction::Revoke { kid } => {
            keys::revoke(&client, &kid).await?;
            println!("revoked {kid}");
        }
        KeysAction::Import { file, kid } => import_keys(&client, &set, file, kid.as_deref()).await?,
        KeysAction::Export => {
            let keys = set
                .keys()
                .iter()
                .filter(|k| k.status().verifies())
                .map(|k| k.to_private_jwk())
                .collect::<Result<Vec<_>, _>>()?;
            println!("{}", serde_json::Value::Array(keys));
        }
    }
    Ok(())
}

/// `keys import`: keys from FILE (or `GOTRUE_JWT_KEYS`) not stored yet, as standby keys.
async fn import_keys(
    client: &tokio_postgres::Client,
    stored: &jwks::KeySet,
    file: Option<String>,
    kid: Option<&str>,
) -> anyhow::Result<()> {
    let text = match file {
        Some(path) => std::fs::read_to_string(&path)?,
        None => env_first(&["GOTRUE_JWT_KEYS"]).ok_or_else(|| anyhow::anyhow!("give a FILE or set GOTRUE_JWT_KEYS"))?,
    };
    for key in crate::core::keys::parse_import(&text, kid)? {
        if stored.key(key.kid()).is_some() {
            println!("skipped {}: already stored", key.kid());
            continue;
        }
        crate::core::keys::insert(client, &key).await?;
        println!("imported {} ({}, {})", key.kid(), key.algorithm().as_str(), key.status().as_str());
    }
    Ok(())
}

/// Prints the API keys. In production the service_role key only when asked for; outside production printing it
/// marks the current stored key as exposed (production refuses to start until it is rotated and revoked).
async fn print_api_keys(
    client: &tokio_postgres::Client,
    stored: jwks::KeySet,
    service_role: bool,
) -> anyhow::Result<()> {
    let vars = crate::core::config::Vars::from_env();
    let production = crate::production::is_production(&vars);
    let set = match vars.first(&["GOTRUE_JWT_KEYS"]) {
        Some(text) => jwks::KeySet::new(jwks::keys_from_private_jwks(&text)?),
        None => stored,
    };
    let (anon, service) = crate::core::keys::api_keys(&set)?;
    println!("anon key: {anon}");
    if production && !service_role {
        println!("service_role key: not printed in production (`gateway keys api-keys --service-role` prints it)");
        return Ok(());
    }
    println!("service_role key: {service}");
    if !production && vars.first(&["GOTRUE_JWT_KEYS"]).is_none() {
        client
            .execute(
                "update gateway.signing_keys set exposed_at = now() where status = 'current' and exposed_at is null",
                &[],
            )
            .await?;
    }
    Ok(())
}

pub async fn demo(args: crate::cli::DemoArgs) -> anyhow::Result<()> {
    let client = crate::core::db::pool::connect(&admin_uri()?).await?;
    match args.action {
        crate::cli::DemoAction::Remove => {
            let removed = crate::production::remove_demo_accounts(&client).await?;
            for email in &removed {
                println!("removed demo account {email}");
            }
            println!("{} demo account(s) removed", removed.len());
        }
    }
    Ok(())
}

pub async fn lint() -> anyhow::Result<()> {
    let config = Config::from_env()?;
    let client = crate::core::db::pool::connect(config.admin_db_uri.as_deref().unwrap_or(&config.db_uri)).await?;
    let findings = crate::core::db::lint::run(&client, &crate::core::config::exposed_schemas(&config.vars)).await?;
    for f in &findings {
        println!("{}\t{}\t{}", f.rule, f.object, f.message);
    }
    println!("{} finding(s)", findings.len());
    Ok(())
}

async fn report_lint(app: &crate::Application) {
    let Ok(client) = app.state().core.pool.get().await else { return };
    match crate::core::db::lint::run(&client, &crate::core::config::exposed_schemas(&app.state().core.config.vars))
        .await
    {
        Ok(findings) => {
            for f in findings {
                tracing::warn!(rule = f.rule, object = %f.object, "{}", f.message);
            }
        }
        Err(e) => tracing::warn!(error = %e, "lint could not run"),
    }
}

fn admin_uri() -> anyhow::Result<String> {
    env_first(&["GATEWAY_ADMIN_DB_URI", "PGRST_DB_URI", "DATABASE_URL"])
        .ok_or_else(|| anyhow::anyhow!("set GATEWAY_ADMIN_DB_URI to an owner connection string"))
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}
