//! Path extraction whose failures (e.g. percent-encoding that is not UTF-8) answer in Storage's error shape
//! instead of axum's plain-text rejection.

use super::error::StorageError;
use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
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
