//! Admin user endpoints (roles in `GOTRUE_JWT_ADMIN_ROLES` only) and the database boundary of the auth tables.

use crate::auth_helpers::*;
use crate::helpers::spawn_app_with;
use reqwest::Method;
use serde_json::{json, Value};

#[tokio::test]
async fn admin_endpoints_manage_users_for_admin_roles_only() {
    let app = spawn_app_with(&[]).await;
    let service = app.service_key.clone();
    let created = call(&app, Method::POST, "/admin/users", Some(&service), Some(json!({"email": "Admin-Made@example.com", "password": "secret123", "email_confirm": true, "user_metadata": {"n": 1}}))).await;
    assert_eq!(created.status, 200, "{}", created.body);
    assert_eq!(created.body["email"], "admin-made@example.com");
    assert!(created.body["email_confirmed_at"].is_string());
    let id = created.body["id"].as_str().unwrap().to_string();
    assert_eq!(sign_in(&app, "admin-made@example.com", "secret123").await.status, 200);

    let dup =
        call(&app, Method::POST, "/admin/users", Some(&service), Some(json!({"email": "admin-made@example.com"})))
            .await;
    assert_eq!((dup.status, dup.body["code"].as_str()), (422, Some("email_exists")));
    let bad_page = call(&app, Method::GET, "/admin/users?page=-1&per_page=10", Some(&service), None).await;
    assert_eq!((bad_page.status, bad_page.body["code"].as_str()), (400, Some("validation_failed")));
    let list = call(&app, Method::GET, "/admin/users?page=1&per_page=10", Some(&service), None).await;
    assert_eq!(list.body["users"].as_array().unwrap().len(), 1);
    assert_eq!(list.headers["x-total-count"], "1");
    let got = call(&app, Method::GET, &format!("/admin/users/{id}"), Some(&service), None).await;
    assert_eq!(got.body["user_metadata"]["n"], 1);
    let upd = call(
        &app,
        Method::PUT,
        &format!("/admin/users/{id}"),
        Some(&service),
        Some(json!({"app_metadata": {"plan": "pro"}, "ban_duration": "1h"})),
    )
    .await;
    assert_eq!(upd.body["app_metadata"]["plan"], "pro");
    assert!(upd.body["banned_until"].is_string());
    assert_eq!(sign_in(&app, "admin-made@example.com", "secret123").await.body["code"], "user_banned");
    let del = call(&app, Method::DELETE, &format!("/admin/users/{id}"), Some(&service), None).await;
    assert_eq!(del.status, 200);
    let gone = call(&app, Method::GET, &format!("/admin/users/{id}"), Some(&service), None).await;
    assert_eq!((gone.status, gone.body["code"].as_str()), (404, Some("user_not_found")));

    // A13: anon and user tokens are refused.
    let anon = call(&app, Method::GET, "/admin/users", None, None).await;
    assert_eq!((anon.status, anon.body["code"].as_str()), (403, Some("not_admin")));
    let supabase_admin =
        app.keys().sign(&json!({"role": "supabase_admin", "exp": chrono::Utc::now().timestamp() + 60})).unwrap();
    assert_eq!(call(&app, Method::GET, "/admin/users", Some(&supabase_admin), None).await.status, 200);
}

#[tokio::test]
async fn api_roles_never_reach_the_auth_tables() {
    let app = spawn_app_with(&[("GOTRUE_MAILER_AUTOCONFIRM", "true")]).await;
    signup_session(&app, "ann@example.com", "secret123").await;
    // A validly signed token asking for the auth module's role is refused by the identity check.
    let token =
        app.keys().sign(&json!({"role": "supabase_auth_admin", "exp": chrono::Utc::now().timestamp() + 60})).unwrap();
    let mut headers = http::HeaderMap::new();
    headers.insert("authorization", format!("Bearer {token}").parse().unwrap());
    let err =
        gateway::core::identity::identify(&headers, &app.state.core.keys.load(), &app.state.core.config).unwrap_err();
    assert_eq!(err, gateway::core::identity::Rejection::RoleNotAllowed("supabase_auth_admin".into()));

    // In the database: the pool user without the role switch, and the API roles, cannot read auth.users.
    let client = app.state.core.pool.get().await.unwrap();
    let denied = client.query("select * from auth.users", &[]).await.unwrap_err();
    assert_eq!(denied.as_db_error().unwrap().code().code(), "42501");
    for role in ["anon", "authenticated", "service_role"] {
        let mut c = app.state.core.pool.get().await.unwrap();
        let tx = c.transaction().await.unwrap();
        tx.batch_execute(&format!("set local role {role}")).await.unwrap();
        let e = tx.query("select email from auth.users", &[]).await.unwrap_err();
        assert_eq!(e.as_db_error().unwrap().code().code(), "42501", "{role}");
    }
    // The auth module's own switch works and sees the user.
    let mut c = app.state.core.pool.get().await.unwrap();
    let tx = c.transaction().await.unwrap();
    tx.batch_execute("set local role supabase_auth_admin").await.unwrap();
    let n: i64 = tx.query_one("select count(*) from auth.users", &[]).await.unwrap().get(0);
    assert_eq!(n, 1);
    // Stored passwords are bcrypt, cost 10.
    let hash: String = tx.query_one("select encrypted_password from auth.users", &[]).await.unwrap().get(0);
    assert!(hash.starts_with("$2b$10$") || hash.starts_with("$2a$10$"), "{hash}");
    let _: Value = json!({});
}

#[tokio::test]
async fn a14_refuses_the_demo_secret_in_production() {
    let demo = "super-secret-jwt-token-with-at-least-32-characters-long";
    let port = std::env::var("TEST_PGPORT").unwrap();
    let app = spawn_app_with(&[]).await;
    let vars = std::collections::HashMap::from([
        ("DATABASE_URL".to_string(), app.state.core.config.db_uri.clone()),
        ("PORT".to_string(), "0".to_string()),
        ("GOTRUE_JWT_SECRET".to_string(), demo.to_string()),
        ("GATEWAY_ENV".to_string(), "production".to_string()),
    ]);
    let _ = port;
    let config = gateway::core::config::Config::from_vars(gateway::core::config::Vars(vars.clone())).unwrap();
    let err = gateway::Application::build(config).await.err().expect("the demo secret must be refused");
    assert!(err.to_string().contains("demo secret"), "{err}");
    let mut dev = vars;
    dev.remove("GATEWAY_ENV");
    let config = gateway::core::config::Config::from_vars(gateway::core::config::Vars(dev)).unwrap();
    assert!(gateway::Application::build(config).await.is_ok(), "development only warns");
}

#[tokio::test]
async fn strict_mode_requires_a_known_apikey_except_on_open_routes() {
    let app = spawn_app_with(&[("GATEWAY_REQUIRE_APIKEY", "true")]).await;
    let settings = |key: Option<&str>| {
        let mut req = app.http.get(app.url("/auth/v1/settings"));
        if let Some(k) = key {
            req = req.header("apikey", k);
        }
        async move { into_call(req.send().await.unwrap()).await }
    };
    let missing = settings(None).await;
    assert_eq!((missing.status, &missing.body), (401, &json!({"message": "No API key found in request"})));
    let forged = jwks::KeySet::new(vec![jwks::SigningKey::generate_es256(jwks::KeyStatus::Current).unwrap()])
        .sign(&json!({"role": "anon", "exp": chrono::Utc::now().timestamp() + 60}))
        .unwrap();
    let wrong = settings(Some(&forged)).await;
    assert_eq!((wrong.status, &wrong.body), (401, &json!({"message": "Invalid authentication credentials"})));
    assert_eq!(settings(Some(&app.anon_key.clone())).await.status, 200);
    let by_query = app.http.get(app.url(&format!("/auth/v1/settings?apikey={}", app.anon_key))).send().await.unwrap();
    assert_eq!(by_query.status(), 200);
    // Open routes: the JWKS and the e-mail link.
    assert_eq!(app.http.get(app.url("/auth/v1/.well-known/jwks.json")).send().await.unwrap().status(), 200);
    let link = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let res = link.get(app.url("/auth/v1/verify?token=abc&type=signup")).send().await.unwrap();
    assert_eq!(res.status(), 303);
}

#[tokio::test]
async fn invitations_and_generated_links_verify() {
    let mail = mail_dir();
    let app = spawn_app_with(&[("GATEWAY_MAIL_DIR", mail.path())]).await;
    let service = app.service_key.clone();
    let anon = call(&app, Method::POST, "/invite", None, Some(json!({"email": "x@example.com"}))).await;
    assert_eq!(anon.status, 403);
    let invited = call(
        &app,
        Method::POST,
        "/invite",
        Some(&service),
        Some(json!({"email": "Inv@example.com", "data": {"team": "a"}})),
    )
    .await;
    assert_eq!(invited.status, 200, "{}", invited.body);
    assert!(invited.body["invited_at"].is_string());
    let message = mail.messages().pop().unwrap();
    assert!(message.contains("To: inv@example.com") && verify_link(&message).contains("type=invite"));
    let accepted =
        post(&app, "/verify", json!({"type": "invite", "email": "inv@example.com", "token": otp(&message)})).await;
    assert_eq!(accepted.status, 200, "{}", accepted.body);
    assert!(accepted.body["user"]["email_confirmed_at"].is_string());

    let link = call(
        &app,
        Method::POST,
        "/admin/generate_link",
        Some(&service),
        Some(
            json!({"type": "signup", "email": "gen@example.com", "password": "secret123", "data": {"status": "alpha"}}),
        ),
    )
    .await;
    assert_eq!(link.status, 200, "{}", link.body);
    assert_eq!(link.body["user_metadata"], json!({"status": "alpha"}));
    assert_eq!(link.body["verification_type"], "signup");
    assert!(
        link.body["action_link"].as_str().unwrap().contains("?token=")
            && link.body["action_link"].as_str().unwrap().contains("type=signup")
    );
    let verified = post(&app, "/verify", json!({"type": "signup", "token_hash": link.body["hashed_token"]})).await;
    assert_eq!(verified.status, 200, "{}", verified.body);
    assert_eq!(sign_in(&app, "gen@example.com", "secret123").await.status, 200);
    assert_eq!(mail.messages().len(), 1, "generate_link sends nothing");

    let change = call(
        &app,
        Method::POST,
        "/admin/generate_link",
        Some(&service),
        Some(json!({"type": "email_change_current", "email": "gen@example.com", "new_email": "gen2@example.com"})),
    )
    .await;
    assert_eq!(change.body["new_email"], "gen2@example.com");
    let swapped =
        post(&app, "/verify", json!({"type": "email_change", "token_hash": change.body["hashed_token"]})).await;
    assert_eq!(swapped.body["user"]["email"], "gen2@example.com", "{}", swapped.body);
    let bad = call(
        &app,
        Method::POST,
        "/admin/generate_link",
        Some(&service),
        Some(json!({"type": "signup", "email": "nope"})),
    )
    .await;
    assert_eq!(bad.body["message"], "Unable to validate email address: invalid format");
}
