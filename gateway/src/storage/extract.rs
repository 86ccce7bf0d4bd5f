//! Request extraction in Storage's error shape: the path (e.g. percent-encoding that is not UTF-8 answers as
//! Storage does, not with axum's plain-text rejection), a bucket route's caller, bucket and JSON body together,
//! and what an object route reads of its request.

use super::caller::{Caller, Requester};
use super::error::StorageError;
use super::json::parse_checked;
use super::names;
use super::schema::Schema;
use crate::core::Core;
use axum::body::Bytes;
use axum::extract::{FromRef, FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, Uri};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

/// `Path<T>` with a Storage-shaped rejection.
pub struct StoragePath<T>(pub T);

impl<T, S> FromRequestParts<S> for StoragePath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = StorageError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(value)) => Ok(StoragePath(value)),
            Err(e) => Err(StorageError::InvalidKey(e.body_text())),
        }
    }
}

/// A request on one bucket with a JSON body (`POST /object/list/{bucket}`, `DELETE /object/{bucket}`, …): the
/// caller, the `{bucket}` path and the body, extracted in that order.
pub struct BucketJson {
    requester: Requester,
    bucket: String,
    body: Bytes,
}

impl<S> FromRequest<S> for BucketJson
where
    Core: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = Response;

    async fn from_request(req: Request, state: &S) -> Result<Self, Response> {
        let (mut parts, body) = req.into_parts();
        let Ok(requester) = Requester::from_request_parts(&mut parts, state).await;
        let StoragePath(bucket) =
            StoragePath::<String>::from_request_parts(&mut parts, state).await.map_err(IntoResponse::into_response)?;
        let body =
            Bytes::from_request(Request::from_parts(parts, body), state).await.map_err(IntoResponse::into_response)?;
        Ok(BucketJson { requester, bucket, body })
    }
}

impl BucketJson {
    /// The bucket's id, the body as `T` (checked against `schema`) and the verified caller, checked in that order.
    pub fn open<T: DeserializeOwned>(self, schema: &Schema) -> Result<(String, T, Caller), StorageError> {
        let bucket = names::bucket_id(&self.bucket)?.to_string();
        let body = parse_checked(&self.body, schema)?;
        Ok((bucket, body, self.requester.caller()?))
    }
}

/// What the object routes read from their request: the method, the URI (its query), the headers and the
/// `{bucket}/{name}` path (the path's rejection first: the others cannot fail).
pub struct ObjectRequest {
    pub method: Method,
    pub uri: Uri,
    pub headers: HeaderMap,
    pub params: (String, String),
}

impl<S: Send + Sync> FromRequestParts<S> for ObjectRequest {
    type Rejection = StorageError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, StorageError> {
        let StoragePath(params) = StoragePath::from_request_parts(parts, state).await?;
        let (method, uri, headers) = (parts.method.clone(), parts.uri.clone(), parts.headers.clone());
        Ok(ObjectRequest { method, uri, headers, params })
    }
}
