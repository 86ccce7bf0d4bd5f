//! `/storage/v1/render/image/…` against the real gateway: sizes per resize mode, formats (source, auto-WebP from
//! `Accept`, `format=origin`), Storage's headers, signed render URLs, who may read, the validation messages and
//! the limits (a source over the pixel limit or the size limit is refused, not rendered).

use crate::storage_support::{spawn_storage, StorageApp};
use image::{DynamicImage, GrayImage, ImageFormat, RgbImage};
use reqwest::Method;
use serde_json::{json, Value};
use std::io::Cursor;

fn encode(img: DynamicImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, format).unwrap();
    out.into_inner()
}

/// A 350×206 JPEG (the size of storage-js's sadcat.jpg).
fn photo() -> Vec<u8> {
    let img = RgbImage::from_fn(350, 206, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, 90]));
    encode(DynamicImage::ImageRgb8(img), ImageFormat::Jpeg)
}

fn decoded(bytes: &[u8]) -> (ImageFormat, u32, u32) {
    let format = image::guess_format(bytes).unwrap();
    let img = image::load_from_memory(bytes).unwrap();
    (format, img.width(), img.height())
}

async fn app_with_photo(extra: &[(&str, &str)]) -> StorageApp {
    let s = spawn_storage(extra).await;
    let key = s.app.service_key.clone();
    s.create_bucket(json!({"name": "pics", "public": true})).await;
    s.create_bucket(json!({"name": "private"})).await;
    for path in ["pics/cat.jpg", "private/cat.jpg"] {
        let (status, body) = s.upload(&key, path, "image/jpeg", photo()).await;
        assert_eq!(status, 200, "{body}");
    }
    s
}

async fn get(s: &StorageApp, path: &str, key: &str, accept: &str) -> reqwest::Response {
    s.req(Method::GET, path, key).header("accept", accept).send().await.unwrap()
}

#[tokio::test]
async fn sizes_formats_and_headers() {
    let s = app_with_photo(&[]).await;
    let anon = s.app.anon_key.clone();
    let res = get(&s, "/render/image/public/pics/cat.jpg?width=200&height=200", &anon, "*/*").await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["x-transformations"], "height:200,width:200,resizing_type:fill");
    assert_eq!(res.headers()["content-type"], "image/jpeg");
    let length: usize = res.headers()["content-length"].to_str().unwrap().parse().unwrap();
    let body = res.bytes().await.unwrap();
    assert_eq!(body.len(), length);
    // cover: scaled to cover the box, then cropped to it
    assert_eq!(decoded(&body), (ImageFormat::Jpeg, 200, 200));
    // contain fits inside; fill stretches; never enlarged
    let cases = [
        ("width=200&height=200&resize=contain", (200, 118)),
        ("width=100&height=300&resize=fill", (100, 206)),
        ("width=175", (175, 103)),
        ("width=2000&height=2000&resize=contain", (350, 206)),
    ];
    for (query, size) in cases {
        let body = get(&s, &format!("/render/image/public/pics/cat.jpg?{query}"), &anon, "*/*").await.bytes().await;
        assert_eq!(decoded(&body.unwrap()), (ImageFormat::Jpeg, size.0, size.1), "{query}");
    }
    // WebP when the client accepts it, unless format=origin; format=webp whatever Accept says
    let webp = get(&s, "/render/image/public/pics/cat.jpg?width=100", &anon, "image/webp,*/*").await;
    assert_eq!(webp.headers()["content-type"], "image/webp");
    assert_eq!(decoded(&webp.bytes().await.unwrap()), (ImageFormat::WebP, 100, 59));
    let origin = get(&s, "/render/image/public/pics/cat.jpg?width=100&format=origin", &anon, "image/webp").await;
    assert_eq!(origin.headers()["content-type"], "image/jpeg");
    let forced = get(&s, "/render/image/public/pics/cat.jpg?width=100&format=webp", &anon, "*/*").await;
    assert_eq!(forced.headers()["content-type"], "image/webp");
    // download names the file
    let res = get(&s, "/render/image/public/pics/cat.jpg?width=50&download=small.jpg", &anon, "*/*").await;
    assert!(res.headers()["content-disposition"].to_str().unwrap().starts_with("attachment;"));
}

#[tokio::test]
async fn readers_signed_urls_and_validation() {
    let s = app_with_photo(&[]).await;
    let (anon, service) = (s.app.anon_key.clone(), s.app.service_key.clone());
    // a private bucket: not through the public route, nor for anon under RLS; the service role reads it
    let body: Value =
        get(&s, "/render/image/public/private/cat.jpg?width=10", &anon, "*/*").await.json().await.unwrap();
    assert_eq!(body["message"], "Bucket not found");
    let res = get(&s, "/render/image/authenticated/private/cat.jpg?width=10", &anon, "*/*").await;
    assert_eq!(res.json::<Value>().await.unwrap()["message"], "Object not found");
    let res = get(&s, "/render/image/authenticated/private/cat.jpg?width=10", &service, "*/*").await;
    assert_eq!(decoded(&res.bytes().await.unwrap()).1, 10);

    // a signed URL with a transform points at the render route and carries the options in its token
    let signed: Value = s
        .req(Method::POST, "/object/sign/private/cat.jpg", &service)
        .json(&json!({"expiresIn": 60, "transform": {"width": 200, "height": 200, "quality": 60}}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let url = signed["signedURL"].as_str().unwrap();
    assert!(url.starts_with("/render/image/sign/private/cat.jpg?token="), "{url}");
    let res = s.app.http.get(s.url(url)).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["x-transformations"], "height:200,width:200,resizing_type:fill,quality:60");
    assert!(res.headers().contains_key("expires"));
    // the token names its object: another path is refused
    let token = url.split("token=").nth(1).unwrap();
    let other = s.app.http.get(s.url(&format!("/render/image/sign/pics/cat.jpg?token={token}"))).send().await.unwrap();
    assert_eq!(other.json::<Value>().await.unwrap()["message"], "Invalid signature");
    // an empty transform signs the plain download URL
    let plain: Value = s
        .req(Method::POST, "/object/sign/private/cat.jpg", &service)
        .json(&json!({"expiresIn": 60, "transform": {}}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(plain["signedURL"].as_str().unwrap().starts_with("/object/sign/private/cat.jpg?token="));

    for (query, message) in [
        ("quality=10", "querystring/quality must be >= 20"),
        ("width=abc", "querystring/width must be integer"),
        ("resize=stretch", "querystring/resize must be equal to one of the allowed values"),
    ] {
        let res = get(&s, &format!("/render/image/public/pics/cat.jpg?{query}"), &anon, "*/*").await;
        assert_eq!(res.status(), 400);
        assert_eq!(res.json::<Value>().await.unwrap()["message"], message, "{query}");
    }
}

#[tokio::test]
async fn sources_over_the_limits_are_refused() {
    // 0.5 MP and 20 kB allowed
    let s = app_with_photo(&[("IMGPROXY_MAX_SRC_RESOLUTION", "0.5"), ("IMGPROXY_MAX_SRC_FILE_SIZE", "20000")]).await;
    let key = s.app.service_key.clone();
    // a small file that would inflate to a million pixels
    let bomb = encode(DynamicImage::ImageLuma8(GrayImage::new(1000, 1000)), ImageFormat::Png);
    assert!(bomb.len() < 20_000, "{}", bomb.len());
    s.upload(&key, "pics/bomb.png", "image/png", bomb).await;
    let res = get(&s, "/render/image/public/pics/bomb.png?width=10", &key, "*/*").await;
    assert_eq!(res.status(), 400);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["message"], "The source image resolution is too large to process");
    // a file over the size limit is refused before it is read
    let big = encode(
        DynamicImage::ImageRgb8(RgbImage::from_fn(300, 300, |x, y| {
            image::Rgb([(x * 7 + y * 13) as u8, (x * y) as u8, 3])
        })),
        ImageFormat::Png,
    );
    assert!(big.len() > 20_000, "{}", big.len());
    s.upload(&key, "pics/big.png", "image/png", big).await;
    let body: Value = get(&s, "/render/image/public/pics/big.png?width=10", &key, "*/*").await.json().await.unwrap();
    assert_eq!(body["message"], "The source image file is too large to process");
    // not an image
    s.upload(&key, "pics/note.txt", "text/plain", b"hello".to_vec()).await;
    let body: Value = get(&s, "/render/image/public/pics/note.txt?width=10", &key, "*/*").await.json().await.unwrap();
    assert_eq!(body["message"], "The source image is invalid or unsupported for rendering");
}

#[tokio::test]
async fn options_this_renderer_does_not_apply_are_refused_not_ignored() {
    let s = app_with_photo(&[]).await;
    let (anon, service) = (s.app.anon_key.clone(), s.app.service_key.clone());
    let not_applied = |body: &Value, what: &str| {
        assert_eq!(
            (&body["statusCode"], &body["code"]),
            (&json!("400"), &json!("FeatureNotEnabled")),
            "{what}: {body}"
        );
    };
    // Valid for Storage's schema, but this engine renders neither AVIF nor a crop other than the centre.
    for query in ["width=100&format=avif", "width=100&gravity=no", "width=100&gravity=fp&x_offset=0.2&y_offset=0.7"] {
        let res = get(&s, &format!("/render/image/public/pics/cat.jpg?{query}"), &anon, "*/*").await;
        assert_eq!(res.status(), 400, "{query}");
        not_applied(&res.json().await.unwrap(), query);
    }
    // The centre is what is rendered; offsets alone do nothing in Storage either.
    for query in ["width=100&height=100&gravity=ce", "width=100&x_offset=3"] {
        let res = get(&s, &format!("/render/image/public/pics/cat.jpg?{query}"), &anon, "*/*").await;
        assert_eq!(res.status(), 200, "{query}");
    }
    // Invalid values get the schema's message first.
    for (query, message) in [
        ("gravity=north", "querystring/gravity must be equal to one of the allowed values"),
        ("x_offset=left", "querystring/x_offset must be number"),
    ] {
        let body: Value =
            get(&s, &format!("/render/image/public/pics/cat.jpg?{query}"), &anon, "*/*").await.json().await.unwrap();
        assert_eq!(body["message"], message, "{query}");
    }
    // Signing refuses them too, rather than sign a URL that renders without them.
    for transform in [json!({"width": 100, "format": "avif"}), json!({"width": 100, "gravity": "sowe"})] {
        let res = s
            .req(Method::POST, "/object/sign/pics/cat.jpg", &service)
            .json(&json!({"expiresIn": 60, "transform": transform}))
            .send()
            .await
            .unwrap();
        not_applied(&res.json().await.unwrap(), &transform.to_string());
    }
}
