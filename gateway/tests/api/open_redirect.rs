//! S1/S2: no `Location` the gateway sends is read by a browser as another host — the site's slash redirect, Auth's
//! `/verify` redirect, and the e-mailed sign-in link chained through both — for a corpus of open-redirect payloads.

use crate::auth_helpers::{local_link, mail_dir, post};
use crate::helpers::{spawn_app_with, TestApp};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Open-redirect payloads from the public lists (PayloadsAllTheThings, OWASP), as request targets.
const PAYLOADS: &[&str] = &[
    "//evil.com/",
    "///evil.com/",
    "////evil.com/",
    "/\\evil.com/",
    "/\\/evil.com/",
    "/%2F%2Fevil.com/",
    "/%2f%2fevil.com/",
    "/%2F/evil.com/",
    "/%252F%252Fevil.com/",
    "/%5Cevil.com/",
    "/%5C%5Cevil.com/",
    "/%09/evil.com/",
    "/%0a/evil.com/",
    "/%0d%0a/evil.com/",
    "/%00/evil.com/",
    "/%2F%2Fevil.com%2F",
    "/%EF%BC%8Fevil.com/",
    "/%EF%BC%8F%EF%BC%8Fevil.com/",
    "/%E2%88%95evil.com/",
    "/%E2%81%84evil.com/",
    "/%EF%BC%BCevil.com/",
    "/.%2F%2Fevil.com/",
    "//evil.com@site/",
    "/@evil.com/",
    "/%40evil.com/",
];

/// Sends `GET target` as written (no client normalises it) and returns the status and the `Location`, if any.
async fn raw_get(app: &TestApp, target: &str) -> (u16, Option<String>) {
    let addr = app.base_url.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = vec![];
    stream.read_to_end(&mut answer).await.unwrap();
    let text = String::from_utf8_lossy(&answer);
    let status = text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let location = text.lines().take_while(|l| !l.is_empty()).find_map(|l| {
        l.split_once(':').filter(|(k, _)| k.eq_ignore_ascii_case("location")).map(|(_, v)| v.trim().to_string())
    });
    (status, location)
}

/// What a browser would do with `location` relative to `base`: the host it lands on.
fn landing_host(base: &str, location: &str) -> String {
    // Browsers strip tabs and newlines and read `\` as `/` before resolving.
    let cleaned: String = location.chars().filter(|c| !matches!(c, '\t' | '\n' | '\r')).collect();
    let cleaned = cleaned.replace('\\', "/");
    let url = url::Url::parse(base).unwrap().join(&cleaned).unwrap();
    url.host_str().unwrap_or_default().to_string()
}

fn site_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (file, text) in [("index.html", "home"), ("404.html", "404"), ("services/index.html", "services")] {
        let path = dir.path().join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, format!("<html><head><!--runtime-config--></head><body>{text}</body></html>")).unwrap();
    }
    std::fs::write(dir.path().join("_site.json"), "{}").unwrap();
    dir
}

fn assert_stays_home(app: &TestApp, target: &str, status: u16, location: Option<&str>) {
    if let Some(l) = location {
        let host = landing_host(&app.base_url, l);
        assert_eq!(host, "127.0.0.1", "{target} → {status} Location {l:?} leaves the origin");
        assert!(gateway::core::location::is_same_origin_path(l) || l.starts_with(&app.base_url), "{target} → {l:?}");
    }
}

#[tokio::test]
async fn the_site_never_redirects_off_its_origin() {
    let dir = site_dir();
    let app = spawn_app_with(&[("GATEWAY_SITE_DIR", dir.path().to_str().unwrap())]).await;
    for p in PAYLOADS {
        for target in [p.to_string(), format!("{p}x/"), format!("{p}?q=1")] {
            let (status, location) = raw_get(&app, &target).await;
            assert_stays_home(&app, &target, status, location.as_deref());
        }
    }
    // The ordinary slash redirect still works.
    assert_eq!(raw_get(&app, "/services/?a=1").await, (308, Some("/services?a=1".into())));
}

#[tokio::test]
async fn verify_falls_back_to_the_site_for_every_payload() {
    let app = spawn_app_with(&[]).await;
    for p in PAYLOADS {
        let redirect = format!("{}{p}", app.base_url);
        let target = format!(
            "/auth/v1/verify?type=magiclink&token=nope&redirect_to={}",
            url::form_urlencoded::byte_serialize(redirect.as_bytes()).collect::<String>()
        );
        let (status, location) = raw_get(&app, &target).await;
        assert_eq!(status, 303, "{target}");
        let location = location.unwrap();
        assert!(location.starts_with(&app.base_url), "{p}: {location}");
        assert_stays_home(&app, &target, status, Some(&location));
        let path = url::Url::parse(&location).unwrap().path().to_string();
        assert!(gateway::core::location::is_same_origin_path(&path), "{p}: {location}");
    }
}

/// S2: a real magic-link and recovery e-mail asked for with `redirect_to=<site>/%2F%2Fevil.example/` never delivers
/// the session fragment off the origin, after the verify redirect and whatever the site answers next.
#[tokio::test]
async fn an_emailed_link_never_carries_tokens_off_the_origin() {
    let mail = mail_dir();
    let dir = site_dir();
    let app = spawn_app_with(&[
        ("GATEWAY_MAIL_DIR", mail.path()),
        ("GATEWAY_SITE_DIR", dir.path().to_str().unwrap()),
        ("GOTRUE_MAILER_AUTOCONFIRM", "true"),
        ("GOTRUE_SMTP_MAX_FREQUENCY", "0"),
    ])
    .await;
    post(&app, "/signup", json!({"email": "victim@example.com", "password": "secret123"})).await;
    let mut seen: Vec<String> = vec![];
    for (n, p) in
        ["/%2F%2Fevil.example/", "///evil.example/", "/%09/evil.example/", "/%5Cevil.example/"].iter().enumerate()
    {
        let redirect = format!("{}{p}", app.base_url);
        let path = if n % 2 == 0 { "/otp" } else { "/recover" };
        let query = url::form_urlencoded::byte_serialize(redirect.as_bytes()).collect::<String>();
        let res = post(&app, &format!("{path}?redirect_to={query}"), json!({"email": "victim@example.com"})).await;
        assert_eq!(res.status, 200, "{}", res.body);
        let messages = mail.messages();
        assert_eq!(messages.len(), n + 1, "one mail per request");
        let message = messages.iter().find(|m| !seen.contains(*m)).unwrap().clone();
        seen.push(message.clone());
        let link = local_link(&app, &message);
        let (status, location) = raw_get(&app, link.trim_start_matches(&app.base_url)).await;
        assert_eq!(status, 303);
        let location = location.unwrap();
        assert!(location.contains("access_token="), "{message}\n→ {location}");
        assert_stays_home(&app, &link, status, Some(&location));
        // Follow on the site as a browser would (the fragment stays behind; the path is what the server sees).
        let path = url::Url::parse(&location).unwrap().path().to_string();
        let (status, next) = raw_get(&app, &path).await;
        assert_stays_home(&app, &path, status, next.as_deref());
    }
}

/// The data API's `Location` (an insert with `Prefer: return=headers-only`) is built from row values: with each
/// payload as the primary key it stays a path on this origin; Storage's object routes never redirect at all.
#[tokio::test]
async fn rest_locations_and_storage_routes_stay_on_the_origin() {
    let app = spawn_app_with(&[]).await;
    let db = app.admin_client().await;
    db.batch_execute(
        "create table public.redirect_probe (id text primary key); grant all on public.redirect_probe to service_role",
    )
    .await
    .unwrap();
    app.reload_schema().await;
    for p in PAYLOADS {
        let decoded = percent_encoding::percent_decode_str(p).decode_utf8_lossy().into_owned();
        for id in [p.to_string(), decoded] {
            let res = app
                .http
                .post(app.url("/rest/v1/redirect_probe"))
                .header("apikey", &app.service_key)
                .bearer_auth(&app.service_key)
                .header("prefer", "return=headers-only")
                .json(&json!({ "id": id }))
                .send()
                .await
                .unwrap();
            let status = res.status().as_u16();
            let location = res.headers().get("location").cloned();
            // 409: the decoded form equals the raw one; 400: PostgreSQL stores no NUL. Never a refused Location (500).
            if status == 409 || status == 400 {
                continue;
            }
            assert_eq!(status, 201, "{id:?} {location:?} {}", res.text().await.unwrap());
            let location = location.unwrap().to_str().unwrap().to_string();
            assert_stays_home(&app, &id, status, Some(&location));
        }
        for route in ["/storage/v1/object/public/cvs", "/storage/v1/object/sign/cvs", "/storage/v1/object/cvs"] {
            let (status, location) = raw_get(&app, &format!("{route}{p}")).await;
            assert!(location.is_none(), "{route}{p} → {status} Location {location:?}");
        }
    }
}
