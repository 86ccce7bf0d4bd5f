//! The server starts, publishes its JWKS, and refuses an unsafe pool user.

use crate::helpers::spawn_app;

#[tokio::test]
async fn jwks_document_is_public_and_cacheable() {
    let app = spawn_app().await;
    let res = app.http.get(app.url("/auth/v1/.well-known/jwks.json")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["cache-control"], "public, max-age=600");
    let body: serde_json::Value = res.json().await.unwrap();
    let key = &body["keys"][0];
    assert_eq!(key["alg"], "ES256");
    assert!(key.get("d").is_none(), "private member published: {body}");
}

#[tokio::test]
async fn refuses_a_superuser_pool_user() {
    let app = spawn_app().await;
    let vars = std::collections::HashMap::from([
        ("DATABASE_URL".to_string(), crate::helpers::admin_url_for(&app.db_name)),
        ("PORT".to_string(), "0".to_string()),
    ]);
    let config = gateway::core::config::Config::from_vars(gateway::core::config::Vars(vars)).unwrap();
    let err = gateway::Application::build(config).await.err().expect("superuser must be refused");
    assert!(err.to_string().contains("superuser"), "{err}");
}
