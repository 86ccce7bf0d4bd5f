//! Sign-up with confirmation by e-mail (the default), the confirmation link, and sign-up answers that do not reveal
//! which addresses are registered.

use crate::auth_helpers::*;
use crate::helpers::spawn_app_with;
use serde_json::json;

#[tokio::test]
async fn signup_returns_the_bare_user_mails_a_link_and_the_link_confirms() {
    let mail = mail_dir();
    let app = spawn_app_with(&[("GATEWAY_MAIL_DIR", mail.path()), ("GOTRUE_SITE_URL", "http://localhost:3000")]).await;
    let res = post(&app, "/signup", json!({"email": "Ann@Example.com", "password": "secret123", "data": {"first_name": "Ann", "role": "service_role"}})).await;
    assert_eq!(res.status, 200, "{}", res.body);
    let user = &res.body;
    assert!(user.get("access_token").is_none(), "no session before confirmation: {user}");
    assert_eq!(user["email"], "ann@example.com");
    assert_eq!(user["role"], "authenticated");
    assert_eq!(user["phone"], "");
    assert!(user["confirmation_sent_at"].is_string());
    assert!(user.get("email_confirmed_at").is_none());
    assert_eq!(user["app_metadata"], json!({"provider": "email", "providers": ["email"]}));
    assert_eq!(user["user_metadata"]["first_name"], "Ann");
    assert_eq!(user["user_metadata"]["email_verified"], false);
    assert_eq!(user["identities"].as_array().unwrap().len(), 1);
    assert_eq!(user["is_anonymous"], false);

    // Not confirmed yet: the right password gets email_not_confirmed, a wrong one the usual answer.
    let early = sign_in(&app, "ann@example.com", "secret123").await;
    assert_eq!((early.status, early.body["code"].as_str()), (400, Some("email_not_confirmed")));

    let messages = mail.messages();
    assert_eq!(messages.len(), 1);
    assert!(messages[0].contains("To: ann@example.com"));
    let link = local_link(&app, &messages[0]);
    let no_redirect = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let res = no_redirect.get(&link).send().await.unwrap();
    assert_eq!(res.status(), 303);
    let location = res.headers()["location"].to_str().unwrap().to_string();
    assert!(location.starts_with("http://localhost:3000#access_token="), "{location}");
    assert!(location.contains("&refresh_token=") && location.contains("&type=signup"), "{location}");

    // The link works once.
    let again = no_redirect.get(&link).send().await.unwrap();
    assert!(again.headers()["location"].to_str().unwrap().contains("error_code=otp_expired"));

    let session = sign_in(&app, "ann@example.com", "secret123").await;
    assert_eq!(session.status, 200, "{}", session.body);
    assert!(session.body["user"]["email_confirmed_at"].is_string());
    // J8: user_metadata never drives the role.
    assert_eq!(session.body["user"]["role"], "authenticated");
    let claims = app
        .keys()
        .verify::<serde_json::Value>(session.body["access_token"].as_str().unwrap(), &jwks::VerifyOptions::default());
    assert_eq!(claims.unwrap()["role"], "authenticated");
}

#[tokio::test]
async fn signup_of_a_registered_address_looks_like_a_new_one_and_sends_nothing() {
    let mail = mail_dir();
    let app = spawn_app_with(&[("GATEWAY_MAIL_DIR", mail.path()), ("GOTRUE_SMTP_MAX_FREQUENCY", "0")]).await;
    post(&app, "/signup", json!({"email": "bob@example.com", "password": "secret123"})).await;
    let link = local_link(&app, &mail.messages()[0]);
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(&link)
        .send()
        .await
        .unwrap();
    let sent = mail.messages().len();

    let res =
        post(&app, "/signup", json!({"email": "bob@example.com", "password": "other-password", "data": {"x": 1}}))
            .await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(res.body["identities"], json!([]));
    assert_eq!(res.body["role"], "");
    assert_eq!(res.body["user_metadata"], json!({"x": 1}));
    assert!(res.body.get("access_token").is_none());
    assert_eq!(mail.messages().len(), sent, "no mail to an attacker (A2)");
    // The stored password is unchanged.
    assert_eq!(sign_in(&app, "bob@example.com", "secret123").await.status, 200);
    assert_eq!(sign_in(&app, "bob@example.com", "other-password").await.status, 400);
}

#[tokio::test]
async fn autoconfirm_returns_a_session_and_refuses_duplicates() {
    let app = spawn_app_with(&[("GOTRUE_MAILER_AUTOCONFIRM", "true")]).await;
    let session = signup_session(&app, "cat@example.com", "secret123").await;
    assert_eq!(session["token_type"], "bearer");
    assert_eq!(session["expires_in"], 3600);
    assert!(session["refresh_token"].as_str().unwrap().len() == 12);
    let dup = post(&app, "/signup", json!({"email": "CAT@example.com", "password": "secret123"})).await;
    assert_eq!(dup.status, 422);
    assert_eq!(
        dup.body,
        json!({"code": "user_already_exists", "error_code": "user_already_exists", "message": "User already registered"})
    );
    assert_eq!(dup.headers["x-sb-error-code"], "user_already_exists");
    assert_eq!(dup.headers["x-supabase-api-version"], "2024-01-01");
}

#[tokio::test]
async fn signup_validates_password_email_and_settings() {
    let app = spawn_app_with(&[("GOTRUE_PASSWORD_MIN_LENGTH", "8")]).await;
    let weak = post(&app, "/signup", json!({"email": "d@example.com", "password": "1234567"})).await;
    assert_eq!(weak.status, 422);
    assert_eq!(weak.body["code"], "weak_password");
    assert_eq!(weak.body["message"], "Password should be at least 8 characters.");
    assert_eq!(weak.body["weak_password"], json!({"reasons": ["length"]}));
    let bad = post(&app, "/signup", json!({"email": "not-an-email", "password": "12345678"})).await;
    assert_eq!(
        (bad.status, bad.body["message"].as_str()),
        (400, Some("Unable to validate email address: invalid format"))
    );
    let none = post(&app, "/signup", json!({"email": "e@example.com"})).await;
    assert_eq!((none.status, none.body["message"].as_str()), (400, Some("Signup requires a valid password")));
    let bad_json = app
        .http
        .post(app.url("/auth/v1/signup"))
        .header("content-type", "application/json")
        .body("{nope")
        .send()
        .await
        .unwrap();
    let bad_json = into_call(bad_json).await;
    assert_eq!(bad_json.status, 400);
    assert_eq!(bad_json.body["error_code"], "bad_json", "classic format without the version header: {}", bad_json.body);
    assert_eq!(bad_json.body["code"], 400);
    let huge = post(&app, "/signup", json!({"email": "g@example.com", "password": "x".repeat(2 * 1024 * 1024)})).await;
    assert_eq!((huge.status, huge.body["code"].as_str()), (413, Some("request_entity_too_large")));
    let anon = post(&app, "/signup", json!({"data": {}})).await;
    assert_eq!((anon.status, anon.body["code"].as_str()), (422, Some("anonymous_provider_disabled")));

    let disabled = spawn_app_with(&[("GOTRUE_DISABLE_SIGNUP", "true")]).await;
    let res = post(&disabled, "/signup", json!({"email": "f@example.com", "password": "12345678"})).await;
    assert_eq!((res.status, res.body["code"].as_str()), (422, Some("signup_disabled")));
    let settings = call(&disabled, reqwest::Method::GET, "/settings", None, None).await;
    assert_eq!(settings.body["disable_signup"], true);
    assert_eq!(settings.body["external"]["email"], true);
    let health = call(&disabled, reqwest::Method::GET, "/health", None, None).await;
    assert_eq!(health.body["name"], "GoTrue");
}

#[tokio::test]
async fn anonymous_sign_in_keeps_the_given_metadata() {
    let app = spawn_app_with(&[("GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED", "true")]).await;
    let res = post(&app, "/signup", json!({"data": {"color": "blue"}})).await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(res.body["user"]["is_anonymous"], true);
    assert_eq!(res.body["user"]["user_metadata"], json!({"color": "blue"}));
    assert_eq!(res.body["user"]["email"], "");
}

#[tokio::test]
async fn pkce_sign_up_links_answer_with_a_code_exchanged_with_the_verifier() {
    use base64::Engine;
    use sha2::Digest;
    let mail = mail_dir();
    let app = spawn_app_with(&[("GATEWAY_MAIL_DIR", mail.path()), ("GOTRUE_SITE_URL", "http://localhost:3000")]).await;
    let verifier = "v".repeat(64);
    let challenge = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(verifier.as_bytes()));
    let half =
        post(&app, "/signup", json!({"email": "p@example.com", "password": "secret123", "code_challenge": challenge}))
            .await;
    assert_eq!(half.status, 400, "{}", half.body);
    let res = post(
        &app,
        "/signup",
        json!({"email": "p@example.com", "password": "secret123", "code_challenge": challenge, "code_challenge_method": "s256"}),
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.body);
    let link = local_link(&app, &mail.messages()[0]);
    assert!(link.contains("token=pkce_"), "{link}");
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let res = client.get(&link).send().await.unwrap();
    assert_eq!(res.status(), 303);
    let location = res.headers()["location"].to_str().unwrap().to_string();
    let code = location.strip_prefix("http://localhost:3000?code=").unwrap_or_else(|| panic!("{location}")).to_string();
    let wrong = post(&app, "/token?grant_type=pkce", json!({"auth_code": code, "code_verifier": "w".repeat(64)})).await;
    assert_eq!((wrong.status, wrong.body["code"].as_str()), (400, Some("bad_code_verifier")));
    let ok = post(&app, "/token?grant_type=pkce", json!({"auth_code": code, "code_verifier": verifier})).await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert!(ok.body["user"]["email_confirmed_at"].is_string());
    let again = post(&app, "/token?grant_type=pkce", json!({"auth_code": code, "code_verifier": verifier})).await;
    assert_eq!((again.status, again.body["code"].as_str()), (404, Some("flow_state_not_found")));
}

#[tokio::test]
async fn cors_preflight_allows_supabase_headers_and_exposes_the_api_version() {
    let app = spawn_app_with(&[]).await;
    let res = app
        .http
        .request(reqwest::Method::OPTIONS, app.url("/auth/v1/token?grant_type=password"))
        .header("origin", "https://site.example.com")
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "apikey, authorization, content-type, x-client-info, x-supabase-api-version",
        )
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{}", res.status());
    assert_eq!(res.headers()["access-control-allow-origin"], "https://site.example.com");
    let allowed = res.headers()["access-control-allow-headers"].to_str().unwrap().to_ascii_lowercase();
    for h in ["apikey", "authorization", "content-type", "x-client-info", "x-supabase-api-version"] {
        assert!(allowed.contains(h), "{h} not allowed: {allowed}");
    }
    let res = app
        .http
        .post(app.url("/auth/v1/token?grant_type=password"))
        .header("origin", "https://site.example.com")
        .header("x-supabase-api-version", "2024-01-01")
        .json(&json!({"email": "a@example.com", "password": "x"}))
        .send()
        .await
        .unwrap();
    let exposed = res.headers()["access-control-expose-headers"].to_str().unwrap().to_ascii_lowercase();
    assert!(exposed.contains("x-supabase-api-version"), "{exposed}");
    assert_eq!(res.headers()["x-supabase-api-version"], "2024-01-01");
}
