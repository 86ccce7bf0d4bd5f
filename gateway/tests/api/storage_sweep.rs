//! The storage sweep: contents of objects whose rows SQL deleted (outside the Storage API) leave the backend; a
//! rolled-back delete and other objects keep theirs.

use crate::storage_support::{pdf_bytes, spawn_storage, StorageApp};
use serde_json::json;
use std::time::Duration;

async fn queued(s: &StorageApp) -> i64 {
    let row = s.app.admin_client().await.query_one("select count(*) from gateway.storage_sweep", &[]).await.unwrap();
    row.get(0)
}

/// Waits until the backend holds `files` files and the queue is empty (the sweep runs every 0.1 s here).
async fn settle(s: &StorageApp, files: usize) {
    for _ in 0..100 {
        if s.stored_files().await == files && queued(s).await == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("after 5 s: {} files stored, {} queued; expected {files} and 0", s.stored_files().await, queued(s).await);
}

#[tokio::test]
async fn sql_deletes_remove_the_contents_and_nothing_else() {
    let s = spawn_storage(&[("GATEWAY_STORAGE_SWEEP_SECS", "0.1")]).await;
    let key = s.app.service_key.clone();
    s.create_bucket(json!({"name": "docs"})).await;
    for name in ["docs/a/one.pdf", "docs/a/two.pdf", "docs/b/three.pdf"] {
        let (status, body) = s.upload(&key, name, "application/pdf", pdf_bytes()).await;
        assert_eq!(status, 200, "{body}");
    }
    assert_eq!(s.stored_files().await, 3);

    // A delete that rolls back queues nothing: the file stays.
    s.sql("begin; delete from storage.objects where name = 'a/one.pdf'; rollback;").await;
    settle(&s, 3).await;

    // An owner's DELETE (as an app function or cascade would do) removes exactly that object's contents.
    s.sql("delete from storage.objects where bucket_id = 'docs' and name like 'a/%'").await;
    settle(&s, 1).await;
    let res = s.req(reqwest::Method::GET, "/object/docs/b/three.pdf", &key).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.bytes().await.unwrap().as_ref(), pdf_bytes().as_slice());

    // Deletes through the Storage API are queued too and swept without error.
    let res = s.req(reqwest::Method::DELETE, "/object/docs/b/three.pdf", &key).send().await.unwrap();
    assert_eq!(res.status(), 200);
    settle(&s, 0).await;
}

#[tokio::test]
async fn the_sweep_can_be_turned_off() {
    let s = spawn_storage(&[("GATEWAY_STORAGE_SWEEP", "off")]).await;
    let key = s.app.service_key.clone();
    s.create_bucket(json!({"name": "docs"})).await;
    let (status, _) = s.upload(&key, "docs/x.pdf", "application/pdf", pdf_bytes()).await;
    assert_eq!(status, 200);
    s.sql("delete from storage.objects where name = 'x.pdf'").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(queued(&s).await, 1, "the delete is queued");
    assert_eq!(s.stored_files().await, 1, "and left alone while the sweep is off");
}
