//! Auth at the wire level, as GoTrue reads its parameters and answers (tests/conformance/AUDIT.md, Auth rows): key
//! sets with symmetric keys, raw JSON bodies as Go's `encoding/json` reads them, and the answers per `type`.

use crate::auth_helpers::*;
use crate::helpers::{spawn_app_with, TestApp};
use jwks::{KeyAlgorithm, KeySet, KeyStatus, SigningKey, VerifyOptions};
use reqwest::Method;
use serde_json::{json, Value};

/// Sends `body` as raw text with the anon key and the 2024 API version; returns (status, JSON body).
async fn raw(app: &TestApp, path: &str, bearer: Option<&str>, body: &str) -> (u16, Value) {
    let res = app
        .http
        .post(app.url(&format!("/auth/v1{path}")))
        .header("apikey", &app.anon_key)
        .header("authorization", format!("Bearer {}", bearer.unwrap_or(&app.anon_key)))
        .header("x-supabase-api-version", "2024-01-01")
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let call = into_call(res).await;
    (call.status, call.body)
}

fn code_and_message(got: &(u16, Value)) -> (u16, &str, &str) {
    (got.0, got.1["code"].as_str().unwrap_or(""), got.1["message"].as_str().unwrap_or(""))
}

async fn jwks_doc(app: &TestApp) -> Value {
    app.http.get(app.url("/auth/v1/.well-known/jwks.json")).send().await.unwrap().json().await.unwrap()
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

#[tokio::test]
async fn a_legacy_symmetric_key_beside_rsa_verifies_by_kid_and_is_never_published() {
    // The key set of a project that moved from the legacy secret to signing keys (the issue's example).
    let rsa = SigningKey::generate(KeyAlgorithm::Rs256, KeyStatus::Current).unwrap();
    let legacy = json!({"kty": "oct", "kid": "legacy-hs", "alg": "HS256", "k": "bGVnYWN5LXNoYXJlZC1zZWNyZXQtb2YtMzItYnl0ZXMh", "key_ops": ["verify"]});
    let keys = json!([legacy, rsa.to_private_jwk().unwrap()]).to_string();
    let app = spawn_app_with(&[("GOTRUE_JWT_KEYS", &keys), ("GOTRUE_MAILER_AUTOCONFIRM", "true")]).await;
    let doc = jwks_doc(&app).await;
    assert_eq!(doc["keys"].as_array().unwrap().len(), 1, "{doc}");
    assert_eq!((&doc["keys"][0]["kid"], &doc["keys"][0]["kty"]), (&json!(rsa.kid()), &json!("RSA")));
    assert!(!doc.to_string().contains("oct"), "{doc}");

    let session = signup_session(&app, "legacy@example.com", "secret123").await;
    let token = session["access_token"].as_str().unwrap();
    assert_eq!(jsonwebtoken::decode_header(token).unwrap().alg, jsonwebtoken::Algorithm::RS256);

    // A token the legacy key signed (with its kid) still verifies: GET /user answers.
    let oct = SigningKey::from_private_jwk(&legacy).unwrap().with_status(KeyStatus::Current);
    let claims: Value = KeySet::new(vec![rsa.clone()]).verify(token, &VerifyOptions::default()).unwrap();
    let mut old_claims = claims.clone();
    old_claims["exp"] = json!(now() + 600);
    let old = KeySet::new(vec![oct]).sign(&old_claims).unwrap();
    let me = call(&app, Method::GET, "/user", Some(&old), None).await;
    assert_eq!((me.status, &me.body["email"]), (200, &json!("legacy@example.com")), "{}", me.body);
    // The same claims under another secret do not.
    let forged =
        KeySet::new(vec![SigningKey::from_secret("legacy-hs", KeyStatus::Current, b"another-secret").unwrap()])
            .sign(&old_claims)
            .unwrap();
    let res = call(&app, Method::GET, "/user", Some(&forged), None).await;
    assert_eq!((res.status, res.body["code"].as_str()), (403, Some("bad_jwt")));
}

#[tokio::test]
async fn a_signing_symmetric_key_issues_hs256_tokens_with_its_kid() {
    let oct = json!({"kty": "oct", "kid": "hs-signer", "k": "c2lnbmluZy1zZWNyZXQtb2YtdGhpcnR5LXR3by1ieXRlcw", "key_ops": ["sign", "verify"]});
    let es = SigningKey::generate(KeyAlgorithm::Es256, KeyStatus::Previous).unwrap();
    let keys = json!([oct, es.to_private_jwk().unwrap()]).to_string();
    let app = spawn_app_with(&[("GOTRUE_JWT_KEYS", &keys), ("GOTRUE_MAILER_AUTOCONFIRM", "true")]).await;
    let session = signup_session(&app, "hs@example.com", "secret123").await;
    let token = session["access_token"].as_str().unwrap();
    let header = jsonwebtoken::decode_header(token).unwrap();
    assert_eq!((header.alg, header.kid.as_deref()), (jsonwebtoken::Algorithm::HS256, Some("hs-signer")));
    assert_eq!(call(&app, Method::GET, "/user", Some(token), None).await.status, 200);
    // Only the asymmetric (verify-only) key is published.
    let doc = jwks_doc(&app).await;
    assert_eq!(doc["keys"].as_array().unwrap().len(), 1);
    assert_eq!(doc["keys"][0]["kid"], es.kid());
    // The data API verifies the HS256 token too.
    let res =
        app.http.get(app.url("/rest/v1/")).header("apikey", &app.anon_key).bearer_auth(token).send().await.unwrap();
    assert_ne!(res.status(), 401);
}

#[tokio::test]
async fn bodies_are_read_as_gotrue_reads_them() {
    let app =
        spawn_app_with(&[("GOTRUE_MAILER_AUTOCONFIRM", "true"), ("GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED", "true")])
            .await;
    // An empty body is not `{}` (it would be an anonymous sign-in): Go's decoder refuses it.
    let empty = raw(&app, "/signup", None, "").await;
    assert_eq!(
        code_and_message(&empty),
        (400, "bad_json", "Could not parse request body as JSON: unexpected end of JSON input")
    );
    let bad_data =
        raw(&app, "/signup", None, r#"{"email": "d@example.com", "password": "secret123", "data": "x"}"#).await;
    assert_eq!((bad_data.0, bad_data.1["code"].as_str()), (400, Some("bad_json")));
    let wrong_type = raw(&app, "/otp", None, r#"{"email": "d@example.com", "create_user": "true"}"#).await;
    assert_eq!((wrong_type.0, wrong_type.1["code"].as_str()), (400, Some("bad_json")));
    // Field names match case-insensitively, as in Go.
    let (status, body) = raw(&app, "/signup", None, r#"{"Email": "Case@Example.com", "PASSWORD": "secret123"}"#).await;
    assert_eq!((status, &body["user"]["email"]), (200, &json!("case@example.com")), "{body}");
    let (status, _) =
        raw(&app, "/token?grant_type=password", None, r#"{"EMAIL": "case@example.com", "Password": "secret123"}"#)
            .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn otp_and_resend_check_their_parameters_like_gotrue() {
    let app = spawn_app_with(&[]).await;
    let both = raw(&app, "/otp", None, r#"{"email": "o@example.com", "phone": "+441234567890"}"#).await;
    assert_eq!(
        code_and_message(&both),
        (400, "validation_failed", "Only an email address or phone number should be provided")
    );
    let channel = raw(&app, "/otp", None, r#"{"email": "o@example.com", "channel": "sms"}"#).await;
    assert_eq!(
        code_and_message(&channel),
        (400, "validation_failed", "Channel should only be specified with Phone OTP")
    );
    let none = raw(&app, "/otp", None, r#"{"data": {}}"#).await;
    assert_eq!(code_and_message(&none), (400, "validation_failed", "One of email or phone must be set"));
    let no_email = raw(&app, "/resend", None, r#"{"type": "signup"}"#).await;
    assert_eq!(code_and_message(&no_email), (400, "validation_failed", "Type provided requires an email address"));
    let sms = raw(&app, "/resend", None, r#"{"type": "sms"}"#).await;
    assert_eq!(code_and_message(&sms), (400, "validation_failed", "Type provided requires a phone number"));
    let bad = raw(&app, "/resend", None, r#"{"type": "magiclink", "email": "o@example.com"}"#).await;
    assert_eq!(code_and_message(&bad).2, "Missing one of these types: signup, email_change, sms, phone_change");

    let off = spawn_app_with(&[("GOTRUE_EXTERNAL_EMAIL_ENABLED", "false")]).await;
    let disabled = raw(&off, "/otp", None, r#"{"email": "o@example.com"}"#).await;
    assert_eq!(code_and_message(&disabled), (422, "email_provider_disabled", "Email logins are disabled"));
}

#[tokio::test]
async fn generate_link_answers_per_type_as_gotrue() {
    let app = spawn_app_with(&[("GOTRUE_MAILER_AUTOCONFIRM", "true")]).await;
    let service = app.service_key.clone();
    signup_session(&app, "link@example.com", "secret123").await;
    let link = |body: Value| call(&app, Method::POST, "/admin/generate_link", Some(&service), Some(body));
    // The issue's example: the requested type is echoed, while the link itself says `email_change`.
    for kind in ["email_change_current", "email_change_new"] {
        let res = link(json!({"type": kind, "email": "link@example.com", "new_email": "new@example.com"})).await;
        assert_eq!(res.status, 200, "{}", res.body);
        assert_eq!(res.body["verification_type"], kind);
        assert!(res.body["action_link"].as_str().unwrap().contains("type=email_change&"), "{}", res.body);
    }
    // A magic link for an unknown address signs it up instead, and says so.
    let res = link(json!({"type": "magiclink", "email": "stranger@example.com"})).await;
    assert_eq!((res.status, &res.body["verification_type"]), (200, &json!("signup")), "{}", res.body);
    assert!(res.body["action_link"].as_str().unwrap().contains("type=signup"));
    let res = link(json!({"type": "signup", "email": "nopass@example.com"})).await;
    assert_eq!((res.status, res.body["message"].as_str()), (400, Some("Signup requires a valid password")));
    let res = link(json!({"type": "bogus", "email": "link@example.com"})).await;
    assert_eq!(res.body["message"], "Invalid email action link type requested: bogus");
    let res = link(json!({"type": "recovery", "email": "nobody@example.com"})).await;
    assert_eq!((res.status, res.body["code"].as_str()), (404, Some("user_not_found")));
}

#[tokio::test]
async fn verify_checks_parameters_and_answers_the_half_confirmation_as_gotrue() {
    let app = spawn_app_with(&[("GOTRUE_MAILER_AUTOCONFIRM", "true")]).await;
    let service = app.service_key.clone();
    signup_session(&app, "v@example.com", "secret123").await;
    let no_type = raw(&app, "/verify", None, r#"{"token_hash": "abc"}"#).await;
    assert_eq!(code_and_message(&no_type), (400, "validation_failed", "Verify requires a verification type"));
    let extra =
        raw(&app, "/verify", None, r#"{"type": "email", "token_hash": "abc", "redirect_to": "http://x"}"#).await;
    assert_eq!(code_and_message(&extra).2, "Only the token_hash and type should be provided");
    let neither = raw(&app, "/verify", None, r#"{"type": "email", "token": "123456"}"#).await;
    assert_eq!(code_and_message(&neither).2, "Only an email address or phone number should be provided on verify");
    let bad_email = raw(&app, "/verify", None, r#"{"type": "email", "token": "123456", "email": "nope"}"#).await;
    assert_eq!(code_and_message(&bad_email), (422, "validation_failed", "Invalid email format"));
    let get = app.http.get(app.url("/auth/v1/verify?type=signup")).send().await.unwrap();
    assert_eq!(get.status(), 400, "a GET without a token is answered in JSON, not redirected");

    // Secure e-mail change: the first of the two confirmations answers `{"msg", "code": "200"}` (a string).
    let link = |kind: &str| {
        call(
            &app,
            Method::POST,
            "/admin/generate_link",
            Some(&service),
            Some(json!({"type": kind, "email": "v@example.com", "new_email": "v2@example.com"})),
        )
    };
    let current = link("email_change_current").await.body["hashed_token"].as_str().unwrap().to_string();
    let new = link("email_change_new").await;
    assert_eq!(new.status, 200);
    let body = json!({"type": "email_change", "token_hash": current}).to_string();
    let (status, half) = raw(&app, "/verify", None, &body).await;
    assert_eq!(status, 200, "{half}");
    assert_eq!(half["code"], json!("200"), "{half}");
    assert!(half["msg"].as_str().unwrap().starts_with("Confirmation link accepted"));
}

#[tokio::test]
async fn admin_users_take_gotrue_parameters_and_answer_as_it_does() {
    let app = spawn_app_with(&[]).await;
    let service = app.service_key.clone();
    let id = "3f1c2b9e-6a0d-4c55-9a51-0d3c2f8b7e11";
    let hash = bcrypt::hash("imported-pass", 4).unwrap();
    let created = call(
        &app,
        Method::POST,
        "/admin/users",
        Some(&service),
        Some(json!({"id": id, "email": "imp@example.com", "password_hash": hash, "email_confirm": true, "user_metadata": {"full_name": "Imp Orted"}})),
    )
    .await;
    assert_eq!((created.status, &created.body["id"]), (200, &json!(id)), "{}", created.body);
    assert_eq!(sign_in(&app, "imp@example.com", "imported-pass").await.status, 200);
    let none = call(&app, Method::POST, "/admin/users", Some(&service), Some(json!({"password": "x"}))).await;
    assert_eq!(none.body["message"], "Cannot create a user without either an email or phone");
    let aud = call(
        &app,
        Method::POST,
        "/admin/users",
        Some(&service),
        Some(json!({"email": "aud@example.com", "aud": "partners"})),
    )
    .await;
    assert_eq!((aud.status, &aud.body["aud"]), (200, &json!("partners")), "{}", aud.body);
    let listed = call(&app, Method::GET, "/admin/users?filter=aud@", Some(&service), None).await;
    assert_eq!(listed.body["users"].as_array().unwrap().len(), 0, "another audience is not listed");
    let nil = call(
        &app,
        Method::POST,
        "/admin/users",
        Some(&service),
        Some(json!({"email": "n@example.com", "id": "00000000-0000-0000-0000-000000000000"})),
    )
    .await;
    assert_eq!(nil.body["message"], "ID cannot be a nil uuid");
    for n in 0..2 {
        let other = json!({"email": format!("other{n}@example.com"), "email_confirm": true});
        assert_eq!(call(&app, Method::POST, "/admin/users", Some(&service), Some(other)).await.status, 200);
    }
    // Pages: `Link` has rel="next" while pages remain; `filter` matches e-mail or full name.
    let page = call(&app, Method::GET, "/admin/users?per_page=1&page=1", Some(&service), None).await;
    let link = page.headers["link"].to_str().unwrap().to_string();
    assert!(
        link.contains("page=2") && link.contains("rel=\"next\"") && link.contains("page=3&per_page=1>; rel=\"last\""),
        "{link}"
    );
    let found = call(&app, Method::GET, "/admin/users?filter=Orted", Some(&service), None).await;
    assert_eq!(found.body["users"].as_array().unwrap().len(), 1, "{}", found.body);
    let ban =
        call(&app, Method::PUT, &format!("/admin/users/{id}"), Some(&service), Some(json!({"ban_duration": "1h30m"})))
            .await;
    assert_eq!(ban.status, 200, "{}", ban.body);
    let bad =
        call(&app, Method::PUT, &format!("/admin/users/{id}"), Some(&service), Some(json!({"ban_duration": "10"})))
            .await;
    assert_eq!((bad.status, bad.body["code"].as_str()), (400, Some("validation_failed")));
    let not_uuid = call(&app, Method::GET, "/admin/users/not-a-uuid", Some(&service), None).await;
    assert_eq!((not_uuid.status, not_uuid.body["message"].as_str()), (404, Some("user_id must be an UUID")));

    // Delete answers `{}`; a soft delete keeps the row without its address and ends sign-in.
    let gone = call(
        &app,
        Method::DELETE,
        &format!("/admin/users/{id}"),
        Some(&service),
        Some(json!({"should_soft_delete": true})),
    )
    .await;
    assert_eq!((gone.status, &gone.body), (200, &json!({})));
    let row = app
        .admin_client()
        .await
        .query_one(
            "select email, deleted_at is not null from auth.users where id = $1",
            &[&uuid::Uuid::parse_str(id).unwrap()],
        )
        .await
        .unwrap();
    assert_eq!((row.get::<_, Option<String>>(0), row.get::<_, bool>(1)), (None, true));
    assert_eq!(sign_in(&app, "imp@example.com", "imported-pass").await.status, 400);
}

/// Posts `body` to `/auth/v1{path}` as `content_type`, with the anon key; returns (status, JSON body).
async fn raw_as(app: &TestApp, path: &str, content_type: &str, body: &str) -> (u16, Value) {
    let res = app
        .http
        .post(app.url(&format!("/auth/v1{path}")))
        .header("apikey", &app.anon_key)
        .header("x-supabase-api-version", "2024-01-01")
        .header("content-type", content_type)
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let call = into_call(res).await;
    (call.status, call.body)
}

#[tokio::test]
async fn token_reads_grant_type_as_go_form_value_does() {
    let app = spawn_app_with(&[("GOTRUE_MAILER_AUTOCONFIRM", "true")]).await;
    signup_session(&app, "grant@example.com", "secret123").await;
    let credentials = r#"{"email": "grant@example.com", "password": "secret123"}"#;
    let unsupported = (400, "invalid_credentials", "unsupported_grant_type");
    // A JSON body's `grant_type` is not a form value: without the query the grant is unsupported.
    let body = r#"{"grant_type": "password", "email": "grant@example.com", "password": "secret123"}"#;
    let json_grant = raw_as(&app, "/token", "application/json", body).await;
    assert_eq!(code_and_message(&json_grant), unsupported, "{}", json_grant.1);
    // The grant is chosen before the body is read: bad JSON without a grant is still an unsupported grant.
    assert_eq!(code_and_message(&raw_as(&app, "/token", "application/json", "{nope").await), unsupported);
    let (status, _) = raw_as(&app, "/token?grant_type=password", "application/json", credentials).await;
    assert_eq!(status, 200);

    // A url-encoded body's field comes before the query's, and Go's form parser leaves no JSON to read.
    let form = "application/x-www-form-urlencoded";
    let consumed = (400, "bad_json", "Could not parse request body as JSON: unexpected end of JSON input");
    let picked = raw_as(&app, "/token", form, "grant_type=password&email=grant%40example.com").await;
    assert_eq!(code_and_message(&picked), consumed);
    let overridden = raw_as(&app, "/token?grant_type=password", form, "grant_type=implicit").await;
    assert_eq!(code_and_message(&overridden), unsupported);
    // A multipart body's field comes after the query's.
    let multipart = "multipart/form-data; boundary=B";
    let part = "--B\r\nContent-Disposition: form-data; name=\"grant_type\"\r\n\r\nrefresh_token\r\n--B--\r\n";
    assert_eq!(code_and_message(&raw_as(&app, "/token", multipart, part).await), consumed);
    assert_eq!(code_and_message(&raw_as(&app, "/token?grant_type=implicit", multipart, part).await), unsupported);
}

#[tokio::test]
async fn generate_link_refuses_the_current_address_link_without_secure_email_change() {
    let app = spawn_app_with(&[
        ("GOTRUE_MAILER_AUTOCONFIRM", "true"),
        ("GOTRUE_MAILER_SECURE_EMAIL_CHANGE_ENABLED", "false"),
    ])
    .await;
    let service = app.service_key.clone();
    signup_session(&app, "plain@example.com", "secret123").await;
    let link = |kind: &str| {
        let body = json!({"type": kind, "email": "plain@example.com", "new_email": "plain2@example.com"});
        call(&app, Method::POST, "/admin/generate_link", Some(&service), Some(body))
    };
    let current = link("email_change_current").await;
    assert_eq!(
        (current.status, current.body["code"].as_str(), current.body["message"].as_str()),
        (400, Some("validation_failed"), Some("Enable secure email change to generate link for current email"))
    );
    let new = link("email_change_new").await;
    assert_eq!((new.status, &new.body["verification_type"]), (200, &json!("email_change_new")), "{}", new.body);
}

#[tokio::test]
async fn generate_link_signup_merges_data_into_an_unconfirmed_users_metadata() {
    let mail = mail_dir();
    let app = spawn_app_with(&[("GATEWAY_MAIL_DIR", mail.path())]).await;
    let service = app.service_key.clone();
    let body = json!({"email": "later@example.com", "password": "secret123", "data": {"name": "Ada", "team": "ops"}});
    let signed_up = post(&app, "/signup", body).await;
    assert_eq!(signed_up.status, 200, "{}", signed_up.body);
    assert!(signed_up.body["email_confirmed_at"].is_null(), "{}", signed_up.body);
    // As GoTrue's `UpdateUserMetaData`: new keys added, given keys replaced, `null` removes a key.
    let body = json!({"type": "signup", "email": "later@example.com", "data": {"team": "sales", "name": null, "city": "Leeds"}});
    let res = call(&app, Method::POST, "/admin/generate_link", Some(&service), Some(body)).await;
    assert_eq!(res.status, 200, "{}", res.body);
    let merged = |m: &Value| (m["team"].clone(), m["city"].clone(), m.get("name").is_some());
    assert_eq!(merged(&res.body["user_metadata"]), (json!("sales"), json!("Leeds"), false), "{}", res.body);
    let stored: Value = app
        .admin_client()
        .await
        .query_one("select raw_user_meta_data from auth.users where email = 'later@example.com'", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(merged(&stored), (json!("sales"), json!("Leeds"), false), "{stored}");
}
