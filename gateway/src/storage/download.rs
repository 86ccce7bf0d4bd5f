//! Reading objects: downloads (`/object/{bucket}/…`, `/object/authenticated/…` as the caller under RLS,
//! `/object/public/…` for public buckets, `/object/sign/…?token=` with a signed URL), `HEAD` for `exists`, and
//! `/object/info/…`. Contents are streamed from the backend; `Range` and `If-None-Match` are honoured.

use super::caller::Requester;
use super::error::{Result, StorageError};
use super::extract::ObjectRequest;
use super::find::{find_object, Access, ObjectRow};
use super::json::query_checked;
use super::schema::{Prop, Schema};
use super::{names, range, signing};
use crate::storage::Storage;
use axum::body::Body;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

const READ_QUERY: Schema = Schema::object(&[Prop::new("download", Schema::string())]);
const SIGNED_QUERY: Schema =
    Schema::object(&[Prop::new("download", Schema::string()), Prop::new("token", Schema::string())])
        .required(&["token"]);

#[derive(Debug, Default, Deserialize)]
pub struct ReadQuery {
    pub download: Option<String>,
    pub token: Option<String>,
}

/// How a read is answered beyond the object itself.
#[derive(Debug, Default)]
struct Reply<'a> {
    download: Option<&'a str>,
    /// A signed URL's expiry: sent as `Expires` instead of the object's `Cache-Control`, as Storage does.
    expires: Option<i64>,
}

fn target(params: &(String, String)) -> Result<(&str, &str)> {
    Ok((names::bucket_id(&params.0)?, names::object_name(&params.1)?))
}

/// Streams an object (or its headers for HEAD).
async fn respond(
    state: &Storage,
    obj: &ObjectRow,
    method: &Method,
    headers: &HeaderMap,
    reply: Reply<'_>,
) -> Result<Response> {
    let backend = &state.backend;
    let total = match backend.size(&obj.bucket_id, &obj.name, obj.version.as_deref()).await {
        Ok(n) => n,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(StorageError::NoSuchKey),
        Err(e) => return Err(StorageError::internal("open object", e)),
    };
    let etag = obj.meta_str("eTag").unwrap_or_else(|| format!("\"{}\"", obj.version.as_deref().unwrap_or("0")));
    let mut h = object_headers(obj, &reply, &etag);
    let inm = headers.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok());
    if inm.is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*")) {
        return Ok((StatusCode::NOT_MODIFIED, h).into_response());
    }
    let wanted = range::parse(headers.get(header::RANGE).and_then(|v| v.to_str().ok()), total)
        .map_err(|_| StorageError::InvalidRange)?;
    let (status, start, len) = match wanted {
        Some(r) => {
            put(&mut h, header::CONTENT_RANGE, r.content_range(total));
            (StatusCode::PARTIAL_CONTENT, r.start, r.len())
        }
        None => (StatusCode::OK, 0, total),
    };
    put(&mut h, header::CONTENT_LENGTH, len.to_string());
    if method == Method::HEAD {
        return Ok((status, h).into_response());
    }
    let stream = match backend.stream((&obj.bucket_id, &obj.name, obj.version.as_deref()), start, len).await {
        Ok(s) => s,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(StorageError::NoSuchKey),
        Err(e) => return Err(StorageError::internal("read object", e)),
    };
    Ok((status, h, Body::from_stream(stream)).into_response())
}

fn put(h: &mut HeaderMap, name: header::HeaderName, v: String) {
    if let Ok(v) = HeaderValue::from_str(&v) {
        h.insert(name, v);
    }
}

/// The headers of any answer about the object: type, caching (or a signed URL's expiry), validators, and what
/// keeps stored content from running as a page.
fn object_headers(obj: &ObjectRow, reply: &Reply<'_>, etag: &str) -> HeaderMap {
    let mut h = HeaderMap::new();
    put(&mut h, header::CONTENT_TYPE, obj.meta_str("mimetype").unwrap_or_else(|| "application/octet-stream".into()));
    match reply.expires.and_then(|exp| chrono::DateTime::from_timestamp(exp, 0)) {
        Some(at) => put(&mut h, header::EXPIRES, range::http_date(at)),
        None => put(&mut h, header::CACHE_CONTROL, obj.meta_str("cacheControl").unwrap_or_else(|| "no-cache".into())),
    }
    put(&mut h, header::ETAG, etag.to_string());
    if let Some(t) = obj.updated_at {
        put(&mut h, header::LAST_MODIFIED, range::http_date(t));
    }
    h.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    h.insert("x-robots-tag", HeaderValue::from_static("none"));
    // Served from the site's origin: never let stored content run as a page.
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("default-src 'none'; sandbox"));
    if let Some(d) = reply.download {
        put(&mut h, header::CONTENT_DISPOSITION, range::attachment(d));
    }
    h
}

/// Who may read through a route.
pub(super) enum Reader {
    /// The caller's token is required (`/object/authenticated/…`).
    Token(Requester),
    /// A token is optional: without one, or with one that does not verify, the request is anonymous and only a
    /// public bucket answers, as Storage's `allowInvalidJwt` routes (`/object/{bucket}/…`, `/object/info/{bucket}/…`).
    TokenOrAnonymous(Requester),
    /// Public buckets only, no token looked at (`/object/public/…`).
    Public,
}

/// The object a read route names, found as its [`Reader`] allows.
pub(super) async fn find_for(state: &Storage, reader: Reader, params: &(String, String)) -> Result<ObjectRow> {
    let (bucket, name) = target(params)?;
    let caller = match reader {
        Reader::Token(requester) => Some(requester.caller()?),
        Reader::TokenOrAnonymous(requester) => requester.caller().ok(),
        Reader::Public => None,
    };
    let access = caller.as_ref().map_or(Access::Public, Access::Caller);
    find_object(state, access, bucket, name).await
}

/// A download or `HEAD` through a route whose readers are `reader`.
async fn read(state: &Storage, reader: Reader, req: ObjectRequest) -> Result<Response> {
    let q: ReadQuery = query_checked(req.uri.query(), &READ_QUERY)?;
    let obj = find_for(state, reader, &req.params).await?;
    respond(state, &obj, &req.method, &req.headers, Reply { download: q.download.as_deref(), expires: None }).await
}

/// `GET|HEAD /object/authenticated/{bucket}/{name}`.
pub async fn authenticated(State(state): State<Storage>, requester: Requester, req: ObjectRequest) -> Result<Response> {
    read(&state, Reader::Token(requester), req).await
}

/// `GET|HEAD /object/{bucket}/{name}`.
pub async fn any_caller(State(state): State<Storage>, requester: Requester, req: ObjectRequest) -> Result<Response> {
    read(&state, Reader::TokenOrAnonymous(requester), req).await
}

/// `GET|HEAD /object/public/{bucket}/{name}`.
pub async fn public(State(state): State<Storage>, req: ObjectRequest) -> Result<Response> {
    read(&state, Reader::Public, req).await
}

/// `GET /object/sign/{bucket}/{name}?token=`: a signed download URL.
pub async fn signed(State(state): State<Storage>, req: ObjectRequest) -> Result<Response> {
    let (bucket, name) = target(&req.params)?;
    let q: ReadQuery = query_checked(req.uri.query(), &SIGNED_QUERY)?;
    let token = q.token.as_deref().unwrap_or_default();
    let claims = signing::verify(&state, token, signing::Scope::Download, bucket, name)?;
    let obj = find_object(&state, Access::Signed, bucket, name).await?;
    let reply = Reply { download: q.download.as_deref(), expires: Some(claims.exp) };
    respond(&state, &obj, &req.method, &req.headers, reply).await
}
