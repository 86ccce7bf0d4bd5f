//! Helpers for the auth tests: JSON calls with the apikey, users created through the API, mail read back.

use crate::helpers::TestApp;
use reqwest::{Method, Response};
use serde_json::{json, Value};

pub struct Call {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

pub async fn call(app: &TestApp, method: Method, path: &str, bearer: Option<&str>, body: Option<Value>) -> Call {
    let mut req = app
        .http
        .request(method, app.url(&format!("/auth/v1{path}")))
        .header("apikey", &app.anon_key)
        .header("authorization", format!("Bearer {}", bearer.unwrap_or(&app.anon_key)))
        .header("x-supabase-api-version", "2024-01-01");
    if let Some(b) = body {
        req = req.json(&b);
    }
    into_call(req.send().await.unwrap()).await
}

pub async fn into_call(res: Response) -> Call {
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    let text = res.text().await.unwrap();
    let body = if text.is_empty() { Value::Null } else { serde_json::from_str(&text).unwrap_or(Value::String(text)) };
    Call { status, headers, body }
}

pub async fn post(app: &TestApp, path: &str, body: Value) -> Call {
    call(app, Method::POST, path, None, Some(body)).await
}

/// Signs up (autoconfirm must be on) and returns the session.
pub async fn signup_session(app: &TestApp, email: &str, password: &str) -> Value {
    let res = post(app, "/signup", json!({"email": email, "password": password})).await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert!(res.body["access_token"].is_string(), "{}", res.body);
    res.body
}

pub async fn sign_in(app: &TestApp, email: &str, password: &str) -> Call {
    post(app, "/token?grant_type=password", json!({"email": email, "password": password})).await
}

pub fn mail_dir() -> tempdir::Dir {
    tempdir::Dir::new()
}

/// A fresh mail folder for one test.
pub mod tempdir {
    pub struct Dir(pub std::path::PathBuf);

    impl Dir {
        pub fn new() -> Self {
            let p = std::env::temp_dir().join(format!("gateway-mail-{}", uuid::Uuid::new_v4().simple()));
            std::fs::create_dir_all(&p).unwrap();
            Dir(p)
        }

        pub fn path(&self) -> &str {
            self.0.to_str().unwrap()
        }

        /// Every message written so far, oldest first.
        pub fn messages(&self) -> Vec<String> {
            let mut files: Vec<_> = std::fs::read_dir(&self.0)
                .unwrap()
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "eml"))
                .collect();
            files.sort();
            files.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect()
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// The first `http…/auth/v1/verify?…` link of a message.
pub fn verify_link(message: &str) -> String {
    message
        .split_whitespace()
        .find(|w| w.contains("/auth/v1/verify?"))
        .unwrap_or_else(|| panic!("no verify link in {message}"))
        .to_string()
}

/// The verify link of a message, pointed at this test server (links carry the configured external URL, which in
/// tests names port 0).
pub fn local_link(app: &TestApp, message: &str) -> String {
    let link = verify_link(message);
    assert!(link.starts_with(&app.state.core.config.external_url), "{link}");
    let path = &link[link.find("/auth/v1/verify").unwrap()..];
    app.url(path)
}

/// The six-digit code of a message.
pub fn otp(message: &str) -> String {
    message
        .split_whitespace()
        .find(|w| w.len() == 6 && w.bytes().all(|b| b.is_ascii_digit()))
        .unwrap_or_else(|| panic!("no code in {message}"))
        .to_string()
}
