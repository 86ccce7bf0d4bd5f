//! Go's `r.FormValue(key)` on a POST, as GoTrue reads `grant_type` on `/token`: the value of a url-encoded body
//! first, then the query string's, then a multipart body's (the order of Go's `r.Form`). Go's form parser consumes
//! such a body, so the JSON parameters GoTrue reads after it are empty.

use axum::body::Bytes;
use axum::http::header::CONTENT_TYPE;
use axum::http::HeaderMap;

/// What `r.FormValue(key)` answers, and the body left for the JSON parameters (empty once a form parser read it).
pub async fn form_value(headers: &HeaderMap, query: Option<&str>, body: Bytes, key: &str) -> (Option<String>, Bytes) {
    let from_query = || query.and_then(|q| first(q.as_bytes(), key));
    let content_type = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let media = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    match media.as_str() {
        "application/x-www-form-urlencoded" => (first(&body, key).or_else(from_query), Bytes::new()),
        "multipart/form-data" => match multer::parse_boundary(content_type) {
            Ok(boundary) => match from_query() {
                Some(v) => (Some(v), Bytes::new()),
                None => (multipart_field(body, boundary, key).await, Bytes::new()),
            },
            // Go cannot read a multipart body without its boundary: the body stays for the JSON reader.
            Err(_) => (from_query(), body),
        },
        _ => (from_query(), body),
    }
}

/// The first value of `key` in url-encoded `pairs` (an empty value counts: Go answers it as it is).
fn first(pairs: &[u8], key: &str) -> Option<String> {
    url::form_urlencoded::parse(pairs).find(|(k, _)| k == key).map(|(_, v)| v.into_owned())
}

/// The first non-file part named `key` of a multipart body.
async fn multipart_field(body: Bytes, boundary: String, key: &str) -> Option<String> {
    let stream = futures::stream::once(async move { Ok::<_, std::convert::Infallible>(body) });
    let mut form = multer::Multipart::new(stream, boundary);
    while let Ok(Some(field)) = form.next_field().await {
        if field.name() == Some(key) && field.file_name().is_none() {
            return field.text().await.ok();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(content_type: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(CONTENT_TYPE, content_type.parse().unwrap());
        h
    }

    async fn grant(content_type: &str, query: Option<&str>, body: &'static str) -> (Option<String>, Bytes) {
        form_value(&typed(content_type), query, Bytes::from_static(body.as_bytes()), "grant_type").await
    }

    #[tokio::test]
    async fn a_json_body_is_not_read_and_stays_for_the_parameters() {
        let (v, rest) = grant("application/json", Some("grant_type=password"), r#"{"grant_type":"pkce"}"#).await;
        assert_eq!((v.as_deref(), rest.len()), (Some("password"), 21));
        assert_eq!(grant("application/json", None, r#"{"grant_type":"pkce"}"#).await.0, None);
    }

    #[tokio::test]
    async fn a_url_encoded_body_comes_before_the_query_and_is_consumed() {
        let ct = "application/x-www-form-urlencoded; charset=utf-8";
        let (v, rest) = grant(ct, Some("grant_type=password"), "grant_type=refresh_token").await;
        assert_eq!((v.as_deref(), rest.is_empty()), (Some("refresh_token"), true));
        assert_eq!(grant(ct, Some("grant_type=password"), "email=a").await.0.as_deref(), Some("password"));
        assert_eq!(grant(ct, Some("grant_type=password"), "grant_type=").await.0.as_deref(), Some(""));
    }

    #[tokio::test]
    async fn a_multipart_body_comes_after_the_query() {
        let ct = "multipart/form-data; boundary=B";
        let body = "--B\r\nContent-Disposition: form-data; name=\"grant_type\"\r\n\r\npkce\r\n--B--\r\n";
        let (v, rest) = grant(ct, None, body).await;
        assert_eq!((v.as_deref(), rest.is_empty()), (Some("pkce"), true));
        assert_eq!(grant(ct, Some("grant_type=password"), body).await.0.as_deref(), Some("password"));
        let (v, rest) = grant("multipart/form-data", Some("grant_type=password"), "x").await;
        assert_eq!((v.as_deref(), rest.len()), (Some("password"), 1));
    }
}
