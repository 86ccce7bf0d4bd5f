//! `spawn_app()`: a fresh database from the template, the gateway built on it and serving on port 0.

use gateway::core::config::{Config, Vars};
use std::collections::HashMap;

pub struct TestApp {
    pub base_url: String,
    pub db_name: String,
    pub admin_url: String,
    pub http: reqwest::Client,
    pub anon_key: String,
    pub service_key: String,
    pub state: gateway::app::AppState,
}

impl TestApp {
    /// A superuser connection to this test's database (for fixtures and assertions).
    pub async fn admin_client(&self) -> tokio_postgres::Client {
        let (client, conn) =
            tokio_postgres::connect(&self.admin_url, tokio_postgres::NoTls).await.expect("admin connect");
        tokio::spawn(conn);
        client
    }

    /// The key set the gateway signs and verifies with.
    pub fn keys(&self) -> std::sync::Arc<jwks::KeySet> {
        self.state.core.keys.load_full()
    }

    /// Reloads what the gateway reads from the catalog (the schema cache, the roles' settings), as `NOTIFY pgrst`
    /// does, and waits for it.
    pub async fn reload_schema(&self) {
        self.state.reload_schema().await;
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base_url, path)
    }
}

/// The superuser's connection string (with its password: the test cluster accepts no passwordless sign-in) for
/// database `db`.
pub fn admin_url_for(db: &str) -> String {
    let mut url = url::Url::parse(&env("TEST_ADMIN_URL")).expect("TEST_ADMIN_URL is a URL");
    url.set_path(db);
    url.to_string()
}

fn env(name: &str) -> String {
    std::env::var(name)
        .unwrap_or_else(|_| panic!("{name} is not set: run the tests through scripts/with-test-db.sh (make test)"))
}

/// Builds and serves the gateway on a new database; `extra` overrides configuration variables.
pub async fn spawn_app_with(extra: &[(&str, &str)]) -> TestApp {
    let admin = env("TEST_ADMIN_URL");
    let template = env("TEST_TEMPLATE_DB");
    let db_name = format!("t_{}", uuid::Uuid::new_v4().simple());
    let (client, conn) = tokio_postgres::connect(&admin, tokio_postgres::NoTls).await.expect("connect to test cluster");
    tokio::spawn(conn);
    client
        .batch_execute(&format!("create database \"{db_name}\" template \"{template}\""))
        .await
        .expect("create database");
    spawn_app_on(&db_name, extra).await
}

/// Builds and serves another gateway on an existing database (a second instance).
pub async fn spawn_app_on(db_name: &str, extra: &[(&str, &str)]) -> TestApp {
    let port = env("TEST_PGPORT");
    let password = env("TEST_AUTHENTICATOR_PASSWORD");
    let mut vars: HashMap<String, String> = HashMap::new();
    vars.insert("DATABASE_URL".into(), format!("postgres://authenticator:{password}@127.0.0.1:{port}/{db_name}"));
    vars.insert("PORT".into(), "0".into());
    vars.insert("PGRST_DB_POOL".into(), "4".into());
    // the owner connection (Realtime's replication stream uses it; the pool user has no REPLICATION)
    vars.insert("GATEWAY_ADMIN_DB_URI".into(), format!("postgres://postgres@127.0.0.1:{port}/{db_name}"));
    for (k, v) in extra {
        vars.insert(k.to_string(), v.to_string());
    }
    let config = Config::from_vars(Vars(vars)).expect("config");
    let app = gateway::Application::build(config).await.expect("build app");
    let addr = app.local_addr().expect("addr");
    let state = app.state().clone();
    let (anon_key, service_key) = gateway::core::keys::api_keys(&state.core.keys.load()).expect("api keys");
    tokio::spawn(app.serve(std::future::pending()));
    TestApp {
        base_url: format!("http://{addr}"),
        admin_url: admin_url_for(db_name),
        db_name: db_name.to_string(),
        http: reqwest::Client::new(),
        anon_key,
        service_key,
        state,
    }
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(&[]).await
}
