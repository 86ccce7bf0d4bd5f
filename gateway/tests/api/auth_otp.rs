//! `/otp` and `/magiclink` for an address with no confirmed account, on the wire, both ways GoTrue answers: with
//! `GOTRUE_MAILER_AUTOCONFIRM` the account is created (or an unconfirmed one confirmed) and a magic link is mailed;
//! without it the account waits unconfirmed and the sign-up confirmation is mailed, which signs in too.

use crate::auth_helpers::*;
use crate::helpers::{spawn_app_with, TestApp};
use reqwest::Method;
use serde_json::json;

/// (confirmed, `email_verified` in user_metadata, in the e-mail identity) of the account of `email`.
async fn confirmation(app: &TestApp, email: &str) -> (bool, bool, bool) {
    let row = app
        .admin_client()
        .await
        .query_one(
            "select u.email_confirmed_at is not null, coalesce((u.raw_user_meta_data->>'email_verified')::bool, false), \
             coalesce((i.identity_data->>'email_verified')::bool, false) \
             from auth.users u join auth.identities i on i.user_id = u.id and i.provider = 'email' where u.email = $1",
            &[&email],
        )
        .await
        .unwrap();
    (row.get(0), row.get(1), row.get(2))
}

/// The one message that arrived since the messages in `seen` (which it joins), to `email`.
fn new_mail(mail: &tempdir::Dir, seen: &mut Vec<String>, email: &str) -> String {
    let fresh: Vec<String> = mail.messages().into_iter().filter(|m| !seen.contains(m)).collect();
    assert_eq!(fresh.len(), 1, "one message per request");
    let m = fresh.into_iter().next().unwrap();
    assert!(m.contains(&format!("To: {email}")), "{m}");
    seen.push(m.clone());
    m
}

#[tokio::test]
async fn with_autoconfirm_a_new_address_is_confirmed_and_gets_a_magic_link() {
    let mail = mail_dir();
    let app = spawn_app_with(&[
        ("GOTRUE_MAILER_AUTOCONFIRM", "true"),
        ("GATEWAY_MAIL_DIR", mail.path()),
        ("GOTRUE_SMTP_MAX_FREQUENCY", "0"),
    ])
    .await;
    let mut seen = vec![];
    for (path, email) in [("/otp", "new@example.com"), ("/magiclink", "legacy@example.com")] {
        let res = post(&app, path, json!({"email": email, "data": {"hello": "world"}})).await;
        assert_eq!((res.status, &res.body), (200, &json!({})), "{path}");
        let m = new_mail(&mail, &mut seen, email);
        assert!(m.contains("Subject: Your sign-in link"), "{path}: a magic link, not a confirmation: {m}");
        assert!(verify_link(&m).contains("type=magiclink"), "{path}");
        assert_eq!(confirmation(&app, email).await, (true, true, true), "{path}: confirmed at once");
        let session = post(&app, "/verify", json!({"type": "magiclink", "email": email, "token": otp(&m)})).await;
        assert_eq!(session.status, 200, "{path}: {}", session.body);
        assert_eq!(session.body["user"]["user_metadata"]["hello"], "world");
        assert!(session.body["user"]["email_confirmed_at"].is_string());
    }

    // an account left unconfirmed (made by the admin API) is confirmed by the request and gets a magic link too
    let service = app.service_key.clone();
    let made =
        call(&app, Method::POST, "/admin/users", Some(&service), Some(json!({"email": "held@example.com"}))).await;
    assert_eq!(made.status, 200, "{}", made.body);
    assert_eq!(confirmation(&app, "held@example.com").await, (false, false, false));
    assert_eq!(post(&app, "/otp", json!({"email": "held@example.com"})).await.status, 200);
    let m = new_mail(&mail, &mut seen, "held@example.com");
    assert!(verify_link(&m).contains("type=magiclink"), "{m}");
    assert_eq!(confirmation(&app, "held@example.com").await, (true, true, true));

    // create_user false still refuses an unknown address; /magiclink without an address is GoTrue's 422
    let refused = post(&app, "/otp", json!({"email": "nobody@example.com", "create_user": false})).await;
    assert_eq!((refused.status, refused.body["code"].as_str()), (422, Some("otp_disabled")));
    let empty = post(&app, "/magiclink", json!({"phone": "+441234567890"})).await;
    assert_eq!(
        (empty.status, empty.body["code"].as_str(), empty.body["message"].as_str()),
        (422, Some("validation_failed"), Some("Password recovery requires an email"))
    );
    assert_eq!(mail.messages().len(), seen.len(), "no mail for the refusals");
}

#[tokio::test]
async fn without_autoconfirm_a_new_address_waits_unconfirmed_with_the_signup_confirmation() {
    let mail = mail_dir();
    let app = spawn_app_with(&[("GATEWAY_MAIL_DIR", mail.path()), ("GOTRUE_SMTP_MAX_FREQUENCY", "0")]).await;
    let mut seen = vec![];
    for (path, email) in [("/otp", "new@example.com"), ("/magiclink", "legacy@example.com")] {
        // /magiclink has no create_user: GoTrue creates the account regardless
        let res = post(&app, path, json!({"email": email, "create_user": path == "/otp"})).await;
        assert_eq!((res.status, &res.body), (200, &json!({})), "{path}");
        let m = new_mail(&mail, &mut seen, email);
        assert!(m.contains("Subject: Confirm your email address"), "{path}: {m}");
        assert!(verify_link(&m).contains("type=signup"), "{path}");
        assert_eq!(confirmation(&app, email).await, (false, false, false), "{path}: not confirmed by asking");
        // asking again before confirming sends the confirmation again, never a magic link
        assert_eq!(post(&app, path, json!({"email": email})).await.status, 200);
        let again = new_mail(&mail, &mut seen, email);
        assert!(verify_link(&again).contains("type=signup"), "{path}");
        let session = post(&app, "/verify", json!({"type": "signup", "email": email, "token": otp(&again)})).await;
        assert_eq!(session.status, 200, "{path}: {}", session.body);
        assert_eq!(confirmation(&app, email).await, (true, true, true), "{path}: the link confirms");
        // confirmed now: a magic link
        assert_eq!(post(&app, path, json!({"email": email})).await.status, 200);
        let link = new_mail(&mail, &mut seen, email);
        assert!(verify_link(&link).contains("type=magiclink"), "{path}: {link}");
    }
}
