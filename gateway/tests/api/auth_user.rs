//! `GET/PUT /user`: metadata merge, password change ending other sessions, e-mail change confirmed on both sides.

use crate::auth_helpers::*;
use crate::helpers::spawn_app_with;
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn updates_metadata_and_password() {
    let app = spawn_app_with(&[("GOTRUE_MAILER_AUTOCONFIRM", "true")]).await;
    let s = signup_session(&app, "ann@example.com", "secret123").await;
    let other = sign_in(&app, "ann@example.com", "secret123").await.body;
    let token = s["access_token"].as_str().unwrap();
    let res = call(&app, Method::PUT, "/user", Some(token), Some(json!({"data": {"a": 1, "b": 2}}))).await;
    assert_eq!(res.status, 200, "{}", res.body);
    let res = call(&app, Method::PUT, "/user", Some(token), Some(json!({"data": {"b": null, "c": 3}}))).await;
    assert_eq!(res.body["user_metadata"]["a"], 1);
    assert!(res.body["user_metadata"].get("b").is_none());
    assert_eq!(res.body["user_metadata"]["c"], 3);
    assert_eq!(res.body["user_metadata"]["email"], "ann@example.com");

    let same = call(&app, Method::PUT, "/user", Some(token), Some(json!({"password": "secret123"}))).await;
    assert_eq!((same.status, same.body["code"].as_str()), (422, Some("same_password")));
    let weak = call(&app, Method::PUT, "/user", Some(token), Some(json!({"password": "123"}))).await;
    assert_eq!(weak.body["code"], "weak_password");
    let admin_meta =
        call(&app, Method::PUT, "/user", Some(token), Some(json!({"app_metadata": {"role": "admin"}}))).await;
    assert_eq!((admin_meta.status, admin_meta.body["code"].as_str()), (403, Some("not_admin")));
    let ok = call(&app, Method::PUT, "/user", Some(token), Some(json!({"password": "new-secret-456"}))).await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(sign_in(&app, "ann@example.com", "secret123").await.status, 400);
    assert_eq!(sign_in(&app, "ann@example.com", "new-secret-456").await.status, 200);
    // The other session ended; this one lives on.
    assert_eq!(call(&app, Method::GET, "/user", other["access_token"].as_str(), None).await.status, 403);
    assert_eq!(call(&app, Method::GET, "/user", Some(token), None).await.status, 200);
}

#[tokio::test]
async fn email_change_needs_both_addresses_to_confirm() {
    let mail = mail_dir();
    let app = spawn_app_with(&[("GOTRUE_MAILER_AUTOCONFIRM", "true"), ("GATEWAY_MAIL_DIR", mail.path())]).await;
    let s = signup_session(&app, "ann@example.com", "secret123").await;
    signup_session(&app, "taken@example.com", "secret123").await;
    let token = s["access_token"].as_str().unwrap();
    let taken = call(&app, Method::PUT, "/user", Some(token), Some(json!({"email": "taken@example.com"}))).await;
    assert_eq!((taken.status, taken.body["code"].as_str()), (422, Some("email_exists")));
    let res = call(&app, Method::PUT, "/user", Some(token), Some(json!({"email": "New@Example.com"}))).await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(res.body["email"], "ann@example.com", "not changed before confirmation");
    assert_eq!(res.body["new_email"], "new@example.com");
    let messages = mail.messages();
    assert_eq!(messages.len(), 2);
    let to_new = messages.iter().find(|m| m.contains("To: new@example.com")).unwrap();
    let to_current = messages.iter().find(|m| m.contains("To: ann@example.com")).unwrap();
    let first =
        post(&app, "/verify", json!({"type": "email_change", "email": "new@example.com", "token": otp(to_new)})).await;
    assert_eq!(first.status, 200, "{}", first.body);
    assert!(first.body["msg"].as_str().unwrap().starts_with("Confirmation link accepted"));
    let second =
        post(&app, "/verify", json!({"type": "email_change", "email": "ann@example.com", "token": otp(to_current)}))
            .await;
    assert_eq!(second.status, 200, "{}", second.body);
    assert_eq!(second.body["user"]["email"], "new@example.com");
    assert_eq!(sign_in(&app, "new@example.com", "secret123").await.status, 200);
}

#[tokio::test]
async fn password_changes_can_require_a_mailed_reauthentication_code() {
    let mail = mail_dir();
    let app = spawn_app_with(&[
        ("GOTRUE_MAILER_AUTOCONFIRM", "true"),
        ("GATEWAY_MAIL_DIR", mail.path()),
        ("GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION", "true"),
        ("GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED", "true"),
    ])
    .await;
    let s = signup_session(&app, "ann@example.com", "secret123").await;
    let token = s["access_token"].as_str().unwrap();
    let needed = call(&app, Method::PUT, "/user", Some(token), Some(json!({"password": "new-secret-1"}))).await;
    assert_eq!((needed.status, needed.body["code"].as_str()), (400, Some("reauthentication_needed")));
    let sent = call(&app, Method::GET, "/reauthenticate", Some(token), None).await;
    assert_eq!((sent.status, &sent.body), (200, &json!({})));
    let message = mail.messages().pop().unwrap();
    let code = otp(&message);
    assert!(message.contains(&format!("Subject: {code} is your verification code")), "{message}");
    let wrong =
        call(&app, Method::PUT, "/user", Some(token), Some(json!({"password": "new-secret-1", "nonce": "000000"})))
            .await;
    assert_eq!(wrong.body["code"], "reauthentication_not_valid");
    let ok =
        call(&app, Method::PUT, "/user", Some(token), Some(json!({"password": "new-secret-1", "nonce": code}))).await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(sign_in(&app, "ann@example.com", "new-secret-1").await.status, 200);

    let anon = post(&app, "/signup", json!({})).await;
    let res = call(&app, Method::GET, "/reauthenticate", anon.body["access_token"].as_str(), None).await;
    assert_eq!(res.body["message"], "Reauthentication requires the user to have an email or a phone number");
}
