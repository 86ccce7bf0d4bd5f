//! Recovery and resend: the same answers for known and unknown addresses, links from configuration only, the
//! recovery code signs in, and rate limits answer 429.

use crate::auth_helpers::*;
use crate::helpers::spawn_app_with;
use serde_json::json;

#[tokio::test]
async fn recover_answers_alike_for_known_and_unknown_and_the_code_signs_in() {
    let mail = mail_dir();
    let app = spawn_app_with(&[
        ("GOTRUE_MAILER_AUTOCONFIRM", "true"),
        ("GATEWAY_MAIL_DIR", mail.path()),
        ("API_EXTERNAL_URL", "https://api.example.com"),
    ])
    .await;
    signup_session(&app, "ann@example.com", "secret123").await;
    let send = |email: &'static str| {
        let app = &app;
        async move {
            let res = app
                .http
                .post(app.url("/auth/v1/recover"))
                .header("x-forwarded-host", "evil.com")
                .header("host", "evil.com")
                .json(&json!({"email": email}))
                .send()
                .await
                .unwrap();
            into_call(res).await
        }
    };
    let known = send("ann@example.com").await;
    let unknown = send("nobody@example.com").await;
    assert_eq!((known.status, &known.body), (200, &json!({})));
    assert_eq!((unknown.status, &unknown.body), (200, &json!({})));
    // A3: the second request within the frequency window is refused for both, alike.
    let known2 = send("ann@example.com").await;
    let unknown2 = send("nobody@example.com").await;
    assert_eq!(known2.status, 429);
    assert_eq!(known2.body, unknown2.body);
    assert_eq!(known2.body["error_code"], "over_email_send_rate_limit");

    let messages = mail.messages();
    assert_eq!(messages.len(), 1, "only the known address gets mail");
    // A8: the link uses API_EXTERNAL_URL, never the request's host headers.
    let link = verify_link(&messages[0]);
    assert!(link.starts_with("https://api.example.com/auth/v1/verify?token="), "{link}");
    assert!(!messages[0].contains("evil.com"));
    let res =
        post(&app, "/verify", json!({"type": "recovery", "email": "ann@example.com", "token": otp(&messages[0])}))
            .await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(res.body["user"]["email"], "ann@example.com");
    let again =
        post(&app, "/verify", json!({"type": "recovery", "email": "ann@example.com", "token": otp(&messages[0])}))
            .await;
    assert_eq!((again.status, again.body["code"].as_str()), (403, Some("otp_expired")));
    let hashless = post(&app, "/verify", json!({"type": "recovery", "token_hash": "0".repeat(56)})).await;
    assert_eq!(hashless.body["message"], "Email link is invalid or has expired");
}

#[tokio::test]
async fn redirects_outside_the_allow_list_fall_back_to_the_site_url() {
    let mail = mail_dir();
    let app = spawn_app_with(&[
        ("GATEWAY_MAIL_DIR", mail.path()),
        ("GOTRUE_SITE_URL", "https://site.example.com"),
        ("GOTRUE_URI_ALLOW_LIST", "https://*.preview.example.com/**"),
        ("GOTRUE_SMTP_MAX_FREQUENCY", "0"),
    ])
    .await;
    post(
        &app,
        "/signup?redirect_to=https%3A%2F%2Fevil.com%2F",
        json!({"email": "a@example.com", "password": "secret123"}),
    )
    .await;
    post(
        &app,
        "/signup?redirect_to=https%3A%2F%2Fpr1.preview.example.com%2Fwelcome",
        json!({"email": "b@example.com", "password": "secret123"}),
    )
    .await;
    let messages = mail.messages();
    let a = messages.iter().find(|m| m.contains("To: a@example.com")).unwrap();
    let b = messages.iter().find(|m| m.contains("To: b@example.com")).unwrap();
    assert!(verify_link(a).ends_with("redirect_to=https%3A%2F%2Fsite.example.com"), "{}", verify_link(a));
    assert!(verify_link(b).contains("pr1.preview.example.com%2Fwelcome"));
}

#[tokio::test]
async fn per_ip_and_per_account_limits_answer_429() {
    let app = spawn_app_with(&[("GOTRUE_RATE_LIMIT_TOKEN_REFRESH", "3"), ("GATEWAY_RATE_LIMIT_ACCOUNT", "1000")]).await;
    let mut statuses = vec![];
    for i in 0..5 {
        statuses.push(sign_in(&app, &format!("u{i}@example.com"), "whatever").await);
    }
    assert_eq!(statuses.iter().map(|c| c.status).collect::<Vec<_>>(), vec![400, 400, 400, 429, 429]);
    assert_eq!(statuses[4].body["code"], "over_request_rate_limit");

    // A trusted proxy (here: the loopback peer) names the client in its header; another client is not affected.
    let app = spawn_app_with(&[
        ("GATEWAY_RATE_LIMIT_ACCOUNT", "2"),
        ("GATEWAY_TRUSTED_PROXIES", "127.0.0.1/32"),
        ("GATEWAY_TRUSTED_IP_HEADER", "x-real-ip"),
    ])
    .await;
    let try_as = |ip: &'static str| {
        let app = &app;
        async move {
            let res = app
                .http
                .post(app.url("/auth/v1/token?grant_type=password"))
                .header("x-real-ip", ip)
                .json(&json!({"email": "victim@example.com", "password": "guess"}))
                .send()
                .await
                .unwrap();
            res.status().as_u16()
        }
    };
    assert_eq!(try_as("10.0.0.1").await, 400);
    assert_eq!(try_as("10.0.0.2").await, 400);
    assert_eq!(try_as("10.0.0.3").await, 429, "per-account limit across IPs (A9)");
}

#[tokio::test]
async fn magic_links_sign_in_and_create_users_unless_told_not_to() {
    let mail = mail_dir();
    let app = spawn_app_with(&[("GATEWAY_MAIL_DIR", mail.path()), ("GOTRUE_SMTP_MAX_FREQUENCY", "0")]).await;
    let refused = post(&app, "/otp", json!({"email": "new@example.com", "create_user": false})).await;
    assert_eq!((refused.status, refused.body["code"].as_str()), (422, Some("otp_disabled")));
    let res = post(&app, "/otp", json!({"email": "new@example.com", "data": {"hello": "world"}})).await;
    assert_eq!((res.status, &res.body), (200, &json!({})));
    let first = mail.messages().pop().unwrap();
    assert!(verify_link(&first).contains("type=signup"), "a new address gets the confirmation");
    let session =
        post(&app, "/verify", json!({"type": "signup", "email": "new@example.com", "token": otp(&first)})).await;
    assert_eq!(session.status, 200, "{}", session.body);
    assert_eq!(session.body["user"]["user_metadata"]["hello"], "world");

    post(&app, "/otp", json!({"email": "new@example.com"})).await;
    let messages = mail.messages();
    assert_eq!(messages.len(), 2);
    let second = messages.into_iter().find(|m| m.contains("Subject: Your sign-in link")).expect("a magic link mail");
    assert!(verify_link(&second).contains("type=magiclink"));
    let again =
        post(&app, "/verify", json!({"type": "magiclink", "email": "new@example.com", "token": otp(&second)})).await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.body["user"]["email"], "new@example.com");
    let phone = post(&app, "/verify", json!({"type": "sms", "phone": "+441234567890", "token": "123456"})).await;
    assert_eq!((phone.status, phone.body["message"].as_str()), (403, Some("Token has expired or is invalid")));
}
