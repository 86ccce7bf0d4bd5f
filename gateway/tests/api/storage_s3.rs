//! The S3 backend against a real S3-compatible server (moto's, `crate::s3_support`): a 12 MB object through the
//! streaming multipart writer, ranges, copy, move and remove. The object tests of `storage_objects` run on S3 too.

use crate::storage_support::{spawn_storage_on, Backend};
use reqwest::Method;
use serde_json::{json, Value};

#[tokio::test]
async fn objects_round_trip_through_s3() {
    let s = spawn_storage_on(Backend::S3, &[]).await;
    let key = s.app.service_key.clone();
    s.create_bucket(json!({"name": "cloud"})).await;
    let big: Vec<u8> = (0..(12 * 1024 * 1024u32)).map(|i| (i % 251) as u8).collect();
    let (status, body) = s.upload(&key, "cloud/big.bin", "application/octet-stream", big.clone()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(s.stored_files().await, 1);
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
    assert_eq!(s.stored_files().await, 2);
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
    assert_eq!(s.stored_files().await, 0);
}
