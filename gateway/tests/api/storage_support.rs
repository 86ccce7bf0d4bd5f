//! Shared helpers for the storage tests: a gateway with its own storage folder, and typed requests.

use crate::helpers::{spawn_app_with, TestApp};
use serde_json::Value;

pub struct StorageApp {
    pub app: TestApp,
    pub dir: std::path::PathBuf,
}

impl Drop for StorageApp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub async fn spawn_storage(extra: &[(&str, &str)]) -> StorageApp {
    let dir = std::env::temp_dir().join(format!("gw-storage-{}", uuid::Uuid::new_v4().simple()));
    let dir_s = dir.to_string_lossy().to_string();
    let mut vars = vec![("FILE_STORAGE_BACKEND_PATH", dir_s.as_str()), ("GATEWAY_OUTBOX", "off")];
    vars.extend_from_slice(extra);
    StorageApp { app: spawn_app_with(&vars).await, dir }
}

impl StorageApp {
    pub fn url(&self, path: &str) -> String {
        self.app.url(&format!("/storage/v1{path}"))
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

    /// Number of object files in the backend folder.
    pub fn stored_files(&self) -> usize {
        fn walk(p: &std::path::Path) -> usize {
            std::fs::read_dir(p)
                .map(|d| d.filter_map(|e| e.ok()).map(|e| if e.path().is_dir() { walk(&e.path()) } else { 1 }).sum())
                .unwrap_or(0)
        }
        walk(&self.dir.join("objects")) + walk(&self.dir.join("tmp"))
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
