//! S8, S9 and the headers every API answers with: a token minted for a signed URL or an e-mail link is never a
//! bearer token; HTML only
//! through the page path (with its headers), nothing from build internals; HSTS when the public URL is https; CORS on
//! every API (preflights answered, as Supabase's gateway does), so a supabase-js app on another origin works.

use crate::auth_helpers::{local_link, mail_dir, otp, post, signup_session};
use crate::helpers::{spawn_app_with, TestApp};
use crate::security_support::answer;
use crate::storage_support::{pdf_bytes, spawn_storage};
use reqwest::Method;
use serde_json::{json, Value};

#[tokio::test]
async fn s8_signed_url_tokens_are_refused_as_bearer_tokens_everywhere() {
    let s = spawn_storage(&[]).await;
    let service = s.app.service_key.clone();
    s.create_bucket(json!({"name": "docs", "public": false})).await;
    assert_eq!(s.upload(&service, "docs/a.pdf", "application/pdf", pdf_bytes()).await.0, 200);
    let signed = s.req(Method::POST, "/object/sign/docs/a.pdf", &service).json(&json!({"expiresIn": 600})).send();
    let signed = answer(signed.await.unwrap()).await;
    let download = signed.body["signedURL"].as_str().unwrap().split("token=").nth(1).unwrap().to_string();
    let upload = answer(s.req(Method::POST, "/object/upload/sign/docs/b.pdf", &service).send().await.unwrap()).await;
    let upload = upload.body["token"].as_str().unwrap().to_string();
    for (what, token) in [("download", &download), ("upload", &upload)] {
        let app = &s.app;
        let rest =
            app.http.get(app.url("/rest/v1/jobs?select=id")).bearer_auth(token).header("apikey", &app.anon_key).send();
        assert_eq!(rest.await.unwrap().status(), 401, "{what} token on /rest/v1");
        let rest = app.http.get(app.url("/rest/v1/jobs?select=id")).header("apikey", token.as_str()).send();
        assert_eq!(rest.await.unwrap().status(), 401, "{what} token as apikey on /rest/v1");
        let storage = s.req(Method::GET, "/bucket", token).send().await.unwrap();
        assert_ne!(storage.status(), 200, "{what} token on /storage/v1/bucket");
        let auth = app.http.get(app.url("/auth/v1/user")).bearer_auth(token).send().await.unwrap();
        assert!([401, 403].contains(&auth.status().as_u16()), "{what} token on /auth/v1/user");
        let broadcast = json!({"messages": [{"topic": "room", "event": "e", "payload": {}}]});
        let realtime = app.http.post(app.url("/realtime/v1/api/broadcast")).bearer_auth(token);
        let realtime = realtime.header("apikey", token.as_str()).json(&broadcast).send().await.unwrap();
        assert!(
            [401, 403].contains(&realtime.status().as_u16()),
            "{what} token on /realtime/v1: {}",
            realtime.status()
        );
    }
    // The signed URL itself still works, for its one object.
    let res = s.app.http.get(s.url(signed.body["signedURL"].as_str().unwrap())).send().await.unwrap();
    assert_eq!(res.status(), 200);
}

/// `token` as the bearer on the data API, Storage and Auth: each refuses it in its own format.
async fn assert_refused_as_bearer(app: &TestApp, what: &str, token: &str) {
    let rest = app.http.get(app.url("/rest/v1/jobs?select=id")).bearer_auth(token).header("apikey", &app.anon_key);
    let rest = answer(rest.send().await.unwrap()).await;
    assert_eq!((rest.status, &rest.body["code"]), (401, &json!("PGRST301")), "{what} on /rest/v1: {}", rest.body);
    let storage = app.http.get(app.url("/storage/v1/bucket")).bearer_auth(token).header("apikey", &app.anon_key);
    let storage = answer(storage.send().await.unwrap()).await;
    // Storage's own refusal of a bad token: HTTP 400 with `statusCode` "403" in the body.
    assert_eq!(
        (storage.status, &storage.body["statusCode"], &storage.body["error"]),
        (400, &json!("403"), &json!("Unauthorized")),
        "{what} on /storage/v1: {}",
        storage.body
    );
    let auth = app.http.get(app.url("/auth/v1/user")).bearer_auth(token).header("apikey", &app.anon_key);
    let auth = answer(auth.send().await.unwrap()).await;
    assert_eq!((auth.status, &auth.body["error_code"]), (403, &json!("bad_jwt")), "{what} on /auth/v1: {}", auth.body);
}

fn query_value(url: &str, key: &str) -> String {
    let query = url.split_once('?').map(|(_, q)| q).unwrap_or_else(|| panic!("no query in {url}"));
    let found = url::form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == key);
    found.unwrap_or_else(|| panic!("no {key} in {url}")).1.into_owned()
}

#[tokio::test]
async fn s8_e_mail_link_tokens_are_refused_as_bearer_tokens_everywhere() {
    use base64::Engine;
    use sha2::Digest;
    let mail = mail_dir();
    let app = spawn_app_with(&[
        ("GATEWAY_MAIL_DIR", mail.path()),
        ("GOTRUE_MAILER_AUTOCONFIRM", "true"),
        ("GOTRUE_SITE_URL", "http://localhost:3000"),
    ])
    .await;
    let no_redirects = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    // A recovery mail: the token hash in its link and its six-digit code.
    signup_session(&app, "reset@example.com", "secret123").await;
    assert_eq!(post(&app, "/recover", json!({"email": "reset@example.com"})).await.status, 200);
    let mail_to = |address: &str| mail.messages().into_iter().find(|m| m.contains(address)).unwrap();
    let message = mail_to("reset@example.com");
    let recovery_link = local_link(&app, &message);
    let token_hash = query_value(&recovery_link, "token");
    assert_refused_as_bearer(&app, "recovery link token", &token_hash).await;
    assert_refused_as_bearer(&app, "recovery code", &otp(&message)).await;
    // A PKCE magic link: its `pkce_` token, then the auth code its redirect carries.
    signup_session(&app, "pkce@example.com", "secret123").await;
    let verifier = "v".repeat(64);
    let challenge = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(verifier.as_bytes()));
    let otp_body = json!({"email": "pkce@example.com", "code_challenge": challenge, "code_challenge_method": "s256"});
    assert_eq!(post(&app, "/otp", otp_body).await.status, 200);
    let pkce_link = local_link(&app, &mail_to("pkce@example.com"));
    assert_refused_as_bearer(&app, "pkce link token", &query_value(&pkce_link, "token")).await;
    let res = no_redirects.get(&pkce_link).send().await.unwrap();
    assert_eq!(res.status(), 303);
    let code = query_value(res.headers()["location"].to_str().unwrap(), "code");
    assert_refused_as_bearer(&app, "pkce auth code", &code).await;

    // Each token still does its own job: refused elsewhere, it was never spent.
    let res = no_redirects.get(&recovery_link).send().await.unwrap();
    let location = res.headers()["location"].to_str().unwrap().to_string();
    assert!(location.contains("#access_token="), "{location}");
    let exchange = json!({"auth_code": code, "code_verifier": verifier});
    let session: Value = post(&app, "/token?grant_type=pkce", exchange).await.body;
    assert!(session["access_token"].is_string(), "{session}");
}

fn built_site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (file, text) in [
        ("index.html", "<html><head><!--runtime-config--></head><body>home</body></html>"),
        ("app.html", "<html><head><!--runtime-config--></head><body>app</body></html>"),
        ("404.html", "<html><head><!--runtime-config--></head><body>not found</body></html>"),
        ("services/index.html", "<html><head><!--runtime-config--></head><body>services</body></html>"),
        (".vite/manifest.json", r#"{"src/main.tsx": {"file": "assets/main.js"}}"#),
        ("assets/main.js", "console.log(1)"),
        ("_site.json", r#"{"spa": [{"prefix": "/admin", "file": "app.html"}]}"#),
    ] {
        let path = dir.path().join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

#[tokio::test]
async fn s9_html_only_through_the_page_path_and_no_build_internals() {
    let site = built_site();
    let app = spawn_app_with(&[("GATEWAY_SITE_DIR", site.path().to_str().unwrap())]).await;
    for path in ["/", "/services", "/admin/jobs"] {
        let res = app.http.get(app.url(path)).send().await.unwrap();
        assert_eq!(res.status(), 200, "{path}");
        assert!(res.headers().contains_key("content-security-policy"), "{path} has the pages' headers");
    }
    for path in ["/index.html", "/app.html", "/404.html", "/services/index.html", "/.vite/manifest.json"] {
        let res = app.http.get(app.url(path)).send().await.unwrap();
        assert_eq!(res.status(), 404, "{path} is not a file to serve");
        assert!(res.headers().contains_key("content-security-policy"), "{path}: the 404 page, with its headers");
        let body = res.text().await.unwrap();
        assert!(!body.contains("assets/main.js") && !body.contains("home"), "{path}: {body}");
    }
    assert_eq!(app.http.get(app.url("/assets/main.js")).send().await.unwrap().status(), 200);
}

#[tokio::test]
async fn hsts_when_the_public_url_is_https_and_never_over_plain_http() {
    let https = spawn_app_with(&[("API_EXTERNAL_URL", "https://jobs.firm.example")]).await;
    for path in ["/rest/v1/", "/auth/v1/health", "/storage/v1/bucket", "/"] {
        let res = https.http.get(https.url(path)).send().await.unwrap();
        let hsts = res.headers().get("strict-transport-security").map(|v| v.to_str().unwrap().to_string());
        assert!(hsts.as_deref().is_some_and(|v| v.starts_with("max-age=31536000")), "{path}: {hsts:?}");
    }
    let http = spawn_app_with(&[]).await;
    let res = http.http.get(http.url("/rest/v1/")).send().await.unwrap();
    assert!(!res.headers().contains_key("strict-transport-security"));
}

#[tokio::test]
async fn cors_on_every_api_for_an_app_on_another_origin() {
    let app = spawn_app_with(&[]).await;
    let origin = "https://other-app.example";
    for (path, method) in [
        ("/storage/v1/object/cvs/a/cv.pdf", "POST"),
        ("/storage/v1/object/list/cvs", "POST"),
        ("/storage/v1/bucket", "GET"),
        ("/rest/v1/jobs", "GET"),
        ("/auth/v1/token?grant_type=password", "POST"),
    ] {
        let res = app
            .http
            .request(Method::OPTIONS, app.url(path))
            .header("origin", origin)
            .header("access-control-request-method", method)
            .header("access-control-request-headers", "authorization,apikey,content-type,x-upsert,x-client-info")
            .send()
            .await
            .unwrap();
        assert!(res.status().is_success(), "preflight {path}: {}", res.status());
        let h = res.headers();
        let allow_origin = h.get("access-control-allow-origin").map(|v| v.to_str().unwrap());
        assert!(matches!(allow_origin, Some("*") | Some("https://other-app.example")), "{path}: {allow_origin:?}");
        let allowed = h.get("access-control-allow-headers").map(|v| v.to_str().unwrap().to_ascii_lowercase());
        assert!(allowed.as_deref().is_some_and(|a| a.contains("authorization") && a.contains("apikey")), "{path}");
    }
    let res = app
        .http
        .get(app.url("/storage/v1/bucket"))
        .header("origin", origin)
        .header("apikey", &app.service_key)
        .bearer_auth(&app.service_key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(res.headers().contains_key("access-control-allow-origin"), "a storage answer a browser may read");
}
