//! Helpers for the security tests: the site schema's fixture, HTTP clients that connect from a chosen loopback
//! address (Linux routes all of 127.0.0.0/8 to lo, so each address is a distinct real client), and the public forms
//! submitted as supabase-js submits them.

use crate::storage_support::{pdf_bytes, spawn_storage, StorageApp};
use serde_json::{json, Value};
use std::net::IpAddr;

/// An active job and the firm's inbox (the limits stay at their defaults).
pub const SITE_FIXTURE: &str = r#"
update private.settings set value = 'inbox@firm.example' where key = 'firm_inbox';
insert into public.jobs (job_id, status, title, company) values ('PPR-1042', 'active', 'Senior Development Manager', 'Northbank Estates');
"#;

/// A gateway on the site schema with [`SITE_FIXTURE`].
pub async fn site_app(extra: &[(&str, &str)]) -> StorageApp {
    let s = spawn_storage(extra).await;
    s.sql(SITE_FIXTURE).await;
    s
}

/// An HTTP client whose connections come from `ip` (a loopback address such as `127.0.0.2`).
pub fn client_from(ip: &str) -> reqwest::Client {
    reqwest::Client::builder().local_address(ip.parse::<IpAddr>().unwrap()).build().unwrap()
}

/// The answer to one request: status, headers, JSON body (or `Null`).
pub struct Answer {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

pub async fn answer(res: reqwest::Response) -> Answer {
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    let body = res.json().await.unwrap_or(Value::Null);
    Answer { status, headers, body }
}

/// An uploaded CV (the row an upload leaves, written as the owner so no visitor limit counts it); its object name.
pub async fn stored_cv(s: &StorageApp) -> String {
    let name = format!("{}/cv.pdf", uuid::Uuid::new_v4());
    let q = format!(
        "insert into storage.objects (bucket_id, name, metadata) values ('cvs', '{name}', '{{\"size\": 100}}')"
    );
    s.sql(&q).await;
    name
}

/// An application body for the job of the fixture.
pub async fn application(s: &StorageApp, email: &str, first_name: &str) -> Value {
    let db = s.app.admin_client().await;
    let job: uuid::Uuid =
        db.query_one("select id from public.jobs where job_id = 'PPR-1042'", &[]).await.unwrap().get(0);
    json!({
        "job_id": job, "first_name": first_name, "last_name": "Lovelace", "email": email, "phone": "+44 20 7946 0000",
        "cover_letter": "Please see https://evil.example/claim to confirm your account", "cv_object": stored_cv(s).await,
        "privacy_consent": true
    })
}

/// `POST /rest/v1/{table}` as anon from `http`, with extra headers, as supabase-js inserts without reading back.
pub async fn insert(
    s: &StorageApp,
    http: &reqwest::Client,
    table: &str,
    row: &Value,
    headers: &[(&str, &str)],
) -> Answer {
    let mut req = http
        .post(s.app.url(&format!("/rest/v1/{table}")))
        .header("apikey", &s.app.anon_key)
        .bearer_auth(&s.app.anon_key)
        .header("prefer", "return=minimal")
        .json(row);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    answer(req.send().await.unwrap()).await
}

/// Uploads a fresh CV as anon from `http`; returns the answer.
pub async fn upload_cv(s: &StorageApp, http: &reqwest::Client, headers: &[(&str, &str)]) -> Answer {
    let mut req = http
        .post(s.url(&format!("/object/cvs/{}/cv.pdf", uuid::Uuid::new_v4())))
        .header("apikey", &s.app.anon_key)
        .bearer_auth(&s.app.anon_key)
        .header("content-type", "application/pdf")
        .body(pdf_bytes());
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    answer(req.send().await.unwrap()).await
}

/// A 429 as the limits answer it: `Retry-After` a whole number of seconds, never a 500.
pub fn assert_refused_with_retry_after(a: &Answer, what: &str) {
    assert_eq!(a.status, 429, "{what}: {}", a.body);
    let retry: u64 =
        a.headers.get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse().ok()).unwrap_or(0);
    assert!((1..=3600).contains(&retry), "{what}: Retry-After {:?}", a.headers.get("retry-after"));
}

/// Rows of one SQL query as text (for assertions on what SQL saw).
pub async fn texts(s: &StorageApp, q: &str) -> Vec<String> {
    let db = s.app.admin_client().await;
    db.query(q, &[]).await.unwrap().iter().map(|r| r.get::<_, String>(0)).collect()
}
