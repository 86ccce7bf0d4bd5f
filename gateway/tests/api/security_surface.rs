//! S8, S9 and the headers every API answers with: a token minted for a signed URL is never a bearer token; HTML only
//! through the page path (with its headers), nothing from build internals; HSTS when the public URL is https; CORS on
//! every API (preflights answered, as Supabase's gateway does), so a supabase-js app on another origin works.

use crate::helpers::spawn_app_with;
use crate::security_support::answer;
use crate::storage_support::{pdf_bytes, spawn_storage};
use reqwest::Method;
use serde_json::json;

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
