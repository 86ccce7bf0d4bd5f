//! S6: `GATEWAY_ENV=production` refuses to start while a demo account (the repository's demo content), a signing key
//! whose service_role key was printed in development, a published or short JWT secret, or a site/API URL left at a
//! local default exists — and says how to fix each; a clean production start succeeds and never prints the
//! service_role key.

use crate::helpers::{spawn_app_with, TestApp};
use gateway::core::config::{Config, Vars};
use std::collections::HashMap;
use std::process::Command;

const DEMO_USERS: &str = include_str!("../../../sql/seed/01_demo_users.sql");

fn production_vars(app: &TestApp, extra: &[(&str, &str)]) -> HashMap<String, String> {
    let mut vars = HashMap::from([
        ("DATABASE_URL".to_string(), app.state.core.config.db_uri.clone()),
        ("PORT".to_string(), "0".to_string()),
        ("GATEWAY_ENV".to_string(), "production".to_string()),
    ]);
    vars.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    vars
}

async fn start(vars: HashMap<String, String>) -> Result<(), String> {
    let config = Config::from_vars(Vars(vars)).unwrap();
    gateway::Application::build(config).await.map(|_| ()).map_err(|e| format!("{e:#}"))
}

/// `gateway ARGS` against the test database with `env`; its stdout.
fn gateway_cli(app: &TestApp, args: &[&str], env: &[(&str, &str)]) -> String {
    let bin = std::env::var("GATEWAY_BIN").expect("GATEWAY_BIN (scripts/with-test-db.sh sets it)");
    let out = Command::new(bin)
        .args(args)
        .env("GATEWAY_ADMIN_DB_URI", &app.admin_url)
        .env_remove("GATEWAY_ENV")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(out.status.success(), "gateway {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[tokio::test]
async fn s6_production_refuses_demo_accounts_exposed_keys_and_local_urls_then_starts_clean() {
    let app = spawn_app_with(&[]).await;
    app.admin_client().await.batch_execute(DEMO_USERS).await.unwrap();
    // Development printed the API keys (make run does on every start).
    let dev = gateway_cli(&app, &["keys"], &[]);
    assert!(dev.contains("service_role key: ey"), "{dev}");

    let refused = start(production_vars(&app, &[("GOTRUE_SITE_URL", "http://localhost:3000")])).await.unwrap_err();
    for needle in [
        "admin@example.com",
        "make admin",
        "gateway demo remove",
        "gateway keys rotate",
        "gateway keys revoke",
        "API_EXTERNAL_URL",
        "http://localhost:3000",
    ] {
        assert!(refused.contains(needle), "the refusal says {needle:?}:\n{refused}");
    }

    let removed = gateway_cli(&app, &["demo", "remove"], &[]);
    assert!(removed.contains("2 demo account(s) removed"), "{removed}");
    let old = app.state.core.keys.load().current().unwrap().kid().to_string();
    gateway_cli(&app, &["keys", "rotate"], &[("GATEWAY_ENV", "production")]);
    gateway_cli(&app, &["keys", "revoke", &old], &[("GATEWAY_ENV", "production")]);
    let clean = production_vars(&app, &[("API_EXTERNAL_URL", "https://jobs.firm.example")]);
    start(clean).await.expect("a clean production start");

    let printed = gateway_cli(&app, &["keys"], &[("GATEWAY_ENV", "production")]);
    assert!(printed.contains("anon key: ey"), "{printed}");
    assert!(!printed.contains("service_role key: ey"), "production never prints the service key unasked: {printed}");
}

#[tokio::test]
async fn s6_production_refuses_published_secrets_and_development_site_urls() {
    let app = spawn_app_with(&[]).await;
    let https = ("API_EXTERNAL_URL", "https://jobs.firm.example");
    for (extra, needle) in [
        (vec![https, ("GOTRUE_JWT_SECRET", "super-secret-jwt-token-with-at-least-32-characters-long")], "demo secret"),
        (vec![https, ("GOTRUE_JWT_SECRET", "short")], "shorter than 32"),
        (vec![https, ("GOTRUE_SITE_URL", "http://127.0.0.1:3000")], "GOTRUE_SITE_URL"),
        (vec![("API_EXTERNAL_URL", "http://localhost:54321")], "local address"),
        (vec![], "API_EXTERNAL_URL is not set"),
    ] {
        let err = start(production_vars(&app, &extra)).await.unwrap_err();
        assert!(err.contains(needle), "{extra:?} → {err}");
    }
    start(production_vars(&app, &[https])).await.expect("nothing to refuse");
}
