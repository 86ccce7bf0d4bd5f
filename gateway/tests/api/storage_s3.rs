//! The S3 backend against a real S3-compatible server (moto's `moto_server`, from PyPI: `pip install
//! "moto[s3,server]"`). Ignored by default; run with
//! `scripts/with-test-db.sh cargo nextest run -p gateway --run-ignored all -E 'test(s3)'`.

use crate::storage_support::spawn_storage;
use reqwest::Method;
use serde_json::{json, Value};
use std::time::Duration;

struct Moto(std::process::Child);

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn start_moto() -> (Moto, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = std::process::Command::new("moto_server")
        .args(["-H", "127.0.0.1", "-p", &port.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("moto_server on PATH (pip install \"moto[s3,server]\")");
    let url = format!("http://127.0.0.1:{port}");
    for _ in 0..200 {
        if reqwest::get(&url).await.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let res = reqwest::Client::new().put(format!("{url}/gw-objects")).send().await.unwrap();
    assert!(res.status().is_success(), "create S3 bucket: {}", res.status());
    (Moto(child), url)
}

async fn s3_keys(url: &str) -> usize {
    let xml = reqwest::get(format!("{url}/gw-objects?list-type=2")).await.unwrap().text().await.unwrap();
    xml.matches("<Key>").count()
}

#[tokio::test]
#[ignore = "needs moto_server (pip install \"moto[s3,server]\")"]
async fn objects_round_trip_through_s3() {
    let (_moto, url) = start_moto().await;
    let s = spawn_storage(&[
        ("STORAGE_BACKEND", "s3"),
        ("GLOBAL_S3_BUCKET", "gw-objects"),
        ("GLOBAL_S3_ENDPOINT", &url),
        ("GLOBAL_S3_FORCE_PATH_STYLE", "true"),
        ("AWS_ACCESS_KEY_ID", "test"),
        ("AWS_SECRET_ACCESS_KEY", "test"),
        ("REGION", "us-east-1"),
    ])
    .await;
    let key = s.app.service_key.clone();
    s.create_bucket(json!({"name": "cloud"})).await;
    let big: Vec<u8> = (0..(12 * 1024 * 1024u32)).map(|i| (i % 251) as u8).collect();
    let (status, body) = s.upload(&key, "cloud/big.bin", "application/octet-stream", big.clone()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(s3_keys(&url).await, 1);
    let res = s.req(Method::GET, "/object/cloud/big.bin", &key).send().await.unwrap();
    assert_eq!(res.headers()["content-length"], big.len().to_string());
    assert_eq!(res.bytes().await.unwrap().as_ref(), big.as_slice());
    let res = s.req(Method::GET, "/object/cloud/big.bin", &key).header("range", "bytes=10-19").send().await.unwrap();
    assert_eq!(res.status(), 206);
    assert_eq!(res.bytes().await.unwrap().as_ref(), &big[10..20]);

    let res: Value = s
        .req(Method::POST, "/object/copy", &key)
        .json(&json!({"bucketId": "cloud", "sourceKey": "big.bin", "destinationKey": "copy.bin"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(res["Key"], "cloud/copy.bin");
    let res = s
        .req(Method::POST, "/object/move", &key)
        .json(&json!({"bucketId": "cloud", "sourceKey": "copy.bin", "destinationKey": "moved.bin"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let moved = s.req(Method::GET, "/object/cloud/moved.bin", &key).send().await.unwrap().bytes().await.unwrap();
    assert_eq!(moved.len(), big.len());
    assert_eq!(s3_keys(&url).await, 2);
    let removed: Value = s
        .req(Method::DELETE, "/object/cloud", &key)
        .json(&json!({"prefixes": ["big.bin", "moved.bin"]}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(removed.as_array().unwrap().len(), 2);
    assert_eq!(s3_keys(&url).await, 0);
}
