//! `/object/info/…`: an object's details (size, type, cache control, ETag, user metadata, dates) found as the
//! download routes find it.

use super::caller::Requester;
use super::download::{find_for, Reader};
use super::error::Result;
use super::extract::StoragePath;
use super::find::ObjectRow;
use super::json::timestamp;
use crate::storage::Storage;
use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};

fn info_json(obj: &ObjectRow) -> Value {
    json!({
        "id": obj.id,
        "name": obj.name,
        "version": obj.version,
        "bucket_id": obj.bucket_id,
        "size": obj.meta("size"),
        "content_type": obj.meta("mimetype"),
        "cache_control": obj.meta("cacheControl"),
        "etag": obj.meta("eTag"),
        // Storage keeps `{}` for an upload without user metadata (storage-js's own test expects it).
        "metadata": obj.user_metadata.clone().unwrap_or_else(|| json!({})),
        "last_modified": obj.updated_at.map(timestamp),
        "created_at": obj.created_at.map(timestamp),
    })
}

/// `GET /object/info/{bucket}/{name}` (token optional).
pub async fn info_any(
    State(state): State<Storage>,
    requester: Requester,
    StoragePath(params): StoragePath<(String, String)>,
) -> Result<Json<Value>> {
    Ok(Json(info_json(&find_for(&state, Reader::TokenOrAnonymous(requester), &params).await?)))
}

/// `GET /object/info/authenticated/{bucket}/{name}` (token required).
pub async fn info(
    State(state): State<Storage>,
    requester: Requester,
    StoragePath(params): StoragePath<(String, String)>,
) -> Result<Json<Value>> {
    Ok(Json(info_json(&find_for(&state, Reader::Token(requester), &params).await?)))
}

/// `GET /object/info/public/{bucket}/{name}`.
pub async fn info_public(
    State(state): State<Storage>,
    StoragePath(params): StoragePath<(String, String)>,
) -> Result<Json<Value>> {
    Ok(Json(info_json(&find_for(&state, Reader::Public, &params).await?)))
}
