//! `/render/image/{public,authenticated,sign}/{bucket}/{name}`: an object rendered with Storage's transformation
//! options (width, height, resize, quality, format) by the bounded engine in `transform`. The object is found as
//! the plain download routes find it; the rendering is cached under the object's version and the options.

use super::caller::Requester;
use super::error::{Result, StorageError};
use super::extract::{ObjectRequest, StoragePath};
use super::find::{find_object, Access, ObjectRow};
use super::transform::{RenderError, Rendered, Transform};
use super::{names, range, signing};
use crate::storage::Storage;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use futures::TryStreamExt;
use std::sync::Arc;

impl From<RenderError> for StorageError {
    fn from(e: RenderError) -> Self {
        StorageError::RenderFailed(e.message())
    }
}

/// With transformations off the routes do not exist: Fastify's not-found answer.
fn check_enabled(state: &Storage, uri: &Uri) -> Result<()> {
    if state.config.image.enabled {
        return Ok(());
    }
    let path_and_query = uri.path_and_query().map(|p| p.as_str()).unwrap_or("/");
    Err(StorageError::RouteNotFound(format!(
        "GET:{}",
        path_and_query.strip_prefix("/storage/v1").unwrap_or(path_and_query)
    )))
}

/// The query's pairs, percent-decoded.
fn query_pairs(uri: &Uri) -> Vec<(String, String)> {
    url::form_urlencoded::parse(uri.query().unwrap_or("").as_bytes()).into_owned().collect()
}

fn download_of(pairs: &[(String, String)]) -> Option<String> {
    pairs.iter().find(|(k, _)| k == "download").map(|(_, v)| v.clone())
}

fn transform_of(state: &Storage, pairs: &[(String, String)]) -> Result<Transform> {
    let sizes = state.renderer.sizes;
    let transform = Transform::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())), sizes)
        .map_err(|e| StorageError::Validation(e.0))?;
    match super::transform::unapplied(|k| pairs.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str())) {
        Some(message) => Err(StorageError::FeatureNotEnabled(message.into())),
        None => Ok(transform),
    }
}

/// `GET /render/image/public/{bucket}/{name}`: public buckets only.
pub async fn public(State(state): State<Storage>, req: ObjectRequest) -> Result<Response> {
    by_query(&state, None, &req.uri, &req.headers, &req.params).await
}

/// `GET /render/image/authenticated/{bucket}/{name}`: as the caller, row-level security deciding.
pub async fn authenticated(State(state): State<Storage>, requester: Requester, req: ObjectRequest) -> Result<Response> {
    by_query(&state, Some(requester), &req.uri, &req.headers, &req.params).await
}

/// The public and authenticated routes: options from the query, the object found as the caller (with a
/// `requester`) or in a public bucket.
async fn by_query(
    state: &Storage,
    requester: Option<Requester>,
    uri: &Uri,
    headers: &HeaderMap,
    params: &(String, String),
) -> Result<Response> {
    check_enabled(state, uri)?;
    let pairs = query_pairs(uri);
    let t = transform_of(state, &pairs)?;
    let (bucket, name) = (names::bucket_id(&params.0)?, names::object_name(&params.1)?);
    let caller = requester.map(Requester::caller).transpose()?;
    let access = caller.as_ref().map_or(Access::Public, Access::Caller);
    let obj = find_object(state, access, bucket, name).await?;
    render(state, &obj, t, headers, download_of(&pairs), None).await
}

/// `GET /render/image/sign/{bucket}/{name}?token=`: the options come from the token only.
pub async fn signed(
    State(state): State<Storage>,
    uri: Uri,
    headers: HeaderMap,
    StoragePath(params): StoragePath<(String, String)>,
) -> Result<Response> {
    check_enabled(&state, &uri)?;
    let pairs = query_pairs(&uri);
    let (bucket, name) = (names::bucket_id(&params.0)?, names::object_name(&params.1)?);
    let token = pairs.iter().find(|(k, _)| k == "token").map(|(_, v)| v.as_str());
    let token =
        token.ok_or_else(|| StorageError::Validation("querystring must have required property 'token'".into()))?;
    let claims = signing::verify(&state, token, signing::Scope::Download, bucket, name)?;
    let t = Transform::from_claim(claims.transformations.as_deref().unwrap_or(""), state.renderer.sizes);
    let obj = find_object(&state, Access::Signed, bucket, name).await?;
    render(&state, &obj, t, &headers, download_of(&pairs), Some(claims.exp)).await
}

/// Reads the source (refusing one over the size limit before reading it), renders or takes the cached result, and
/// answers with Storage's headers.
async fn render(
    state: &Storage,
    obj: &ObjectRow,
    t: Transform,
    headers: &HeaderMap,
    download: Option<String>,
    expires: Option<i64>,
) -> Result<Response> {
    let renderer = &state.renderer;
    let accepts_webp =
        headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|a| a.contains("image/webp"));
    let webp_wanted = accepts_webp && t.format != super::transform::Format::Origin;
    let version = obj.version.as_deref().unwrap_or("");
    let key = format!("{}/{}@{version}|{}", obj.bucket_id, obj.name, t.cache_key(webp_wanted));
    let rendered = match renderer.cached(&key) {
        Some(hit) => hit,
        None => {
            let source = read_source(state, obj, renderer.limits.max_source_bytes).await?;
            renderer.render(key, source, t.clone(), webp_wanted, obj.meta_text("mimetype")).await?
        }
    };
    Ok(respond(obj, &t, &rendered, download.as_deref(), expires))
}

async fn read_source(state: &Storage, obj: &ObjectRow, max: usize) -> Result<bytes::Bytes> {
    let backend = &state.backend;
    let not_found = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => StorageError::NoSuchKey,
        _ => StorageError::internal("read image", e),
    };
    let size = backend.size(&obj.bucket_id, &obj.name, obj.version.as_deref()).await.map_err(not_found)?;
    if size > max as u64 {
        return Err(RenderError::FileTooLarge.into());
    }
    let stream =
        backend.stream((&obj.bucket_id, &obj.name, obj.version.as_deref()), 0, size).await.map_err(not_found)?;
    let chunks: Vec<bytes::Bytes> = stream.try_collect().await.map_err(not_found)?;
    Ok(chunks.concat().into())
}

fn respond(
    obj: &ObjectRow,
    t: &Transform,
    r: &Arc<Rendered>,
    download: Option<&str>,
    expires: Option<i64>,
) -> Response {
    let mut h = HeaderMap::new();
    let mut put = |name: header::HeaderName, v: &str| {
        if let Ok(v) = HeaderValue::from_str(v) {
            h.insert(name, v);
        }
    };
    put(header::CONTENT_TYPE, r.content_type);
    put(header::CONTENT_LENGTH, &r.bytes.len().to_string());
    match expires.and_then(|exp| chrono::DateTime::from_timestamp(exp, 0)) {
        Some(at) => put(header::EXPIRES, &range::http_date(at)),
        None => put(header::CACHE_CONTROL, obj.meta_text("cacheControl").unwrap_or("no-cache")),
    }
    if let Some(etag) = obj.meta_text("eTag") {
        put(header::ETAG, etag);
    }
    if let Some(at) = obj.updated_at {
        put(header::LAST_MODIFIED, &range::http_date(at));
    }
    put(header::ACCEPT_RANGES, "bytes");
    put(header::HeaderName::from_static("x-robots-tag"), "none");
    put(header::CONTENT_SECURITY_POLICY, "default-src 'none'; sandbox");
    let applied = t.applied();
    if !applied.is_empty() {
        put(header::HeaderName::from_static("x-transformations"), &applied);
    }
    if let Some(d) = download {
        put(header::CONTENT_DISPOSITION, &range::attachment(d));
    }
    (StatusCode::OK, h, r.bytes.clone()).into_response()
}
