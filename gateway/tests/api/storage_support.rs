//! Shared helpers for the storage tests: a gateway with its own storage folder — or, on S3, two gateways sharing one
//! database and bucket, requests alternating between them — and typed requests.

use crate::helpers::{spawn_app_on, spawn_app_with, TestApp};
use crate::s3_support::S3Bucket;
use serde_json::Value;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Where object contents are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// `STORAGE_BACKEND=file` (the default), one gateway.
    File,
    /// `STORAGE_BACKEND=s3` on moto, two gateways on the same database and bucket.
    S3,
}

pub struct StorageApp {
    pub app: TestApp,
    /// The second gateway (S3): `url` and `req` alternate between the two, so what one stored the other serves.
    pub other: Option<TestApp>,
    /// The storage folder (on S3, the first gateway's staging folder; the second's is `dir` + `-b`).
    pub dir: std::path::PathBuf,
    s3: Option<S3Bucket>,
    turn: AtomicUsize,
}

impl Drop for StorageApp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        let _ = std::fs::remove_dir_all(self.other_dir());
    }
}

pub async fn spawn_storage(extra: &[(&str, &str)]) -> StorageApp {
    spawn_storage_on(Backend::File, extra).await
}

pub async fn spawn_storage_on(backend: Backend, extra: &[(&str, &str)]) -> StorageApp {
    let dir = std::env::temp_dir().join(format!("gw-storage-{}", uuid::Uuid::new_v4().simple()));
    let s3 = match backend {
        Backend::File => None,
        Backend::S3 => Some(S3Bucket::create().await),
    };
    let mut s = StorageApp { app: spawn_folder(&dir, &s3, extra, None).await, other: None, dir, s3, turn: 0.into() };
    if s.s3.is_some() {
        s.other = Some(spawn_folder(&s.other_dir(), &s.s3, extra, Some(&s.app.db_name)).await);
    }
    s
}

/// A gateway staging (or, on the file backend, keeping) objects in `dir`, on a new database or on `db`.
async fn spawn_folder(
    dir: &std::path::Path,
    s3: &Option<S3Bucket>,
    extra: &[(&str, &str)],
    db: Option<&str>,
) -> TestApp {
    let dir = dir.to_string_lossy().to_string();
    let s3_vars = s3.as_ref().map(S3Bucket::vars).unwrap_or_default();
    let mut vars = vec![("FILE_STORAGE_BACKEND_PATH", dir.as_str()), ("GATEWAY_OUTBOX", "off")];
    vars.extend(s3_vars.iter().map(|(k, v)| (*k, v.as_str())));
    vars.extend_from_slice(extra);
    match db {
        Some(db) => spawn_app_on(db, &vars).await,
        None => spawn_app_with(&vars).await,
    }
}

impl StorageApp {
    fn other_dir(&self) -> std::path::PathBuf {
        let mut dir = self.dir.clone().into_os_string();
        dir.push("-b");
        dir.into()
    }

    /// The gateway whose turn it is.
    fn next(&self) -> &TestApp {
        match &self.other {
            Some(other) if self.turn.fetch_add(1, Ordering::Relaxed) % 2 == 1 => other,
            _ => &self.app,
        }
    }

    pub fn url(&self, path: &str) -> String {
        self.next().url(&format!("/storage/v1{path}"))
    }

    pub fn req(&self, method: reqwest::Method, path: &str, key: &str) -> reqwest::RequestBuilder {
        self.app.http.request(method, self.url(path)).header("apikey", key).bearer_auth(key)
    }

    pub async fn sql(&self, q: &str) {
        self.app.admin_client().await.batch_execute(q).await.expect("fixture sql");
    }

    pub async fn create_bucket(&self, body: Value) {
        let res = self.req(reqwest::Method::POST, "/bucket", &self.app.service_key).json(&body).send().await.unwrap();
        assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    }

    pub async fn upload(&self, key: &str, path: &str, content_type: &str, bytes: Vec<u8>) -> (u16, Value) {
        let res = self
            .req(reqwest::Method::POST, &format!("/object/{path}"), key)
            .header("content-type", content_type)
            .body(bytes)
            .send()
            .await
            .unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    /// Number of stored objects (files in the folder, or objects in the bucket) and of staged uploads left behind.
    pub async fn stored_files(&self) -> usize {
        fn walk(p: &std::path::Path) -> usize {
            std::fs::read_dir(p)
                .map(|d| d.filter_map(|e| e.ok()).map(|e| if e.path().is_dir() { walk(&e.path()) } else { 1 }).sum())
                .unwrap_or(0)
        }
        let staged = walk(&self.dir.join("tmp")) + walk(&self.other_dir().join("tmp"));
        match &self.s3 {
            Some(bucket) => bucket.keys().await + staged + walk(&self.dir.join("objects")),
            None => walk(&self.dir.join("objects")) + staged,
        }
    }
}

/// A minimal real PDF.
pub fn pdf_bytes() -> Vec<u8> {
    b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n".to_vec()
}

/// The start of an ELF executable.
pub fn elf_bytes() -> Vec<u8> {
    let mut v = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x02\0\x3e\0\x01\0\0\0".to_vec();
    v.resize(256, 0);
    v
}
