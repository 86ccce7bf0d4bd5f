//! Sign-in, access-token claims, refresh-token rotation and reuse detection, logout and the per-call session check.

use crate::auth_helpers::*;
use crate::helpers::spawn_app_with;
use reqwest::Method;
use serde_json::{json, Value};

fn decode_part(token: &str, i: usize) -> Value {
    use base64::Engine;
    let part = token.split('.').nth(i).unwrap();
    serde_json::from_slice(&base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(part).unwrap()).unwrap()
}

#[tokio::test]
async fn password_sign_in_issues_supabase_claims_with_kid() {
    let app = spawn_app_with(&[("GOTRUE_MAILER_AUTOCONFIRM", "true")]).await;
    signup_session(&app, "ann@example.com", "secret123").await;
    let res = sign_in(&app, "ANN@example.com", "secret123").await;
    assert_eq!(res.status, 200, "{}", res.body);
    let token = res.body["access_token"].as_str().unwrap();
    let header = decode_part(token, 0);
    assert_eq!(header["alg"], "ES256");
    assert_eq!(header["kid"], app.state.core.keys.load().current().unwrap().kid());
    let claims = decode_part(token, 1);
    for k in [
        "aud",
        "exp",
        "iat",
        "iss",
        "sub",
        "email",
        "phone",
        "app_metadata",
        "user_metadata",
        "role",
        "aal",
        "amr",
        "session_id",
        "is_anonymous",
    ] {
        assert!(claims.get(k).is_some(), "claim {k} missing: {claims}");
    }
    assert_eq!(claims["aud"], "authenticated");
    assert_eq!(claims["role"], "authenticated");
    assert_eq!(claims["amr"][0]["method"], "password");
    assert_eq!(claims["exp"].as_i64().unwrap() - claims["iat"].as_i64().unwrap(), 3600);
    assert_eq!(res.body["expires_at"], claims["exp"]);
    assert!(res.body["user"]["last_sign_in_at"].is_string());
}

#[tokio::test]
async fn unknown_user_and_wrong_password_get_the_same_answer() {
    let app = spawn_app_with(&[("GOTRUE_MAILER_AUTOCONFIRM", "true")]).await;
    signup_session(&app, "ann@example.com", "secret123").await;
    let wrong = sign_in(&app, "ann@example.com", "wrong-password").await;
    let unknown = sign_in(&app, "nobody@example.com", "wrong-password").await;
    assert_eq!(wrong.status, 400);
    assert_eq!(wrong.body, unknown.body);
    assert_eq!(
        wrong.body,
        json!({"code": "invalid_credentials", "error_code": "invalid_credentials", "message": "Invalid login credentials"})
    );
    let grant = post(&app, "/token?grant_type=magic", json!({})).await;
    assert_eq!(grant.body["message"], "unsupported_grant_type");
}

#[tokio::test]
async fn refresh_rotates_allows_the_parent_and_revokes_the_family_on_reuse() {
    let app =
        spawn_app_with(&[("GOTRUE_MAILER_AUTOCONFIRM", "true"), ("GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL", "0")])
            .await;
    let session = signup_session(&app, "ann@example.com", "secret123").await;
    let first = session["refresh_token"].as_str().unwrap().to_string();
    let r1 = post(&app, "/token?grant_type=refresh_token", json!({"refresh_token": first})).await;
    assert_eq!(r1.status, 200, "{}", r1.body);
    let second = r1.body["refresh_token"].as_str().unwrap().to_string();
    assert_ne!(first, second);
    assert_eq!(
        decode_part(r1.body["access_token"].as_str().unwrap(), 1)["session_id"],
        decode_part(session["access_token"].as_str().unwrap(), 1)["session_id"]
    );
    // A5: the parent of the active token gets the active token back (the client lost the response).
    let again = post(&app, "/token?grant_type=refresh_token", json!({"refresh_token": first})).await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.body["refresh_token"], second);
    // Rotate once more: `first` is now a grandparent; its reuse revokes the whole session (A4).
    let r2 = post(&app, "/token?grant_type=refresh_token", json!({"refresh_token": second})).await;
    let third = r2.body["refresh_token"].as_str().unwrap().to_string();
    let reuse = post(&app, "/token?grant_type=refresh_token", json!({"refresh_token": first})).await;
    assert_eq!((reuse.status, reuse.body["code"].as_str()), (400, Some("refresh_token_already_used")));
    let newest = post(&app, "/token?grant_type=refresh_token", json!({"refresh_token": third})).await;
    assert_eq!(newest.status, 400, "the newest token dies with the family: {}", newest.body);
    let user = call(&app, Method::GET, "/user", r2.body["access_token"].as_str(), None).await;
    assert_eq!((user.status, user.body["code"].as_str()), (403, Some("session_not_found")));

    let bad = post(&app, "/token?grant_type=refresh_token", json!({"refresh_token": "short"})).await;
    assert_eq!((bad.status, bad.body["message"].as_str()), (400, Some("Refresh token is not valid")));
    let unknown = post(&app, "/token?grant_type=refresh_token", json!({"refresh_token": "abcdefghijkl"})).await;
    assert_eq!(unknown.body["message"], "Invalid Refresh Token: Refresh Token Not Found");
}

#[tokio::test]
async fn reuse_within_the_interval_is_tolerated() {
    let app = spawn_app_with(&[
        ("GOTRUE_MAILER_AUTOCONFIRM", "true"),
        ("GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL", "10"),
    ])
    .await;
    let session = signup_session(&app, "ann@example.com", "secret123").await;
    let first = session["refresh_token"].as_str().unwrap().to_string();
    let r1 = post(&app, "/token?grant_type=refresh_token", json!({"refresh_token": first})).await;
    let second = r1.body["refresh_token"].as_str().unwrap().to_string();
    post(&app, "/token?grant_type=refresh_token", json!({"refresh_token": second})).await;
    let late = post(&app, "/token?grant_type=refresh_token", json!({"refresh_token": first})).await;
    assert_eq!(late.status, 200, "{}", late.body);
}

#[tokio::test]
async fn logout_scopes_end_sessions_and_every_call_checks_the_session() {
    let app = spawn_app_with(&[("GOTRUE_MAILER_AUTOCONFIRM", "true")]).await;
    signup_session(&app, "ann@example.com", "secret123").await;
    let a = sign_in(&app, "ann@example.com", "secret123").await.body;
    let b = sign_in(&app, "ann@example.com", "secret123").await.body;
    let c = sign_in(&app, "ann@example.com", "secret123").await.body;
    let token = |s: &Value| s["access_token"].as_str().unwrap().to_string();

    let local = call(&app, Method::POST, "/logout?scope=local", Some(&token(&a)), None).await;
    assert_eq!(local.status, 204);
    assert_eq!(local.body, Value::Null);
    assert_eq!(call(&app, Method::GET, "/user", Some(&token(&a)), None).await.status, 403);
    assert_eq!(call(&app, Method::GET, "/user", Some(&token(&b)), None).await.status, 200);

    assert_eq!(call(&app, Method::POST, "/logout?scope=others", Some(&token(&b)), None).await.status, 204);
    assert_eq!(call(&app, Method::GET, "/user", Some(&token(&c)), None).await.status, 403);
    assert_eq!(call(&app, Method::GET, "/user", Some(&token(&b)), None).await.status, 200);

    assert_eq!(call(&app, Method::POST, "/logout", Some(&token(&b)), None).await.status, 204);
    let after = call(&app, Method::GET, "/user", Some(&token(&b)), None).await;
    assert_eq!(after.body["code"], "session_not_found");
    // A6: the refresh token died with its session.
    let refresh = post(&app, "/token?grant_type=refresh_token", json!({"refresh_token": b["refresh_token"]})).await;
    assert_eq!(refresh.status, 400);
    let bad_scope = call(&app, Method::POST, "/logout?scope=all", Some(&token(&c)), None).await;
    assert_eq!(bad_scope.status, 400);
}

#[tokio::test]
async fn bad_tokens_get_gotrue_errors() {
    let app = spawn_app_with(&[]).await;
    let res = app.http.get(app.url("/auth/v1/user")).send().await.unwrap();
    let res = into_call(res).await;
    assert_eq!((res.status, res.body["error_code"].as_str()), (401, Some("no_authorization")));
    let forged = jwks::KeySet::new(vec![jwks::SigningKey::generate_es256(jwks::KeyStatus::Current).unwrap()])
        .sign(&json!({"sub": uuid::Uuid::new_v4(), "role": "authenticated", "aud": "authenticated", "exp": chrono::Utc::now().timestamp() + 60}))
        .unwrap();
    let res = call(&app, Method::GET, "/user", Some(&forged), None).await;
    assert_eq!(res.status, 403);
    assert!(res.body["message"].as_str().unwrap().contains("unable to parse or verify signature"), "{}", res.body);
    // The anon key has no sub.
    let anon = call(&app, Method::GET, "/user", Some(&app.anon_key.clone()), None).await;
    assert_eq!((anon.status, anon.body["message"].as_str()), (403, Some("invalid claim: missing sub claim")));
}
