//! Creating, updating, emptying and deleting buckets as the caller (row-level security on `storage.buckets`
//! decides); emptying and deleting remove the contents of the objects whose rows went.

use super::body::{BucketBody, CREATE_BODY, UPDATE_BODY};
use super::find_as_service;
use crate::storage::caller::{Caller, Owner, Requester};
use crate::storage::db;
use crate::storage::error::{Result, StorageError};
use crate::storage::extract::StoragePath;
use crate::storage::names;
use crate::storage::Storage;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::Method;
use axum::Json;
use serde_json::{json, Value};
use tokio_postgres::types::ToSql;

pub async fn create(State(state): State<Storage>, requester: Requester, body: Bytes) -> Result<Json<Value>> {
    let b = BucketBody::parse(&body, &CREATE_BODY, state.config.file_size_limit)?;
    let caller = requester.caller()?;
    let name = b.name.clone().unwrap_or_default();
    let id = b.id.clone().filter(|i| !i.is_empty()).unwrap_or_else(|| name.clone());
    names::bucket_id(&id)?;
    names::bucket_id(&name)?;
    if b.kind.as_deref() == Some("ANALYTICS") {
        return Err(StorageError::FeatureNotEnabled("Iceberg buckets are not enabled for this tenant".into()));
    }
    let limit = b.file_size_limit.flatten();
    let mime_types = b.allowed_mime_types.clone().flatten();
    let mut client = db::client(&state).await?;
    let tx = db::begin_as(&mut client, &caller, false).await?;
    // No RETURNING: the caller may be allowed to insert but not to read back.
    tx.execute(
        "insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types) \
         values ($1, $2, $3, $4, $5, $6, $7)",
        &[&id, &name, &caller.owner(), &caller.owner_id(), &b.public.unwrap_or(false), &limit, &mime_types],
    )
    .await?;
    tx.commit().await?;
    Ok(Json(json!({ "name": name })))
}

pub async fn update(
    State(state): State<Storage>,
    requester: Requester,
    StoragePath(id): StoragePath<String>,
    body: Bytes,
) -> Result<Json<Value>> {
    let b = BucketBody::parse(&body, &UPDATE_BODY, state.config.file_size_limit)?;
    let caller = requester.caller()?;
    let (set_limit, limit) = (b.file_size_limit.is_some(), b.file_size_limit.flatten());
    let (set_types, types) = (b.allowed_mime_types.is_some(), b.allowed_mime_types.flatten());
    let sql = "update storage.buckets set public = coalesce($2, public), \
               file_size_limit = case when $3 then $4 else file_size_limit end, \
               allowed_mime_types = case when $5 then $6 else allowed_mime_types end, updated_at = now() where id = $1";
    let params: [&(dyn ToSql + Sync); 6] = [&id, &b.public, &set_limit, &limit, &set_types, &types];
    change_as(&state, &caller, sql, &params, StorageError::from).await?;
    Ok(Json(json!({ "message": "Successfully updated" })))
}

/// Removes every object of a bucket the caller may delete; contents are removed after the commit.
pub async fn empty(
    State(state): State<Storage>,
    requester: Requester,
    StoragePath(id): StoragePath<String>,
) -> Result<Json<Value>> {
    let caller = requester.caller()?;
    let removed = delete_objects(&state, &caller, &id).await?;
    for (name, version) in removed {
        state.backend.delete(&id, &name, version.as_deref()).await;
    }
    // Storage's own wording (it queues the work; here it is already done).
    Ok(Json(json!({ "message": "Empty bucket has been queued. Completion may take up to an hour." })))
}

async fn delete_objects(state: &Storage, caller: &Caller, id: &str) -> Result<Vec<(String, Option<String>)>> {
    let mut client = db::client(state).await?;
    let tx = db::begin(&mut client, false).await?;
    find_as_service(&tx, state, Method::POST, id).await?;
    db::switch(&tx, caller).await?;
    let rows = tx.query("delete from storage.objects where bucket_id = $1 returning name, version", &[&id]).await?;
    tx.commit().await?;
    Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
}

pub async fn delete(
    State(state): State<Storage>,
    requester: Requester,
    StoragePath(id): StoragePath<String>,
) -> Result<Json<Value>> {
    let caller = requester.caller()?;
    change_as(&state, &caller, "delete from storage.buckets where id = $1", &[&id], |e| {
        if e.code() == Some(&tokio_postgres::error::SqlState::FOREIGN_KEY_VIOLATION) {
            StorageError::BucketNotEmpty
        } else {
            StorageError::from_db(&e)
        }
    })
    .await?;
    Ok(Json(json!({ "message": "Successfully deleted" })))
}

/// Runs one statement on a bucket as the caller, its failure worded by `refused`; a statement that touches no row
/// means there is no such bucket (or none the caller may change).
async fn change_as(
    state: &Storage,
    caller: &Caller,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
    refused: fn(tokio_postgres::Error) -> StorageError,
) -> Result<()> {
    let mut client = db::client(state).await?;
    let tx = db::begin_as(&mut client, caller, false).await?;
    let n = tx.execute(sql, params).await.map_err(refused)?;
    if n == 0 {
        return Err(StorageError::NoSuchBucket);
    }
    tx.commit().await?;
    Ok(())
}
