//! Objects: upload, download (ranges, HEAD, info), list, signed URLs, move, copy, remove, and the checks on
//! names, sizes and content types — each test on the file backend (`file::…`) and on S3 with two gateways sharing the
//! bucket and the database, requests alternating between them (`s3::…`).

use crate::storage_support::{elf_bytes, pdf_bytes, spawn_storage_on, Backend};
use reqwest::Method;
use serde_json::{json, Value};

/// Each test twice: `file::<test>` and `s3::<test>`.
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod file {
            $(#[tokio::test]
            async fn $name() {
                super::$name(super::Backend::File).await
            })*
        }
        mod s3 {
            $(#[tokio::test]
            async fn $name() {
                super::$name(super::Backend::S3).await
            })*
        }
    };
}

on_both_backends!(
    upload_download_and_ranges,
    multipart_uploads_keep_cache_control_and_metadata,
    names_cannot_escape_the_bucket,
    size_limits_and_declared_types_are_enforced_and_bytes_stored_as_given,
    content_sniffing_is_a_buckets_or_the_deployments_option,
    list_move_copy_and_remove,
    signed_urls_grant_one_object_until_they_expire,
    signed_upload_urls_upload_once,
    rls_decides_and_refused_rows_leave_no_files,
    list_v2_groups_folders_and_pages_with_a_cursor
);

async fn upload_download_and_ranges(backend: Backend) {
    let s = spawn_storage_on(backend, &[]).await;
    let key = s.app.service_key.clone();
    s.create_bucket(json!({"name": "files"})).await;
    let (status, body) =
        s.upload(&key, "files/dir/hello.txt", "text/plain;charset=UTF-8", b"hello world".to_vec()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["Key"], "files/dir/hello.txt");

    let res = s.req(Method::GET, "/object/files/dir/hello.txt", &key).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "text/plain;charset=UTF-8");
    assert_eq!(res.headers()["content-security-policy"], "default-src 'none'; sandbox");
    let etag = res.headers()["etag"].to_str().unwrap().to_string();
    assert_eq!(res.text().await.unwrap(), "hello world");

    let res = s
        .req(Method::GET, "/object/authenticated/files/dir/hello.txt", &key)
        .header("range", "bytes=6-")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 206);
    assert_eq!(res.headers()["content-range"], "bytes 6-10/11");
    assert_eq!(res.text().await.unwrap(), "world");
    let res =
        s.req(Method::GET, "/object/files/dir/hello.txt", &key).header("range", "bytes=50-").send().await.unwrap();
    assert_eq!(res.status(), 416);
    let res =
        s.req(Method::GET, "/object/files/dir/hello.txt", &key).header("if-none-match", &etag).send().await.unwrap();
    assert_eq!(res.status(), 304);

    let res = s.req(Method::HEAD, "/object/files/dir/hello.txt", &key).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-length"], "11");
    let res = s.req(Method::HEAD, "/object/files/dir/missing.txt", &key).send().await.unwrap();
    assert_eq!(res.status(), 400);

    let info: Value =
        s.req(Method::GET, "/object/info/files/dir/hello.txt", &key).send().await.unwrap().json().await.unwrap();
    assert_eq!(info["size"], 11);
    assert_eq!(info["content_type"], "text/plain;charset=UTF-8");
    assert_eq!(info["bucket_id"], "files");

    // Upload again without x-upsert: conflict; with it: replaced, and the old version's file is gone.
    let (_, body) = s.upload(&key, "files/dir/hello.txt", "text/plain", b"again".to_vec()).await;
    assert_eq!(body["statusCode"], "409");
    let res = s
        .req(Method::POST, "/object/files/dir/hello.txt", &key)
        .header("x-upsert", "true")
        .header("content-type", "text/plain")
        .body("replaced")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let text = s.req(Method::GET, "/object/files/dir/hello.txt", &key).send().await.unwrap().text().await.unwrap();
    assert_eq!(text, "replaced");
    assert_eq!(s.stored_files().await, 1);
}

async fn multipart_uploads_keep_cache_control_and_metadata(backend: Backend) {
    let s = spawn_storage_on(backend, &[]).await;
    let key = s.app.service_key.clone();
    s.create_bucket(json!({"name": "forms"})).await;
    let boundary = "XyZ123";
    let body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"cacheControl\"\r\n\r\n60\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"metadata\"\r\n\r\n{{\"custom\":\"x\"}}\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"\"; filename=\"blob\"\r\nContent-Type: text/csv\r\n\r\na,b\n1,2\n\r\n\
         --{boundary}--\r\n"
    );
    let res = s
        .req(Method::POST, "/object/forms/t.csv", &key)
        .header("content-type", format!("multipart/form-data; boundary={boundary}"))
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    let info: Value = s.req(Method::GET, "/object/info/forms/t.csv", &key).send().await.unwrap().json().await.unwrap();
    assert_eq!(info["cache_control"], "max-age=60");
    assert_eq!(info["content_type"], "text/csv");
    assert_eq!(info["metadata"], json!({"custom": "x"}));
    assert_eq!(info["size"], 8);
}

async fn names_cannot_escape_the_bucket(backend: Backend) {
    let s = spawn_storage_on(backend, &[]).await;
    let key = s.app.service_key.clone();
    s.create_bucket(json!({"name": "safe"})).await;
    for path in [
        "safe/..%2F..%2Fetc%2Fpasswd",
        "safe/a%2F%2E%2E%2Fb",
        "safe/a%5Cb",
        "safe/a%00b",
        "safe/a%252F..%252Fb",
        "safe//abs",
        "safe/%FF%FE.txt",
    ] {
        let (_, body) = s.upload(&key, path, "text/plain", b"x".to_vec()).await;
        assert_eq!(body["statusCode"], "400", "{path}: {body}");
        assert_eq!(body["code"], "InvalidKey", "{path}: {body}");
    }
    assert_eq!(s.stored_files().await, 0);
}

async fn size_limits_and_declared_types_are_enforced_and_bytes_stored_as_given(backend: Backend) {
    let s = spawn_storage_on(backend, &[]).await;
    let key = s.app.service_key.clone();
    s.create_bucket(json!({"name": "pdfs", "file_size_limit": 1024, "allowed_mime_types": ["application/pdf"]})).await;
    let (status, body) = s.upload(&key, "pdfs/ok.pdf", "application/pdf", pdf_bytes()).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = s.upload(&key, "pdfs/big.pdf", "application/pdf", vec![b'%'; 2048]).await;
    assert_eq!(status, 400);
    assert_eq!(body["statusCode"], "413");
    assert_eq!(body["message"], "The object exceeded the maximum allowed size");
    let (_, body) = s.upload(&key, "pdfs/cv.txt", "text/plain", b"hello".to_vec()).await;
    assert_eq!(body["message"], "mime type text/plain is not supported");
    // Storage's rule: the declared type is what is judged, and the bytes are kept as they came
    let (status, body) = s.upload(&key, "pdfs/cv.pdf", "application/pdf", elf_bytes()).await;
    assert_eq!(status, 200, "{body}");
    let stored = s.req(Method::GET, "/object/pdfs/cv.pdf", &key).send().await.unwrap().bytes().await.unwrap();
    assert_eq!(stored.to_vec(), elf_bytes());
    assert_eq!(s.stored_files().await, 2, "refused uploads leave no file");
}

async fn content_sniffing_is_a_buckets_or_the_deployments_option(backend: Backend) {
    let s = spawn_storage_on(backend, &[]).await;
    let key = s.app.service_key.clone();
    s.create_bucket(json!({"name": "sniffed", "allowed_mime_types": ["application/pdf"]})).await;
    s.sql("update storage.buckets set sniff_content = true where id = 'sniffed'").await;
    let (_, body) = s.upload(&key, "sniffed/cv.pdf", "application/pdf", elf_bytes()).await;
    assert_eq!(body["statusCode"], "415", "{body}");
    assert_eq!(body["message"], "mime type application/x-executable is not supported");
    let (status, body) = s.upload(&key, "sniffed/ok.pdf", "application/pdf", pdf_bytes()).await;
    assert_eq!(status, 200, "{body}");
    // the bucket API neither shows nor changes the option
    let bucket: Value = s.req(Method::GET, "/bucket/sniffed", &key).send().await.unwrap().json().await.unwrap();
    assert!(bucket.get("sniff_content").is_none(), "{bucket}");

    let everywhere = spawn_storage_on(backend, &[("GATEWAY_STORAGE_SNIFF_CONTENT", "true")]).await;
    everywhere.create_bucket(json!({"name": "pdfs", "allowed_mime_types": ["application/pdf"]})).await;
    let (_, body) =
        everywhere.upload(&everywhere.app.service_key.clone(), "pdfs/cv.pdf", "application/pdf", elf_bytes()).await;
    assert_eq!(body["message"], "mime type application/x-executable is not supported", "{body}");
    assert_eq!(s.stored_files().await + everywhere.stored_files().await, 1);
}

async fn list_move_copy_and_remove(backend: Backend) {
    let s = spawn_storage_on(backend, &[]).await;
    let key = s.app.service_key.clone();
    s.create_bucket(json!({"name": "box"})).await;
    for p in ["box/a/1.txt", "box/a/2.txt", "box/a/sub/3.txt", "box/top.txt"] {
        assert_eq!(s.upload(&key, p, "text/plain", p.as_bytes().to_vec()).await.0, 200);
    }
    let list: Value = s
        .req(Method::POST, "/object/list/box", &key)
        .json(&json!({"prefix": "a"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let names: Vec<&str> = list.as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["1.txt", "2.txt", "sub"]);
    assert!(list[2]["id"].is_null(), "folders have no id");
    let list: Value = s
        .req(Method::POST, "/object/list/box", &key)
        .json(&json!({"prefix": "a", "limit": 1, "offset": 1, "sortBy": {"column": "name", "order": "desc"}, "search": ""}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list[0]["name"], "2.txt");

    let res = s
        .req(Method::POST, "/object/move", &key)
        .json(&json!({"bucketId": "box", "sourceKey": "top.txt", "destinationKey": "a/moved.txt"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.json::<Value>().await.unwrap(), json!({"message": "Successfully moved"}));
    let text = s.req(Method::GET, "/object/box/a/moved.txt", &key).send().await.unwrap().text().await.unwrap();
    assert_eq!(text, "box/top.txt");

    let res: Value = s
        .req(Method::POST, "/object/copy", &key)
        .json(&json!({"bucketId": "box", "sourceKey": "a/1.txt", "destinationKey": "b/1.txt"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(res["Key"], "box/b/1.txt");
    let text = s.req(Method::GET, "/object/box/b/1.txt", &key).send().await.unwrap().text().await.unwrap();
    assert_eq!(text, "box/a/1.txt");

    let removed: Value = s
        .req(Method::DELETE, "/object/box", &key)
        .json(&json!({"prefixes": ["a/1.txt", "b/1.txt", "nope"]}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(removed.as_array().unwrap().len(), 2);
    assert_eq!(s.stored_files().await, 3);
}

async fn signed_urls_grant_one_object_until_they_expire(backend: Backend) {
    let s = spawn_storage_on(backend, &[]).await;
    let key = s.app.service_key.clone();
    s.create_bucket(json!({"name": "priv"})).await;
    s.upload(&key, "priv/x.txt", "text/plain", b"secret".to_vec()).await;
    s.upload(&key, "priv/y.txt", "text/plain", b"other".to_vec()).await;
    let signed: Value = s
        .req(Method::POST, "/object/sign/priv/x.txt", &key)
        .json(&json!({"expiresIn": 60}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let url = signed["signedURL"].as_str().unwrap().to_string();
    assert!(url.starts_with("/object/sign/priv/x.txt?token="));
    let res = s.app.http.get(s.url(&url)).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.text().await.unwrap(), "secret");
    // The token is bound to its object.
    let token = url.split("token=").nth(1).unwrap();
    let res = s.app.http.get(s.url(&format!("/object/sign/priv/y.txt?token={token}"))).send().await.unwrap();
    assert_eq!(res.json::<Value>().await.unwrap()["code"], "InvalidSignature");
    // An access token is not a signed URL.
    let res = s.app.http.get(s.url(&format!("/object/sign/priv/x.txt?token={key}"))).send().await.unwrap();
    assert_eq!(res.status(), 400);
    // Several at once: missing ones carry an error.
    let many: Value = s
        .req(Method::POST, "/object/sign/priv", &key)
        .json(&json!({"expiresIn": 60, "paths": ["x.txt", "nope.txt"]}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(many[0]["signedURL"].as_str().unwrap().contains("token="));
    assert!(many[1]["signedURL"].is_null());
    // Anonymous callers see nothing in a private bucket without policies.
    let res = s
        .req(Method::POST, "/object/sign/priv/x.txt", &s.app.anon_key)
        .json(&json!({"expiresIn": 60}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.json::<Value>().await.unwrap()["statusCode"], "404");
}

async fn signed_upload_urls_upload_once(backend: Backend) {
    let s = spawn_storage_on(backend, &[]).await;
    let key = s.app.service_key.clone();
    s.create_bucket(json!({"name": "drop"})).await;
    let signed: Value =
        s.req(Method::POST, "/object/upload/sign/drop/f.txt", &key).send().await.unwrap().json().await.unwrap();
    let url = signed["url"].as_str().unwrap().to_string();
    let put = |body: &'static str| s.app.http.put(s.url(&url)).header("content-type", "text/plain").body(body).send();
    assert_eq!(put("one").await.unwrap().status(), 200);
    assert_eq!(put("two").await.unwrap().json::<Value>().await.unwrap()["statusCode"], "409");
    // An upload token does not download.
    let token = signed["token"].as_str().unwrap();
    let res = s.app.http.get(s.url(&format!("/object/sign/drop/f.txt?token={token}"))).send().await.unwrap();
    assert_eq!(res.status(), 400);
}

async fn rls_decides_and_refused_rows_leave_no_files(backend: Backend) {
    let s = spawn_storage_on(backend, &[]).await;
    s.create_bucket(json!({"name": "inbox"})).await;
    s.create_bucket(json!({"name": "pics", "public": true})).await;
    let anon = s.app.anon_key.clone();
    let (_, body) = s.upload(&anon, "inbox/a.txt", "text/plain", b"x".to_vec()).await;
    assert_eq!(body["statusCode"], "403", "{body}");
    assert_eq!(s.stored_files().await, 0, "a refused row leaves no file");
    s.sql("create policy anon_drop on storage.objects for insert to anon with check (bucket_id = 'inbox' and (storage.foldername(name))[1] = 'drop')").await;
    assert_eq!(s.upload(&anon, "inbox/drop/a.txt", "text/plain", b"x".to_vec()).await.0, 200);
    assert_eq!(s.upload(&anon, "inbox/other/a.txt", "text/plain", b"x".to_vec()).await.1["statusCode"], "403");
    // Insert-only: anon cannot read, list or overwrite what it uploaded.
    let res = s.req(Method::GET, "/object/inbox/drop/a.txt", &anon).send().await.unwrap();
    assert_eq!(res.json::<Value>().await.unwrap()["statusCode"], "404");
    let list: Value = s
        .req(Method::POST, "/object/list/inbox", &anon)
        .json(&json!({"prefix": "drop"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list, json!([]));
    let res = s
        .req(Method::PUT, "/object/inbox/drop/a.txt", &anon)
        .header("content-type", "text/plain")
        .body("y")
        .send()
        .await
        .unwrap();
    assert_eq!(res.json::<Value>().await.unwrap()["statusCode"], "403");
    assert_eq!(s.stored_files().await, 1);
    // Public buckets are readable without a token through /object/public.
    s.upload(&s.app.service_key, "pics/p.txt", "text/plain", b"pub".to_vec()).await;
    let res = s.app.http.get(s.url("/object/public/pics/p.txt")).send().await.unwrap();
    assert_eq!(res.text().await.unwrap(), "pub");
    let res = s.app.http.get(s.url("/object/public/inbox/drop/a.txt")).send().await.unwrap();
    assert_eq!(res.json::<Value>().await.unwrap()["message"], "Bucket not found");
}

async fn list_v2_groups_folders_and_pages_with_a_cursor(backend: Backend) {
    let s = spawn_storage_on(backend, &[]).await;
    let key = s.app.service_key.clone();
    s.create_bucket(json!({"name": "v2"})).await;
    for p in ["v2/d/c.txt", "v2/d/a.txt", "v2/d/b.txt", "v2/d/sub/x.txt", "v2/top.txt"] {
        assert_eq!(s.upload(&key, p, "text/plain", b"x".to_vec()).await.0, 200);
    }
    let page = |body: Value| {
        let req = s.req(Method::POST, "/object/list-v2/v2", &key).json(&body);
        async move { req.send().await.unwrap().json::<Value>().await.unwrap() }
    };
    let root = page(json!({"with_delimiter": true})).await;
    assert_eq!(root["folders"], json!([{"key": "d", "name": "d/"}]));
    assert_eq!(root["objects"][0]["name"], "top.txt");
    let first = page(json!({"prefix": "d/", "with_delimiter": true, "limit": 2})).await;
    assert_eq!(first["hasNext"], true);
    let names: Vec<&str> = first["objects"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["d/a.txt", "d/b.txt"]);
    let second = page(json!({"prefix": "d/", "with_delimiter": true, "limit": 2, "cursor": first["nextCursor"]})).await;
    assert_eq!(second["objects"][0]["name"], "d/c.txt");
    assert_eq!(second["folders"], json!([{"key": "d/sub", "name": "d/sub/"}]));
    assert_eq!(second["hasNext"], false);
}
