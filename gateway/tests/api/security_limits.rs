//! S3/S4 and the enquiry form: limits key on the real client (the socket peer, or what a configured trusted proxy
//! says), never on a header the client controls; they fail closed; every path that creates rows or stored bytes is
//! counted (REST inserts, storage uploads, uploads through signed URLs); a global cap bounds what visitors store per
//! hour; refusals are 429 with `Retry-After`, never 500. Each real client connects from its own loopback address.

use crate::auth_helpers::{into_call, mail_dir};
use crate::security_support::*;
use serde_json::json;

/// The defaults of sql/migrations/0260_client_limits.sql.
const APPLICATIONS_PER_CLIENT: usize = 10;
const ENQUIRIES_PER_CLIENT: usize = 10;
const UPLOADS_PER_CLIENT: usize = 20;

#[tokio::test]
async fn s3_forwarded_headers_from_a_client_neither_reset_nor_escape_the_limit() {
    let s = site_app(&[]).await;
    let attacker = client_from("127.0.0.1");
    for i in 0..APPLICATIONS_PER_CLIENT {
        let spoof = format!("198.51.100.{i}");
        let row = application(&s, &format!("a{i}@example.org"), "Ada").await;
        let a =
            insert(&s, &attacker, "applications", &row, &[("x-forwarded-for", &spoof), ("x-real-ip", &spoof)]).await;
        assert_eq!(a.status, 201, "application {i}: {}", a.body);
    }
    let row = application(&s, "next@example.org", "Ada").await;
    let spoofed = insert(&s, &attacker, "applications", &row, &[("x-forwarded-for", "203.0.113.77")]).await;
    assert_refused_with_retry_after(&spoofed, "a new X-Forwarded-For is the same client");
    let bare = insert(&s, &attacker, "applications", &application(&s, "bare@example.org", "Ada").await, &[]).await;
    assert_refused_with_retry_after(&bare, "no header at all is the same client, never unlimited");
    assert_eq!(bare.body["code"], "PT429");

    let other = client_from("127.0.0.2");
    let a = insert(&s, &other, "applications", &application(&s, "other@example.org", "Grace").await, &[]).await;
    assert_eq!(a.status, 201, "another real client has its own budget: {}", a.body);
    let keys = texts(
        &s,
        "select distinct client_key from private.submission_log where kind = 'application:client' order by 1",
    )
    .await;
    assert_eq!(keys, hashed_keys(&s, &["127.0.0.1", "127.0.0.2"]).await, "SQL saw only socket addresses, hashed");
}

#[tokio::test]
async fn s3_a_configured_trusted_proxy_names_the_client() {
    let s = site_app(&[("GATEWAY_TRUSTED_PROXIES", "127.0.0.5/32")]).await;
    let proxy = client_from("127.0.0.5");
    for i in 0..APPLICATIONS_PER_CLIENT {
        let row = application(&s, &format!("p{i}@example.org"), "Ada").await;
        // The proxy appends the address it saw to whatever the client sent: the right-most entry is the client.
        let a = insert(&s, &proxy, "applications", &row, &[("x-forwarded-for", "1.1.1.1, 203.0.113.1")]).await;
        assert_eq!(a.status, 201, "{}", a.body);
    }
    let row = application(&s, "p@example.org", "Ada").await;
    let a = insert(&s, &proxy, "applications", &row, &[("x-forwarded-for", "9.9.9.9, 203.0.113.1")]).await;
    assert_refused_with_retry_after(&a, "the client behind the proxy");
    let row = application(&s, "q@example.org", "Ada").await;
    assert_eq!(insert(&s, &proxy, "applications", &row, &[("x-forwarded-for", "203.0.113.2")]).await.status, 201);
    let untrusted = client_from("127.0.0.6");
    let row = application(&s, "r@example.org", "Ada").await;
    assert_eq!(insert(&s, &untrusted, "applications", &row, &[("x-forwarded-for", "203.0.113.3")]).await.status, 201);
    let keys = texts(
        &s,
        "select distinct client_key from private.submission_log where kind = 'application:client' order by 1",
    )
    .await;
    assert_eq!(keys, hashed_keys(&s, &["127.0.0.6", "203.0.113.1", "203.0.113.2"]).await);
}

/// The rate-limit keys (sql/migrations/0263) of these client addresses under today's salt, sorted: what
/// `private.submission_log` holds instead of the addresses.
async fn hashed_keys(s: &crate::storage_support::StorageApp, addresses: &[&str]) -> Vec<String> {
    let list = addresses.iter().map(|a| format!("'{a}'")).collect::<Vec<_>>().join(",");
    let q = format!(
        "select private.client_key(a, (select salt from private.profile_view_salts \
         where day = (now() at time zone 'utc')::date)) from unnest(array[{list}]) a order by 1"
    );
    texts(s, &q).await
}

#[tokio::test]
async fn s4_uploads_direct_and_through_signed_urls_count_and_refuse_with_429() {
    let s = site_app(&[]).await;
    let http = client_from("127.0.0.3");
    for i in 0..UPLOADS_PER_CLIENT - 1 {
        let spoof = format!("198.51.100.{i}");
        let a = upload_cv(&s, &http, &[("x-forwarded-for", &spoof)]).await;
        assert_eq!(a.status, 200, "upload {i}: {}", a.body);
    }
    // The last upload this client may make goes through a signed upload URL minted by anon.
    let name = format!("{}/cv.pdf", uuid::Uuid::new_v4());
    let signed = http
        .post(s.url(&format!("/object/upload/sign/cvs/{name}")))
        .header("apikey", &s.app.anon_key)
        .bearer_auth(&s.app.anon_key)
        .send()
        .await
        .unwrap();
    let signed = answer(signed).await;
    assert_eq!(signed.status, 200, "{}", signed.body);
    let url = signed.body["url"].as_str().unwrap();
    let put = http
        .put(s.url(url))
        .header("content-type", "application/pdf")
        .body(crate::storage_support::pdf_bytes())
        .send()
        .await
        .unwrap();
    assert_eq!(put.status(), 200);
    let refused = upload_cv(&s, &http, &[("x-forwarded-for", "203.0.113.99")]).await;
    assert_refused_with_retry_after(&refused, "the upload past the limit");
    assert_eq!(refused.body["statusCode"], "429", "{}", refused.body);
    assert_eq!(s.stored_files().await, UPLOADS_PER_CLIENT, "nothing stored for the refused upload");
}

#[tokio::test]
async fn s4_a_global_cap_bounds_what_visitors_store_per_hour() {
    let s = site_app(&[]).await;
    let size = crate::storage_support::pdf_bytes().len();
    s.sql(&format!("insert into private.settings values ('limit:upload_bytes_per_hour', '{}')", 3 * size)).await;
    for ip in ["127.0.0.11", "127.0.0.12", "127.0.0.13"] {
        assert_eq!(upload_cv(&s, &client_from(ip), &[]).await.status, 200, "{ip}");
    }
    let a = upload_cv(&s, &client_from("127.0.0.14"), &[]).await;
    assert_refused_with_retry_after(&a, "a fresh client past the hourly byte cap");
    s.sql("insert into private.settings values ('limit:application_per_hour', '2')").await;
    let mut statuses = vec![];
    for ip in ["127.0.0.21", "127.0.0.22", "127.0.0.23"] {
        let row = application(&s, &format!("{ip}@example.org"), "Ada").await;
        statuses.push(insert(&s, &client_from(ip), "applications", &row, &[]).await.status);
    }
    assert_eq!(statuses, vec![201, 201, 429], "the hourly cap on all applications");
}

#[tokio::test]
async fn rate_limit_refusals_are_warnings_not_errors() {
    let logs = capture_logs();
    let s = site_app(&[]).await;
    s.sql("insert into private.settings values ('limit:upload_per_client_per_hour', '1'), ('limit:enquiry_per_client_per_hour', '1')").await;
    let http = client_from("127.0.0.31");
    assert_eq!(upload_cv(&s, &http, &[]).await.status, 200);
    assert_refused_with_retry_after(&upload_cv(&s, &http, &[]).await, "the second upload");
    let text = logs.text();
    assert!(text.contains("WARN") && text.contains("storage: rate limit"), "{text}");
    let enquiry = json!({"kind": "contact", "name": "Hal Jordan", "email": "h@example.org", "message": "hello"});
    assert_eq!(insert(&s, &http, "enquiries", &enquiry, &[]).await.status, 201);
    assert_refused_with_retry_after(&insert(&s, &http, "enquiries", &enquiry, &[]).await, "the second enquiry");
    let text = logs.text();
    assert!(text.contains("WARN") && text.contains("rest: rate limit") && text.contains("PT429"), "{text}");
    assert!(!text.contains("ERROR"), "{text}");
}

#[tokio::test]
async fn s4_profile_views_are_limited_per_client_and_overall() {
    let s = site_app(&[]).await;
    s.sql("insert into private.settings values ('limit:profile_view_per_client_per_hour', '3'), ('limit:profile_view_per_hour', '5')").await;
    let profile: uuid::Uuid = {
        let db = s.app.admin_client().await;
        let q = "insert into public.candidate_profiles (candidate_id, name, email, status) \
                 values ('CAND-S4', 'Ada Lovelace', 'ada@example.org', 'active') returning id";
        db.query_one(q, &[]).await.unwrap().get(0)
    };
    let view = json!({"profile_id": profile, "user_agent": "Mozilla/5.0"});
    let http = client_from("127.0.0.51");
    for i in 0..3 {
        let spoof = format!("198.51.100.{i}");
        assert_eq!(
            insert(&s, &http, "profile_views", &view, &[("x-forwarded-for", &spoof)]).await.status,
            201,
            "view {i}"
        );
    }
    assert_refused_with_retry_after(&insert(&s, &http, "profile_views", &view, &[]).await, "a fourth view, one client");
    assert_eq!(insert(&s, &client_from("127.0.0.52"), "profile_views", &view, &[]).await.status, 201);
    assert_eq!(insert(&s, &client_from("127.0.0.53"), "profile_views", &view, &[]).await.status, 201);
    let past_cap = insert(&s, &client_from("127.0.0.54"), "profile_views", &view, &[]).await;
    assert_refused_with_retry_after(&past_cap, "past the overall cap, a new client");
    assert_eq!(texts(&s, "select count(*)::text from public.profile_views").await, ["5"]);
}

#[tokio::test]
async fn enquiries_follow_the_same_rules_as_applications() {
    let s = site_app(&[]).await;
    let http = client_from("127.0.0.41");
    let enquiry = |i: usize| json!({"kind": "contact", "name": "Hal Jordan", "email": format!("h{i}@example.org"), "message": "x".repeat(9000)});
    for i in 0..ENQUIRIES_PER_CLIENT {
        let spoof = format!("198.51.100.{i}");
        let a = insert(&s, &http, "enquiries", &enquiry(i), &[("x-forwarded-for", &spoof)]).await;
        assert_eq!(a.status, 201, "enquiry {i}: {}", a.body);
    }
    assert_refused_with_retry_after(&insert(&s, &http, "enquiries", &enquiry(99), &[]).await, "enquiry past the limit");
    assert_eq!(insert(&s, &client_from("127.0.0.42"), "enquiries", &enquiry(100), &[]).await.status, 201);
    let named = json!({"name": "Visit https://evil.example/claim", "email": "v@example.org", "message": "hello there"});
    let a = insert(&s, &client_from("127.0.0.43"), "enquiries", &named, &[]).await;
    assert_eq!((a.status, a.body["code"].as_str()), (400, Some("23514")), "{}", a.body);
}

#[tokio::test]
async fn s3_one_client_cannot_spend_the_auth_mail_budget() {
    let mail = mail_dir();
    let s = site_app(&[("GATEWAY_MAIL_DIR", mail.path()), ("GOTRUE_SMTP_MAX_FREQUENCY", "0")]).await;
    let signup = |http: reqwest::Client, email: String, spoof: String| {
        let url = s.app.url("/auth/v1/signup");
        let key = s.app.anon_key.clone();
        async move {
            let res = http
                .post(url)
                .header("apikey", key)
                .header("x-forwarded-for", spoof)
                .json(&json!({"email": email, "password": "a long password 1"}))
                .send()
                .await
                .unwrap();
            into_call(res).await
        }
    };
    let attacker = client_from("127.0.0.51");
    let mut statuses = vec![];
    for i in 0..11 {
        statuses.push(signup(attacker.clone(), format!("u{i}@example.org"), format!("198.51.100.{i}")).await.status);
    }
    assert_eq!(statuses[..10], [200; 10]);
    assert_eq!(statuses[10], 429, "the 11th mail from one client (of a global 30 per hour)");
    let other = signup(client_from("127.0.0.52"), "someone@example.org".into(), "198.51.100.1".into()).await;
    assert_eq!(other.status, 200, "{}", other.body);
}

/// Collects this test process's log lines (nextest runs each test in its own process).
struct Logs(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Logs {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

fn capture_logs() -> Logs {
    let buffer = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = buffer.clone();
    let writer = move || LogWriter(sink.clone());
    let _ =
        tracing_subscriber::fmt().with_ansi(false).with_max_level(tracing::Level::INFO).with_writer(writer).try_init();
    Logs(buffer)
}

struct LogWriter(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
