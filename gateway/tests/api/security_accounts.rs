//! The signed-in surface, second review (issue 30): U1 oversized credentials (metadata capped at sign-up, `PUT
//! /user` and the admin API; tokens and API keys over 8 KiB refused by every API in its own words before any work;
//! the identity cache bounded), U6 a deleted user's or ended session's unexpired token refused by every API on every
//! gateway of the database (Storage writes included, through signed upload URLs too), U7 opaque `sb_` keys checked
//! against the configured ones on every API, Realtime's socket and broadcast API included, and
//! `GATEWAY_REQUIRE_APIKEY` honoured by Realtime.

use crate::auth_helpers::{call, into_call, post, signup_session, Call};
use crate::helpers::{spawn_app_on, spawn_app_with, TestApp};
use crate::security_support::site_app;
use crate::storage_support::spawn_storage;
use reqwest::Method;
use serde_json::json;
use std::time::{Duration, Instant};

const AUTOCONFIRM: (&str, &str) = ("GOTRUE_MAILER_AUTOCONFIRM", "true");
const PUBLISHABLE: &str = "sb_publishable_u7-test-key";
const SECRET: &str = "sb_secret_u7-test-key-0123456789abcdefghij";

/// `GET /rest/v1/{path}` with these credentials.
async fn rest(app: &TestApp, path: &str, apikey: &str, bearer: &str) -> Call {
    let req = app.http.get(app.url(&format!("/rest/v1/{path}"))).header("apikey", apikey).bearer_auth(bearer);
    into_call(req.send().await.unwrap()).await
}

/// `POST /storage/v1/object/cvs/<new folder>/cv.pdf` with these credentials.
async fn upload(app: &TestApp, apikey: &str, bearer: &str) -> Call {
    let path = format!("/storage/v1/object/cvs/{}/cv.pdf", uuid::Uuid::new_v4());
    let req = app.http.post(app.url(&path)).header("apikey", apikey).bearer_auth(bearer);
    let req = req.header("content-type", "application/pdf").body(crate::storage_support::pdf_bytes());
    into_call(req.send().await.unwrap()).await
}

/// `POST /realtime/v1/api/broadcast` of one public message with these credentials.
async fn broadcast(app: &TestApp, apikey: &str, bearer: &str) -> u16 {
    let body = json!({"messages": [{"topic": "room", "event": "e", "payload": {}}]});
    let req = app.http.post(app.url("/realtime/v1/api/broadcast")).header("apikey", apikey).bearer_auth(bearer);
    req.json(&body).send().await.unwrap().status().as_u16()
}

/// The status and body of a refused WebSocket upgrade, or 101 when it was accepted.
async fn socket(app: &TestApp, apikey: &str) -> (u16, String) {
    let url = format!("{}/realtime/v1/websocket?apikey={apikey}&vsn=1.0.0", app.base_url.replace("http", "ws"));
    match tokio_tungstenite::connect_async(url).await {
        Ok(_) => (101, String::new()),
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => (
            r.status().as_u16(),
            r.body().as_ref().map(|b| String::from_utf8_lossy(b).into_owned()).unwrap_or_default(),
        ),
        Err(e) => panic!("upgrade failed: {e}"),
    }
}

/// Waits (up to 5 s) until `check` holds; how long it took.
async fn within_5s<F: std::future::Future<Output = bool>>(mut check: impl FnMut() -> F, what: &str) -> Duration {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(5) {
        if check().await {
            return start.elapsed();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{what}: not within 5 s");
}

#[tokio::test]
async fn u1_metadata_is_capped_at_sign_up_on_update_and_in_the_admin_api() {
    let app = spawn_app_with(&[AUTOCONFIRM]).await;
    let big = json!({"bio": "x".repeat(200_000)});
    let too_large = |c: &Call, what: &str| {
        assert_eq!((c.status, c.body["code"].as_str()), (400, Some("validation_failed")), "{what}: {}", c.body);
        assert!(c.body["message"].as_str().unwrap_or_default().contains("too large"), "{what}: {}", c.body);
    };
    let email = "u1-metadata@example.org";
    let refused = post(&app, "/signup", json!({"email": email, "password": "a long password 1", "data": big})).await;
    too_large(&refused, "sign-up");
    let session = signup_session(&app, email, "a long password 1").await;
    let token = session["access_token"].as_str().unwrap();
    let put = call(&app, Method::PUT, "/user", Some(token), Some(json!({"data": big}))).await;
    too_large(&put, "PUT /user");
    let fits = call(&app, Method::PUT, "/user", Some(token), Some(json!({"data": {"bio": "x".repeat(1500)}}))).await;
    assert_eq!(fits.status, 200, "{}", fits.body);
    let more = call(&app, Method::PUT, "/user", Some(token), Some(json!({"data": {"cv": "y".repeat(1000)}}))).await;
    too_large(&more, "PUT /user growing the merged metadata past the cap");
    let service = app.service_key.clone();
    let create = json!({"email": "u1-admin@example.org", "user_metadata": big});
    too_large(&call(&app, Method::POST, "/admin/users", Some(&service), Some(create)).await, "admin create");
    let id = session["user"]["id"].as_str().unwrap();
    let update = json!({"app_metadata": big});
    too_large(
        &call(&app, Method::PUT, &format!("/admin/users/{id}"), Some(&service), Some(update)).await,
        "admin update",
    );
    let db = app.admin_client().await;
    let size: i32 = db
        .query_one("select pg_column_size(raw_user_meta_data) from auth.users where email = $1", &[&email])
        .await
        .unwrap()
        .get(0);
    assert!(size < 4096, "what is stored stays small: {size} bytes");
}

#[tokio::test]
async fn u1_oversized_tokens_and_api_keys_are_refused_by_every_api_before_any_work() {
    let storage = spawn_storage(&[]).await; // a folder of its own, should an upload get through
    let app = &storage.app;
    // a validly signed token of 20 KB (what 15 KB of user_metadata made before the cap)
    let now = chrono::Utc::now().timestamp();
    let claims = json!({"role": "authenticated", "sub": uuid::Uuid::new_v4(), "exp": now + 600, "iat": now,
                        "user_metadata": {"bio": "x".repeat(15_000)}});
    let big = app.keys().sign(&claims).unwrap();
    assert!(big.len() > 20_000);
    let anon = app.anon_key.clone();
    let r = rest(app, "jobs?select=id", &anon, &big).await;
    assert_eq!((r.status, r.body["code"].as_str()), (401, Some("PGRST301")), "{}", r.body);
    assert_eq!(r.body["message"], "the credentials are larger than 8192 bytes");
    let junk = "j".repeat(300_000);
    let r = rest(app, "jobs?select=id", &junk, &anon).await;
    assert_eq!((r.status, r.body["code"].as_str()), (401, Some("PGRST301")), "a 300 KB apikey: {}", r.body);
    let s = upload(app, &anon, &big).await;
    assert_eq!((s.status, s.body["statusCode"].as_str()), (400, Some("403")), "{}", s.body);
    assert_eq!(s.body["message"], "the credentials are larger than 8192 bytes");
    let a = call(app, Method::GET, "/user", Some(&big), None).await;
    assert_eq!((a.status, a.body["code"].as_str()), (403, Some("bad_jwt")), "{}", a.body);
    assert!(a.body["message"].as_str().unwrap().ends_with("the credentials are larger than 8192 bytes"));
    assert_eq!(broadcast(app, &anon, &big).await, 401);
    assert_eq!(socket(app, &big).await, (401, r#"{"error":"The token is larger than 8192 bytes"}"#.to_string()));
    // the issue's pattern: the anon key as bearer and a unique 300 KB apikey each time; nothing is kept
    for i in 0..50 {
        let unique = format!("{}{i}", "k".repeat(300_000));
        assert_eq!(rest(app, "jobs?select=id", &unique, &anon).await.status, 401);
    }
    assert!(app.state.core.identities.is_empty(), "{} identities cached", app.state.core.identities.len());
}

#[tokio::test]
async fn u6_a_deleted_users_token_is_refused_by_every_api_on_every_gateway() {
    let a = site_app(&[AUTOCONFIRM]).await;
    let b = spawn_app_on(&a.app.db_name, &[AUTOCONFIRM, ("GATEWAY_OUTBOX", "off")]).await;
    let anon = a.app.anon_key.clone();
    let session = signup_session(&a.app, "u6-ghost@example.org", "a long password 1").await;
    let token = session["access_token"].as_str().unwrap().to_string();
    let id = session["user"]["id"].as_str().unwrap().to_string();
    for app in [&a.app, &b] {
        assert_eq!(rest(app, "cv_documents?select=id", &anon, &token).await.status, 200);
        assert_eq!(upload(app, &anon, &token).await.status, 200, "before the deletion");
    }
    let folder = uuid::Uuid::new_v4();
    let sign = |app: &TestApp| {
        let url = app.url(&format!("/storage/v1/object/upload/sign/cvs/{folder}/late.pdf"));
        app.http.post(url).header("apikey", &anon).bearer_auth(&token).send()
    };
    let minted = into_call(sign(&a.app).await.unwrap()).await;
    assert_eq!(minted.status, 200, "{}", minted.body);
    let signed_url = minted.body["url"].as_str().unwrap().to_string();

    let db = a.app.admin_client().await;
    let before: chrono::DateTime<chrono::Utc> = db.query_one("select now()", &[]).await.unwrap().get(0);
    let deleted = call(&a.app, Method::DELETE, &format!("/admin/users/{id}"), Some(&a.app.service_key), None).await;
    assert_eq!(deleted.status, 200, "{}", deleted.body);
    // Storage writes: refused at once, on both gateways and through the URL signed before
    for app in [&a.app, &b] {
        let refused = upload(app, &anon, &token).await;
        assert_eq!((refused.status, refused.body["statusCode"].as_str()), (400, Some("403")), "{}", refused.body);
    }
    let put = a.app.http.put(a.app.url(&format!("/storage/v1{signed_url}")));
    let put = into_call(
        put.header("content-type", "application/pdf").body(crate::storage_support::pdf_bytes()).send().await.unwrap(),
    )
    .await;
    assert_eq!((put.status, put.body["statusCode"].as_str()), (400, Some("403")), "signed upload: {}", put.body);
    let q = "select count(*) from storage.objects where owner_id = $1 and created_at >= $2";
    let written: i64 = db.query_one(q, &[&id, &before]).await.unwrap().get(0);
    assert_eq!(written, 0, "nothing was written for the deleted user");
    // every other API, on both gateways, as soon as the notification is heard
    for app in [&a.app, &b] {
        let took =
            within_5s(|| async { rest(app, "cv_documents?select=id", &anon, &token).await.status == 401 }, "REST")
                .await;
        assert!(took < Duration::from_secs(2), "REST took {took:?}");
        let r = rest(app, "cv_documents?select=id", &anon, &token).await;
        assert_eq!(r.body["code"], "PGRST303", "{}", r.body);
        assert_eq!(into_call(sign(app).await.unwrap()).await.status, 400, "minting a signed upload URL");
        assert_eq!(broadcast(app, &anon, &token).await, 401);
        assert_eq!(socket(app, &token).await.0, 401);
    }
    // a gateway started after the deletion refuses it from its first request
    let c = spawn_app_on(&a.app.db_name, &[("GATEWAY_OUTBOX", "off")]).await;
    assert_eq!(rest(&c, "cv_documents?select=id", &anon, &token).await.status, 401);
}

#[tokio::test]
async fn u6_a_deletion_missed_while_the_listener_is_disconnected_is_read_on_reconnect() {
    let app = spawn_app_with(&[AUTOCONFIRM]).await;
    let anon = app.anon_key.clone();
    let session = signup_session(&app, "u6-missed@example.org", "a long password 1").await;
    let token = session["access_token"].as_str().unwrap().to_string();
    let id = session["user"]["id"].as_str().unwrap().to_string();
    assert_eq!(rest(&app, "jobs?select=id", &anon, &token).await.status, 200);
    // the gateway's listening connection is cut and the user deleted at once: no notification can reach it
    let db = app.admin_client().await;
    let cut = format!(
        "select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and query like '%from gateway.revocations%';
         delete from auth.users where id = '{id}';"
    );
    db.batch_execute(&cut).await.unwrap();
    within_5s(|| async { rest(&app, "jobs?select=id", &anon, &token).await.status == 401 }, "after the reconnect")
        .await;
}

#[tokio::test]
async fn u6_an_ended_sessions_token_is_refused_like_auth_refuses_it() {
    let app = spawn_app_with(&[AUTOCONFIRM]).await;
    let anon = app.anon_key.clone();
    let first = signup_session(&app, "u6-signout@example.org", "a long password 1").await;
    let token = first["access_token"].as_str().unwrap().to_string();
    assert_eq!(rest(&app, "jobs?select=id", &anon, &token).await.status, 200);
    let out = call(&app, Method::POST, "/logout?scope=local", Some(&token), None).await;
    assert_eq!(out.status, 204, "{}", out.body);
    within_5s(|| async { rest(&app, "jobs?select=id", &anon, &token).await.status == 401 }, "REST after sign-out")
        .await;
    let user = call(&app, Method::GET, "/user", Some(&token), None).await;
    assert_eq!(user.body["code"], "session_not_found", "Auth's own answer: {}", user.body);
    // a new session of the same user works
    let again = crate::auth_helpers::sign_in(&app, "u6-signout@example.org", "a long password 1").await;
    let fresh = again.body["access_token"].as_str().unwrap();
    assert_eq!(rest(&app, "jobs?select=id", &anon, fresh).await.status, 200);
}

#[tokio::test]
async fn u7_opaque_keys_are_checked_against_the_configured_ones_on_every_api() {
    let storage = spawn_storage(&[("SUPABASE_PUBLISHABLE_KEY", PUBLISHABLE), ("SUPABASE_SECRET_KEY", SECRET)]).await;
    let app = &storage.app;
    let garbage = "sb_garbage";
    // unknown: refused everywhere, in each API's words
    let r = rest(app, "jobs?select=id", garbage, garbage).await;
    assert_eq!((r.status, r.body["message"].as_str()), (401, Some("Invalid API key")), "{}", r.body);
    let s = upload(app, garbage, garbage).await;
    assert_eq!((s.status, s.body["message"].as_str()), (400, Some("Invalid API key")), "{}", s.body);
    let settings = app.http.get(app.url("/auth/v1/settings")).header("apikey", garbage).send().await.unwrap();
    let settings = into_call(settings).await;
    assert_eq!((settings.status, &settings.body), (401, &json!({"message": "Invalid authentication credentials"})));
    assert_eq!(broadcast(app, garbage, garbage).await, 401);
    assert_eq!(socket(app, garbage).await, (401, r#"{"error":"Invalid authentication credentials"}"#.to_string()));
    // the configured ones: publishable is anon, secret is service_role, as supabase-js sends them
    assert_eq!(rest(app, "jobs?select=id", PUBLISHABLE, PUBLISHABLE).await.status, 200);
    assert_eq!(socket(app, PUBLISHABLE).await.0, 101);
    assert_eq!(broadcast(app, PUBLISHABLE, PUBLISHABLE).await, 202);
    let users = app.http.get(app.url("/auth/v1/admin/users")).header("apikey", SECRET).bearer_auth(SECRET);
    assert_eq!(users.send().await.unwrap().status(), 200, "a secret key is service_role for the admin API");
    let public = app.http.get(app.url("/auth/v1/admin/users")).header("apikey", PUBLISHABLE).bearer_auth(PUBLISHABLE);
    assert_eq!(public.send().await.unwrap().status(), 403, "a publishable key is not");
    let db = app.admin_client().await;
    db.batch_execute(
        "create function public.whoami() returns text language sql as $$ select current_user::text $$;
         grant execute on function public.whoami() to anon, service_role; notify pgrst, 'reload schema';",
    )
    .await
    .unwrap();
    app.reload_schema().await;
    let whoami = |key: &'static str| {
        let req = app.http.post(app.url("/rest/v1/rpc/whoami")).header("apikey", key).bearer_auth(key);
        async move { into_call(req.send().await.unwrap()).await.body }
    };
    assert_eq!(whoami(PUBLISHABLE).await, json!("anon"));
    assert_eq!(whoami(SECRET).await, json!("service_role"));
}

#[tokio::test]
async fn u7_realtime_honours_the_required_api_key() {
    let app = spawn_app_with(&[("GATEWAY_REQUIRE_APIKEY", "true")]).await;
    let anon = app.anon_key.clone();
    let now = chrono::Utc::now().timestamp();
    let user =
        app.keys().sign(&json!({"role": "authenticated", "sub": uuid::Uuid::new_v4(), "exp": now + 600})).unwrap();
    // REST and Realtime answer alike: an unknown key, or a user's token in place of the key, is refused
    assert_eq!(rest(&app, "jobs?select=id", "sb_garbage", &anon).await.status, 401);
    assert_eq!(broadcast(&app, "sb_garbage", &anon).await, 401, "the broadcast API, as REST");
    assert_eq!(socket(&app, "sb_garbage").await.0, 401, "the socket, as REST");
    assert_eq!(socket(&app, &user).await.0, 401, "a user's token is no API key");
    let no_key = app.http.post(app.url("/realtime/v1/api/broadcast")).bearer_auth(&anon);
    let no_key = no_key.json(&json!({"messages": [{"topic": "room", "event": "e", "payload": {}}]}));
    assert_eq!(no_key.send().await.unwrap().status(), 401, "no apikey header");
    // the gateway's keys pass, with a user's token as the bearer
    assert_eq!(broadcast(&app, &anon, &user).await, 202);
    assert_eq!(socket(&app, &anon).await.0, 101);
}
