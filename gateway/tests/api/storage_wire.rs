//! Storage at the wire level, as its route schemas accept requests (tests/conformance/AUDIT.md, Storage rows): raw
//! JSON bodies and query strings with numbers and booleans as strings, empty cursors, exact Content-Disposition,
//! answers when image transformations are not available, token-optional reads, and upload fields of other clients.

use crate::storage_support::{spawn_storage, StorageApp};
use reqwest::Method;
use serde_json::{json, Value};

/// Sends `body` as raw JSON text (no client's encoding assumed) and returns (status, JSON body).
async fn raw(s: &StorageApp, method: Method, path: &str, key: &str, body: &str) -> (u16, Value) {
    let res = s.req(method, path, key).header("content-type", "application/json").body(body.to_string());
    let res = res.send().await.unwrap();
    (res.status().as_u16(), res.json().await.unwrap_or(Value::Null))
}

fn assert_validation(got: (u16, Value), message: &str) {
    assert_eq!(got.0, 400, "{}", got.1);
    assert_eq!(
        got.1,
        json!({"statusCode": "400", "code": "InvalidRequest", "error": "Bad Request", "message": message})
    );
}

async fn with_files(s: &StorageApp) {
    let key = s.app.service_key.clone();
    s.create_bucket(json!({"name": "docs"})).await;
    for name in ["a.txt", "b.txt", "dir/c.txt"] {
        let (status, body) = s.upload(&key, &format!("docs/{name}"), "text/plain", b"hello".to_vec()).await;
        assert_eq!(status, 200, "{body}");
    }
}

#[tokio::test]
async fn signed_urls_accept_numbers_as_strings_and_refuse_what_storage_refuses() {
    let s = spawn_storage(&[]).await;
    with_files(&s).await;
    let key = s.app.service_key.clone();
    // The issue's example: storage-py sends `expiresIn` as a string.
    let (status, body) = raw(&s, Method::POST, "/object/sign/docs/a.txt", &key, r#"{"expiresIn": "60"}"#).await;
    assert_eq!(status, 200, "{body}");
    let url = body["signedURL"].as_str().unwrap();
    assert!(url.starts_with("/object/sign/docs/a.txt?token="), "{url}");
    let res = s.app.http.get(s.url(url)).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert!(res.headers().get("expires").is_some() && res.headers().get("cache-control").is_none());
    assert_eq!(res.headers()["x-robots-tag"], "none");

    let res = s.app.http.get(s.url("/object/sign/docs/a.txt")).send().await.unwrap();
    assert_validation(
        (res.status().as_u16(), res.json().await.unwrap()),
        "querystring must have required property 'token'",
    );
    // The schema is checked before the token, as Fastify validates before its JWT hook.
    let bad_token = raw(&s, Method::POST, "/object/sign/docs/a.txt", "not.a.token", r#"{"expiresIn": "x"}"#).await;
    assert_validation(bad_token, "body/expiresIn must be integer");

    let sign = |body: &'static str| raw(&s, Method::POST, "/object/sign/docs/a.txt", &key, body);
    assert_validation(sign(r#"{"expiresIn": "soon"}"#).await, "body/expiresIn must be integer");
    assert_validation(sign(r#"{"expiresIn": 60.5}"#).await, "body/expiresIn must be integer");
    assert_validation(sign(r#"{"expiresIn": 0}"#).await, "body/expiresIn must be >= 1");
    assert_validation(sign(r#"{}"#).await, "body must have required property 'expiresIn'");
    let (status, body) = sign(r#"{"expiresIn": 9007199254740991}"#).await;
    assert_eq!(
        (status, &body["code"], &body["message"]),
        (400, &json!("InvalidParameter"), &json!("Invalid Parameter expiresIn"))
    );

    // Several paths: a lone string is a one-item list, as ajv coerces it.
    let (status, body) =
        raw(&s, Method::POST, "/object/sign/docs", &key, r#"{"expiresIn": "120", "paths": "b.txt"}"#).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body[0]["path"], "b.txt");
    assert!(body[0]["signedURL"].as_str().unwrap().starts_with("/object/sign/docs/b.txt?token="));
    let (status, body) = raw(&s, Method::POST, "/object/sign/docs", &key, r#"{"expiresIn": 60, "paths": []}"#).await;
    assert_validation((status, body), "body/paths must NOT have fewer than 1 items");
}

#[tokio::test]
async fn transform_options_are_validated_and_never_applied_when_transformations_are_off() {
    let s = spawn_storage(&[("IMAGE_TRANSFORMATION_ENABLED", "false")]).await;
    with_files(&s).await;
    let key = s.app.service_key.clone();
    // As Storage with transformations disabled: a valid `transform` signs the original, at /object/sign.
    let body = r#"{"expiresIn": 60, "transform": {"width": "100", "height": 50, "resize": "cover"}}"#;
    let (status, signed) = raw(&s, Method::POST, "/object/sign/docs/a.txt", &key, body).await;
    assert_eq!(status, 200, "{signed}");
    assert!(signed["signedURL"].as_str().unwrap().starts_with("/object/sign/"), "{signed}");
    let bad = r#"{"expiresIn": 60, "transform": {"width": "wide"}}"#;
    assert_validation(
        raw(&s, Method::POST, "/object/sign/docs/a.txt", &key, bad).await,
        "body/transform/width must be integer",
    );
    let bad = r#"{"expiresIn": 60, "transform": {"quality": 5}}"#;
    assert_validation(
        raw(&s, Method::POST, "/object/sign/docs/a.txt", &key, bad).await,
        "body/transform/quality must be >= 20",
    );

    // The render routes do not exist while transformations are off: Fastify's 404, never the original image.
    for path in [
        "/render/image/public/docs/a.txt?width=100",
        "/render/image/authenticated/docs/a.txt?width=100",
        "/render/image/sign/docs/a.txt?token=x",
    ] {
        let res = s.req(Method::GET, path, &key).send().await.unwrap();
        assert_eq!(res.status(), 404, "{path}");
        let body: Value = res.json().await.unwrap();
        assert_eq!(
            body,
            json!({"statusCode": "404", "code": "InvalidRequest", "error": "Not Found",
                   "message": format!("Route GET:{path} not found")})
        );
    }
}

#[tokio::test]
async fn lists_coerce_their_bodies_and_an_empty_cursor_is_the_first_page() {
    let s = spawn_storage(&[]).await;
    with_files(&s).await;
    let key = s.app.service_key.clone();
    let body =
        r#"{"prefix": "", "limit": "2", "offset": "0", "sortBy": {"column": "name", "order": "desc"}, "search": null}"#;
    let (status, list) = raw(&s, Method::POST, "/object/list/docs", &key, body).await;
    assert_eq!(status, 200, "{list}");
    let names: Vec<&str> = list.as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["dir", "b.txt"]);
    assert_validation(
        raw(&s, Method::POST, "/object/list/docs", &key, r#"{"limit": 1}"#).await,
        "body must have required property 'prefix'",
    );
    let desc = r#"{"prefix": "", "sortBy": {"column": "name", "order": "DESC"}}"#;
    assert_validation(
        raw(&s, Method::POST, "/object/list/docs", &key, desc).await,
        "body/sortBy/order must be equal to one of the allowed values",
    );

    // list-v2: the issue's example (`cursor: ""`), with the limit and the delimiter flag as strings.
    let body = r#"{"cursor": "", "limit": "1", "with_delimiter": "true", "prefix": ""}"#;
    let (status, page) = raw(&s, Method::POST, "/object/list-v2/docs", &key, body).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["hasNext"], true);
    assert!(page["nextCursorKey"].is_string(), "{page}");
    let next = page["nextCursor"].as_str().unwrap().to_string();
    let body = json!({"cursor": next, "limit": 5, "with_delimiter": true}).to_string();
    let (_, rest) = raw(&s, Method::POST, "/object/list-v2/docs", &key, &body).await;
    assert_eq!(rest["hasNext"], false, "{rest}");
    let (status, bad) = raw(&s, Method::POST, "/object/list-v2/docs", &key, r#"{"cursor": "bm9wZQ"}"#).await;
    assert_eq!((status, &bad["message"]), (400, &json!("Invalid Parameter continuation token")));
    assert_validation(
        raw(&s, Method::POST, "/object/list-v2/docs", &key, r#"{"limit": "0"}"#).await,
        "body/limit must be >= 1",
    );
}

#[tokio::test]
async fn downloads_name_attachments_exactly_as_storage() {
    let s = spawn_storage(&[]).await;
    with_files(&s).await;
    let key = s.app.service_key.clone();
    let disposition = |query: &'static str| {
        let s = &s;
        let key = key.clone();
        async move {
            let res = s.req(Method::GET, &format!("/object/docs/a.txt{query}"), &key).send().await.unwrap();
            res.headers().get("content-disposition").map(|v| v.to_str().unwrap().to_string())
        }
    };
    assert_eq!(disposition("").await, None);
    assert_eq!(disposition("?download").await.as_deref(), Some("attachment;"));
    assert_eq!(disposition("?download=").await.as_deref(), Some("attachment;"));
    assert_eq!(
        disposition("?download=my%20report%20(1).pdf").await.as_deref(),
        Some("attachment; filename=my%20report%20(1).pdf; filename*=UTF-8''my%20report%20(1).pdf")
    );
    assert_eq!(
        disposition("?download=caf%C3%A9%3B%22.txt").await.as_deref(),
        Some("attachment; filename=caf%C3%A9%3B%22.txt; filename*=UTF-8''caf%C3%A9%3B%22.txt")
    );
}

#[tokio::test]
async fn reads_without_a_token_answer_for_public_buckets_only() {
    let s = spawn_storage(&[]).await;
    let key = s.app.service_key.clone();
    s.create_bucket(json!({"name": "open", "public": "true"})).await;
    s.create_bucket(json!({"name": "closed"})).await;
    for path in ["open/x.txt", "closed/x.txt"] {
        assert_eq!(s.upload(&key, path, "text/plain", b"hi".to_vec()).await.0, 200);
    }
    let plain = |path: &str| s.app.http.get(s.url(path)).send();
    let res = plain("/object/open/x.txt").await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.text().await.unwrap(), "hi");
    let info: Value = plain("/object/info/open/x.txt").await.unwrap().json().await.unwrap();
    assert_eq!((&info["name"], &info["metadata"]), (&json!("x.txt"), &json!({})));
    let res = s.app.http.head(s.url("/object/open/x.txt")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let res = s.app.http.get(s.url("/object/open/x.txt")).bearer_auth("not.a.jwt").send().await.unwrap();
    assert_eq!(res.status(), 200, "an invalid token reads as anonymous on this route");
    let body: Value = plain("/object/closed/x.txt").await.unwrap().json().await.unwrap();
    assert_eq!((&body["statusCode"], &body["message"]), (&json!("404"), &json!("Bucket not found")));
    // The authenticated route still needs a token.
    let body: Value = plain("/object/authenticated/open/x.txt").await.unwrap().json().await.unwrap();
    assert_eq!(body["statusCode"], "403");
}

#[tokio::test]
async fn buckets_coerce_settings_and_list_their_type() {
    let s = spawn_storage(&[]).await;
    let key = s.app.service_key.clone();
    let body = r#"{"id": "pics", "name": "pics", "public": "true", "file_size_limit": "1000", "allowed_mime_types": "image/png"}"#;
    let (status, created) = raw(&s, Method::POST, "/bucket", &key, body).await;
    assert_eq!((status, &created), (200, &json!({"name": "pics"})));
    let (_, bucket) = raw(&s, Method::GET, "/bucket/pics", &key, "").await;
    assert_eq!((&bucket["public"], &bucket["file_size_limit"]), (&json!(true), &json!(1000)));
    assert_eq!(bucket["allowed_mime_types"], json!(["image/png"]));
    assert!(bucket.get("type").is_none(), "a single bucket has no type in Storage");
    let (status, list) = raw(&s, Method::GET, "/bucket?limit=1&offset=0&sortColumn=name&sortOrder=asc", &key, "").await;
    assert_eq!((status, &list[0]["type"]), (200, &json!("STANDARD")));
    let old_py =
        s.req(Method::GET, "/bucket", &key).header("x-client-info", "supabase-py/2.17.0").send().await.unwrap();
    let list: Value = old_py.json().await.unwrap();
    assert!(list[0].get("type").is_none(), "supabase-py < 2.18 fails on `type`");
    assert_validation(
        raw(&s, Method::GET, "/bucket?sortOrder=DESC", &key, "").await,
        "querystring/sortOrder must be equal to one of the allowed values",
    );
    assert_validation(raw(&s, Method::GET, "/bucket?limit=0", &key, "").await, "querystring/limit must be >= 1");

    let (status, _) =
        raw(&s, Method::PUT, "/bucket/pics", &key, r#"{"allowed_mime_types": null, "file_size_limit": null}"#).await;
    assert_eq!(status, 200);
    let (_, bucket) = raw(&s, Method::GET, "/bucket/pics", &key, "").await;
    assert_eq!((&bucket["allowed_mime_types"], &bucket["file_size_limit"]), (&Value::Null, &Value::Null));
    assert_validation(
        raw(&s, Method::PUT, "/bucket/pics", &key, "{}").await,
        "body must NOT have fewer than 1 properties",
    );
    assert_validation(
        raw(&s, Method::POST, "/bucket", &key, r#"{"id": "x"}"#).await,
        "body must have required property 'name'",
    );
    assert_validation(
        raw(&s, Method::POST, "/bucket", &key, r#"{"name": "z", "type": "standard"}"#).await,
        "body/type must be equal to one of the allowed values",
    );
    let (status, analytics) = raw(&s, Method::POST, "/bucket", &key, r#"{"name": "z", "type": "ANALYTICS"}"#).await;
    assert_eq!((status, &analytics["code"]), (400, &json!("FeatureNotEnabled")));
    let (status, bad) =
        raw(&s, Method::POST, "/bucket", &key, r#"{"name": "y", "allowed_mime_types": ["not a type"]}"#).await;
    assert_eq!((status, &bad["statusCode"]), (400, &json!("415")));
}

#[tokio::test]
async fn uploads_read_other_clients_fields_as_storage_does() {
    let s = spawn_storage(&[]).await;
    let key = s.app.service_key.clone();
    s.create_bucket(json!({"name": "up"})).await;
    // Multipart with a `contentType` field before the file and metadata under `userMetadata`; a text field that is
    // not a file (no filename) is ignored.
    let boundary = "XyZ";
    let body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"cacheControl\"\r\n\r\n60\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"contentType\"\r\n\r\ntext/csv\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"userMetadata\"\r\n\r\n{{\"k\":\"v\"}}\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nnot the file\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"t.csv\"\r\nContent-Type: text/plain\r\n\r\na,b\r\n\
         --{boundary}--\r\n"
    );
    let res = s
        .req(Method::POST, "/object/up/t.csv", &key)
        .header("content-type", format!("multipart/form-data; boundary={boundary}"))
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    let info: Value = s.req(Method::GET, "/object/info/up/t.csv", &key).send().await.unwrap().json().await.unwrap();
    assert_eq!(
        (&info["content_type"], &info["cache_control"], &info["size"]),
        (&json!("text/csv"), &json!("max-age=60"), &json!(3))
    );
    assert_eq!(info["metadata"], json!({"k": "v"}));

    // Invalid x-metadata is ignored (not an error), and only `x-upsert: true` exactly replaces.
    let res = s
        .req(Method::POST, "/object/up/raw.txt", &key)
        .header("content-type", "text/plain")
        .header("x-metadata", "%%%not base64")
        .body("one")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let again = |upsert: &'static str| {
        s.req(Method::POST, "/object/up/raw.txt", &key)
            .header("content-type", "text/plain")
            .header("x-upsert", upsert)
            .body("two")
            .send()
    };
    let body: Value = again("True").await.unwrap().json().await.unwrap();
    assert_eq!(body["statusCode"], "409", "{body}");
    assert_eq!(again("true").await.unwrap().status(), 200);
}

#[tokio::test]
async fn copies_take_metadata_overrides_without_copy_metadata() {
    let s = spawn_storage(&[]).await;
    with_files(&s).await;
    let key = s.app.service_key.clone();
    let res = s
        .req(Method::POST, "/object/copy", &key)
        .header("content-type", "application/json")
        .header("x-metadata", "eyJvd25lciI6ImNvcHkifQ==") // {"owner":"copy"}
        .body(
            r#"{"bucketId": "docs", "sourceKey": "a.txt", "destinationKey": "copy.txt", "copyMetadata": "false",
                  "metadata": {"mimetype": "text/markdown", "cacheControl": "max-age=5"}}"#,
        )
        .send()
        .await
        .unwrap();
    let copied: Value = res.json().await.unwrap();
    assert_eq!(
        (&copied["Key"], &copied["name"], &copied["bucket_id"]),
        (&json!("docs/copy.txt"), &json!("copy.txt"), &json!("docs"))
    );
    assert_eq!(copied["metadata"]["mimetype"], "text/markdown");
    let info: Value =
        s.req(Method::GET, "/object/info/docs/copy.txt", &key).send().await.unwrap().json().await.unwrap();
    assert_eq!((&info["content_type"], &info["cache_control"]), (&json!("text/markdown"), &json!("max-age=5")));
    assert_eq!(info["metadata"], json!({"owner": "copy"}));
    assert_validation(
        raw(&s, Method::POST, "/object/move", &key, r#"{"bucketId": "docs", "sourceKey": "a.txt"}"#).await,
        "body must have required property 'destinationKey'",
    );
    assert_validation(
        raw(&s, Method::DELETE, "/object/docs", &key, r#"{"prefixes": []}"#).await,
        "body/prefixes must NOT have fewer than 1 items",
    );
    let (status, removed) = raw(&s, Method::DELETE, "/object/docs", &key, r#"{"prefixes": "b.txt"}"#).await;
    assert_eq!((status, removed.as_array().map(Vec::len)), (200, Some(1)));
}

#[tokio::test]
async fn list_limits_above_1000_are_not_clamped_and_bulk_deletes_stop_at_1000() {
    let s = spawn_storage(&[]).await;
    let key = s.app.service_key.clone();
    s.create_bucket(json!({"name": "many"})).await;
    s.sql(
        "insert into storage.objects (bucket_id, name, metadata) \
         select 'many', 'f' || lpad(i::text, 4, '0') || '.txt', '{\"size\": 1}' from generate_series(1, 1001) i",
    )
    .await;
    // Storage's list schema has no maximum: a client paging by 1500 gets every one of the 1001 objects.
    let (status, list) = raw(&s, Method::POST, "/object/list/many", &key, r#"{"prefix": "", "limit": "1500"}"#).await;
    assert_eq!(status, 200, "{list}");
    let names = list.as_array().unwrap();
    assert_eq!(names.len(), 1001);
    assert_eq!(names[1000]["name"], "f1001.txt");

    // More than 1000 prefixes is refused before anything is deleted; 1000 is allowed.
    let prefixes: Vec<String> = (1..=1001).map(|i| format!("f{i:04}.txt")).collect();
    let (status, refused) =
        raw(&s, Method::DELETE, "/object/many", &key, &json!({"prefixes": prefixes}).to_string()).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(
        refused,
        json!({"statusCode": "400", "code": "InvalidRequest", "error": "InvalidRequest",
               "message": "Bulk object requests are limited to 1000 objects per request."})
    );
    let (status, removed) =
        raw(&s, Method::DELETE, "/object/many", &key, &json!({"prefixes": prefixes[..1000]}).to_string()).await;
    assert_eq!((status, removed.as_array().map(Vec::len)), (200, Some(1000)), "{removed}");
}

#[tokio::test]
async fn bucket_size_limits_above_the_global_limit_are_too_large_and_spaced_units_are_refused() {
    let s = spawn_storage(&[("FILE_SIZE_LIMIT", "1000000")]).await;
    let key = s.app.service_key.clone();
    let too_large = json!({"statusCode": "413", "code": "EntityTooLarge", "error": "Payload too large",
                           "message": "The object exceeded the maximum allowed size"});
    // Storage answers its 413 with HTTP 400 (its error handler maps every 4xx body to 400).
    for limit in [r#"1000001"#, r#""1.01MB""#, r#""1GB""#] {
        let body = format!(r#"{{"name": "big", "file_size_limit": {limit}}}"#);
        assert_eq!(raw(&s, Method::POST, "/bucket", &key, &body).await, (400, too_large.clone()), "{limit}");
    }
    // Three significant digits, decimal units: "1.004MB" is 1 000 000 bytes, the global limit itself.
    let (status, _) = raw(&s, Method::POST, "/bucket", &key, r#"{"name": "ok", "file_size_limit": "1.004MB"}"#).await;
    assert_eq!(status, 200);
    let (_, bucket) = raw(&s, Method::GET, "/bucket/ok", &key, "").await;
    assert_eq!(bucket["file_size_limit"], 1_000_000);
    let raised = raw(&s, Method::PUT, "/bucket/ok", &key, r#"{"file_size_limit": "2mb"}"#).await;
    assert_eq!(raised, (400, too_large));
    // A unit after a space does not match Storage's pattern: ajv's three messages.
    let pattern = r#"^[0-9]+(?:\.[0-9]+)?(?:[gG][bB]|[mM][bB]|[kK][bB]|[bB])$"#;
    assert_validation(
        raw(&s, Method::POST, "/bucket", &key, r#"{"name": "spaced", "file_size_limit": "20 MB"}"#).await,
        &format!(
            "body/file_size_limit must be integer, body/file_size_limit must match pattern \"{pattern}\", \
             body/file_size_limit must match a schema in anyOf"
        ),
    );
    let (_, buckets) = raw(&s, Method::GET, "/bucket", &key, "").await;
    let ids: Vec<&str> = buckets.as_array().unwrap().iter().map(|b| b["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"ok") && !ids.contains(&"big") && !ids.contains(&"spaced"), "{ids:?}");
}
