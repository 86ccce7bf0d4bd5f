//! The bucket API: create, get, list, update, empty, delete, with Storage's error shapes and RLS.

use crate::storage_support::spawn_storage;
use reqwest::Method;
use serde_json::{json, Value};

#[tokio::test]
async fn service_role_manages_buckets() {
    let s = spawn_storage(&[]).await;
    let key = s.app.service_key.clone();
    let res = s
        .req(Method::POST, "/bucket", &key)
        .json(&json!({"id": "docs", "name": "docs", "public": false, "file_size_limit": "1mb", "allowed_mime_types": ["text/plain"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.json::<Value>().await.unwrap(), json!({"name": "docs"}));

    let bucket: Value = s.req(Method::GET, "/bucket/docs", &key).send().await.unwrap().json().await.unwrap();
    assert_eq!(bucket["id"], "docs");
    assert_eq!(bucket["public"], false);
    assert_eq!(bucket["file_size_limit"], 1_000_000);
    assert_eq!(bucket["allowed_mime_types"], json!(["text/plain"]));

    let all: Value = s.req(Method::GET, "/bucket?search=doc", &key).send().await.unwrap().json().await.unwrap();
    assert_eq!(all.as_array().unwrap().len(), 1);

    let res = s.req(Method::PUT, "/bucket/docs", &key).json(&json!({"public": true})).send().await.unwrap();
    assert_eq!(res.json::<Value>().await.unwrap(), json!({"message": "Successfully updated"}));
    let bucket: Value = s.req(Method::GET, "/bucket/docs", &key).send().await.unwrap().json().await.unwrap();
    assert_eq!(bucket["public"], true);
    assert_eq!(bucket["file_size_limit"], 1_000_000, "unchanged when not sent");

    let (status, _) = s.upload(&key, "docs/a.txt", "text/plain", b"hello".to_vec()).await;
    assert_eq!(status, 200);
    let res = s.req(Method::DELETE, "/bucket/docs", &key).send().await.unwrap();
    assert_eq!(res.status(), 400);
    assert_eq!(res.json::<Value>().await.unwrap()["statusCode"], "409");
    let res = s.req(Method::POST, "/bucket/docs/empty", &key).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(s.stored_files().await, 0, "emptying removes the contents");
    let res = s.req(Method::DELETE, "/bucket/docs", &key).send().await.unwrap();
    assert_eq!(res.json::<Value>().await.unwrap(), json!({"message": "Successfully deleted"}));
}

#[tokio::test]
async fn errors_use_storage_shape() {
    let s = spawn_storage(&[]).await;
    let key = s.app.service_key.clone();
    let res = s.req(Method::GET, "/bucket/nope", &key).send().await.unwrap();
    assert_eq!(res.status(), 400);
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"statusCode": "404", "code": "NoSuchBucket", "error": "Bucket not found", "message": "Bucket not found"})
    );
    s.create_bucket(json!({"name": "dup"})).await;
    let res = s.req(Method::POST, "/bucket", &key).json(&json!({"name": "dup"})).send().await.unwrap();
    let body: Value = res.json().await.unwrap();
    assert_eq!(
        (body["statusCode"].as_str(), body["message"].as_str()),
        (Some("409"), Some("The resource already exists"))
    );
    let res = s.req(Method::POST, "/bucket", &key).json(&json!({"name": "a/b"})).send().await.unwrap();
    assert_eq!(res.json::<Value>().await.unwrap()["message"], "Bucket name invalid");
}

#[tokio::test]
async fn anon_cannot_create_buckets_without_a_policy() {
    let s = spawn_storage(&[]).await;
    let res = s.req(Method::POST, "/bucket", &s.app.anon_key).json(&json!({"name": "mine"})).send().await.unwrap();
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["statusCode"], "403");
    assert_eq!(body["message"], "new row violates row-level security policy");
    let list: Value = s.req(Method::GET, "/bucket", &s.app.anon_key).send().await.unwrap().json().await.unwrap();
    assert_eq!(list, json!([]));
}

#[tokio::test]
async fn a_forged_token_is_refused() {
    let s = spawn_storage(&[]).await;
    let forged = format!("{}x", s.app.service_key);
    let res = s.req(Method::GET, "/bucket", &forged).send().await.unwrap();
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["statusCode"], "403");
}
