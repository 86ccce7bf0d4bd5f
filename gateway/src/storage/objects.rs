//! Writing objects: upload (POST, or PUT as upsert), upload through a signed URL, delete one or many, move and
//! copy. Contents are written first (temp file, fsync, rename to a new version), then the row is written as
//! the caller; if the row is refused the new file is removed, and a replaced version is removed only after the
//! commit — so a failed database write leaves no file and a failed file write leaves no row.

use super::caller::{self, Caller, Owner, Requester};
use super::db;
use super::error::{Result, StorageError};
use super::extract::StoragePath;
use super::json::{parse_checked, row_timestamp, timestamp};
use super::schema::{Prop, Schema};
use super::{buckets, names, signing, sniff, upload};
use crate::core::context;
use crate::storage::Storage;
use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use axum::http::{HeaderMap, Method, Uri};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

/// `x-upsert: true`, compared exactly as Storage does (`"True"` or `"1"` is not an upsert).
pub fn upsert_header(headers: &HeaderMap) -> bool {
    headers.get("x-upsert").and_then(|v| v.to_str().ok()) == Some("true")
}

const PREFIX: Schema = Schema::string();
/// Storage's `deleteObjectsBody`: `prefixes`, at least one.
const DELETE_BODY: Schema =
    Schema::object(&[Prop::new("prefixes", Schema::array(&PREFIX).items(Some(1), None))]).required(&["prefixes"]);
const FILE_METADATA: Schema =
    Schema::object(&[Prop::new("cacheControl", Schema::string()), Prop::new("mimetype", Schema::string())]);
/// Storage's move and copy bodies (copy adds `metadata` and `copyMetadata`).
const TRANSFER_BODY: Schema = Schema::object(&[
    Prop::new("bucketId", Schema::string()),
    Prop::new("sourceKey", Schema::string()),
    Prop::new("destinationBucket", Schema::string()),
    Prop::new("destinationKey", Schema::string()),
    Prop::new("metadata", FILE_METADATA),
    Prop::new("copyMetadata", Schema::boolean()),
])
.required(&["bucketId", "sourceKey", "destinationKey"]);

fn object_metadata(staged: &upload::Staged) -> Value {
    json!({
        "eTag": staged.etag,
        "size": staged.size,
        "mimetype": staged.content_type,
        "cacheControl": staged.cache_control,
        "lastModified": timestamp(chrono::Utc::now()),
        "contentLength": staged.size,
        "httpStatusCode": 200,
    })
}

/// Stores an upload as `caller`; returns the object's id.
async fn store(
    state: &Storage,
    caller: &Caller,
    bucket: &str,
    name: &str,
    upsert: bool,
    headers: &HeaderMap,
    body: Body,
) -> Result<uuid::Uuid> {
    let info = buckets::lookup(state, Method::GET, bucket).await?;
    let global = state.settings.file_size_limit;
    let limit = info.file_size_limit.map(|l| (l.max(0) as u64).min(global)).unwrap_or(global);
    let backend = &state.backend;
    let staged = upload::stage(backend, headers, body, limit).await?;
    sniff::check(&staged.content_type, &staged.head, info.allowed_mime_types.as_deref())?;
    let metadata = object_metadata(&staged);
    let user_metadata = staged.user_metadata.clone();
    let version = uuid::Uuid::new_v4().simple().to_string();
    backend.commit(staged.tmp, bucket, name, &version).await.map_err(|e| StorageError::from_io("store object", e))?;
    match write_row(state, caller, bucket, name, upsert, &version, &metadata, &user_metadata).await {
        Ok((id, old_version)) => {
            if let Some(old) = old_version.filter(|o| o != &version) {
                backend.delete(bucket, name, Some(&old)).await;
            }
            Ok(id)
        }
        Err(e) => {
            backend.delete(bucket, name, Some(&version)).await;
            Err(e)
        }
    }
}

#[allow(clippy::too_many_arguments)]
async fn write_row(
    state: &Storage,
    caller: &Caller,
    bucket: &str,
    name: &str,
    upsert: bool,
    version: &str,
    metadata: &Value,
    user_metadata: &Option<Value>,
) -> Result<(uuid::Uuid, Option<String>)> {
    let mut client = db::client(state).await?;
    let tx = db::begin_as(&mut client, caller, false).await?;
    let id = uuid::Uuid::new_v4();
    let (owner, owner_id) = (caller.owner(), caller.owner_id());
    let result = if upsert {
        let old: Option<String> = tx
            .query_opt("select version from storage.objects where bucket_id = $1 and name = $2", &[&bucket, &name])
            .await?
            .and_then(|r| r.get(0));
        let row = tx
            .query_one(
                "insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, version, user_metadata) \
                 values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (bucket_id, name) do update set \
                 owner = excluded.owner, owner_id = excluded.owner_id, metadata = excluded.metadata, \
                 version = excluded.version, user_metadata = excluded.user_metadata, last_accessed_at = now() \
                 returning id",
                &[&id, &bucket, &name, &owner, &owner_id, metadata, &version, user_metadata],
            )
            .await?;
        (row.get(0), old)
    } else {
        // No RETURNING: an insert-only policy (e.g. anonymous CV uploads) must not need read access.
        tx.execute(
            "insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, version, user_metadata) \
             values ($1, $2, $3, $4, $5, $6, $7, $8)",
            &[&id, &bucket, &name, &owner, &owner_id, metadata, &version, user_metadata],
        )
        .await?;
        (id, None)
    };
    tx.commit().await?;
    Ok(result)
}

fn target(params: &(String, String)) -> Result<(String, String)> {
    Ok((names::bucket_id(&params.0)?.to_string(), names::object_name(&params.1)?.to_string()))
}

/// `POST /object/{bucket}/{name}` (`x-upsert`) and `PUT` (always replaces).
pub async fn upload(
    State(state): State<Storage>,
    requester: Requester,
    method: Method,
    headers: HeaderMap,
    StoragePath(params): StoragePath<(String, String)>,
    body: Body,
) -> Result<Json<Value>> {
    let (bucket, name) = target(&params)?;
    let caller = requester.caller()?;
    let upsert = method == Method::PUT || upsert_header(&headers);
    let id = store(&state, &caller, &bucket, &name, upsert, &headers, body).await?;
    Ok(Json(json!({ "Id": id, "Key": format!("{bucket}/{name}") })))
}

#[derive(Debug, Deserialize)]
pub struct TokenQuery {
    token: Option<String>,
}

/// `PUT /object/upload/sign/{bucket}/{name}?token=`: an upload through a signed upload URL.
pub async fn upload_signed(
    State(state): State<Storage>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    StoragePath(params): StoragePath<(String, String)>,
    Query(q): Query<TokenQuery>,
    body: Body,
) -> Result<Json<Value>> {
    let (bucket, name) = target(&params)?;
    let token = q.token.as_deref().ok_or(StorageError::InvalidRequest("Missing token".into()))?;
    let claims = signing::verify(&state, token, signing::Scope::Upload, &bucket, &name)?;
    let (role, owner) = (claims.owner_role.as_deref(), claims.owner.as_deref());
    let request = context::Request { method: method.as_str(), path: uri.path(), headers: &headers };
    let caller = caller::minted_by(&state.core, &request, role, owner);
    let id = store(&state, &caller, &bucket, &name, claims.upsert.unwrap_or(false), &headers, body).await?;
    Ok(Json(json!({ "Id": id, "Key": format!("{bucket}/{name}") })))
}

const OBJECT_COLUMNS: &str = "id, name, bucket_id, owner::text, owner_id, version, created_at, updated_at, \
     last_accessed_at, metadata, user_metadata";

fn object_json(r: &tokio_postgres::Row) -> Value {
    let ts = |i: usize| row_timestamp(r, i);
    json!({
        "id": r.get::<_, uuid::Uuid>(0), "name": r.get::<_, String>(1), "bucket_id": r.get::<_, String>(2),
        "owner": r.get::<_, Option<String>>(3), "owner_id": r.get::<_, Option<String>>(4),
        "version": r.get::<_, Option<String>>(5), "created_at": ts(6), "updated_at": ts(7), "last_accessed_at": ts(8),
        "metadata": r.get::<_, Option<Value>>(9), "user_metadata": r.get::<_, Option<Value>>(10),
    })
}

/// Deletes rows as the caller and then their contents; returns the deleted rows.
async fn remove_names(state: &Storage, caller: &Caller, bucket: &str, names: &[String]) -> Result<Vec<Value>> {
    let mut client = db::client(state).await?;
    let tx = db::begin(&mut client, false).await?;
    buckets::find_as_service(&tx, state, Method::DELETE, bucket).await?;
    db::switch(&tx, caller).await?;
    let sql = format!("delete from storage.objects where bucket_id = $1 and name = any($2) returning {OBJECT_COLUMNS}");
    let rows = tx.query(sql.as_str(), &[&bucket, &names]).await?;
    tx.commit().await?;
    for r in &rows {
        state.backend.delete(bucket, r.get::<_, &str>(1), r.get::<_, Option<&str>>(5)).await;
    }
    Ok(rows.iter().map(object_json).collect())
}

/// `DELETE /object/{bucket}` `{prefixes: [...]}` → the deleted objects.
pub async fn remove_many(
    State(state): State<Storage>,
    requester: Requester,
    StoragePath(bucket): StoragePath<String>,
    body: Bytes,
) -> Result<Json<Value>> {
    let bucket = names::bucket_id(&bucket)?.to_string();
    let DeleteBody { prefixes } = parse_checked(&body, &DELETE_BODY)?;
    let caller = requester.caller()?;
    if prefixes.len() > 1000 {
        return Err(StorageError::InvalidRequest(
            "Bulk object requests are limited to 1000 objects per request.".into(),
        ));
    }
    Ok(Json(Value::Array(remove_names(&state, &caller, &bucket, &prefixes).await?)))
}

/// `DELETE /object/{bucket}/{name}`.
pub async fn remove_one(
    State(state): State<Storage>,
    requester: Requester,
    StoragePath(params): StoragePath<(String, String)>,
) -> Result<Json<Value>> {
    let (bucket, name) = target(&params)?;
    let caller = requester.caller()?;
    if remove_names(&state, &caller, &bucket, &[name]).await?.is_empty() {
        return Err(StorageError::NoSuchKey);
    }
    Ok(Json(json!({ "message": "Successfully deleted" })))
}

#[derive(Debug, Deserialize)]
struct DeleteBody {
    prefixes: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct FileMetadata {
    cache_control: Option<String>,
    mimetype: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct TransferBody {
    bucket_id: String,
    source_key: String,
    destination_key: String,
    destination_bucket: Option<String>,
    #[serde(default)]
    metadata: Option<FileMetadata>,
    #[serde(default)]
    copy_metadata: Option<bool>,
}

/// A checked move or copy: `destinationBucket` absent or empty means the source bucket, as Storage reads it.
struct Transfer {
    src_bucket: String,
    src: String,
    dst_bucket: String,
    dst: String,
    copy_metadata: bool,
    metadata: FileMetadata,
}

fn transfer(body: &Bytes) -> Result<Transfer> {
    let b: TransferBody = parse_checked(body, &TRANSFER_BODY)?;
    let dst_bucket = b.destination_bucket.filter(|d| !d.is_empty()).unwrap_or_else(|| b.bucket_id.clone());
    names::bucket_id(&b.bucket_id)?;
    names::bucket_id(&dst_bucket)?;
    names::object_name(&b.source_key)?;
    names::object_name(&b.destination_key)?;
    Ok(Transfer {
        src_bucket: b.bucket_id,
        src: b.source_key,
        dst_bucket,
        dst: b.destination_key,
        copy_metadata: b.copy_metadata.unwrap_or(true),
        metadata: b.metadata.unwrap_or_default(),
    })
}

/// The copy's file metadata: the source's, with `cacheControl`/`mimetype` from the body when `copyMetadata` is false.
fn copied_metadata(source: Option<&Value>, t: &Transfer) -> Value {
    let mut metadata = source.cloned().unwrap_or_else(|| json!({}));
    if !t.copy_metadata {
        if let Some(cc) = &t.metadata.cache_control {
            metadata["cacheControl"] = json!(cc);
        }
        if let Some(mime) = &t.metadata.mimetype {
            metadata["mimetype"] = json!(mime);
        }
    }
    metadata
}

/// `POST /object/move` `{bucketId, sourceKey, destinationKey, destinationBucket?}`.
pub async fn move_object(State(state): State<Storage>, requester: Requester, body: Bytes) -> Result<Json<Value>> {
    let t = transfer(&body)?;
    let caller = requester.caller()?;
    let (src_bucket, src, dst_bucket, dst) = (t.src_bucket, t.src, t.dst_bucket, t.dst);
    let mut client = db::client(&state).await?;
    let tx = db::begin(&mut client, false).await?;
    buckets::find_as_service(&tx, &state, Method::POST, &src_bucket).await?;
    buckets::find(&tx, &dst_bucket).await?;
    db::switch(&tx, &caller).await?;
    let row = tx
        .query_opt(
            "update storage.objects set bucket_id = $3, name = $4 where bucket_id = $1 and name = $2 returning version",
            &[&src_bucket, &src, &dst_bucket, &dst],
        )
        .await?
        .ok_or(StorageError::NoSuchKey)?;
    let version: Option<String> = row.get(0);
    let backend = &state.backend;
    let from = (src_bucket.as_str(), src.as_str(), version.as_deref());
    let to = (dst_bucket.as_str(), dst.as_str(), version.as_deref());
    let moved = backend.rename(from, to).await;
    if let Err(e) = &moved {
        if e.kind() != std::io::ErrorKind::NotFound {
            return Err(StorageError::internal("move object", e));
        }
    }
    if let Err(e) = tx.commit().await {
        if moved.is_ok() {
            let _ = backend.rename(to, from).await;
        }
        return Err(e.into());
    }
    Ok(Json(json!({ "message": "Successfully moved" })))
}

/// `POST /object/copy` `{bucketId, sourceKey, destinationKey, destinationBucket?, copyMetadata?}` → `{Id, Key}`.
pub async fn copy_object(
    State(state): State<Storage>,
    requester: Requester,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>> {
    let t = transfer(&body)?;
    let caller = requester.caller()?;
    let (src_bucket, src, dst_bucket, dst) = (&t.src_bucket, &t.src, &t.dst_bucket, &t.dst);
    let upsert = upsert_header(&headers);
    let source =
        super::download::find_object(&state, super::download::Access::Caller(&caller), src_bucket, src).await?;
    buckets::lookup(&state, Method::POST, dst_bucket).await?;
    let version = uuid::Uuid::new_v4().simple().to_string();
    let backend = &state.backend;
    backend.copy((src_bucket, src, source.version.as_deref()), (dst_bucket, dst, &version)).await.map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            StorageError::NoSuchKey
        } else {
            StorageError::from_io("copy object", e)
        }
    })?;
    let metadata = copied_metadata(source.metadata.as_ref(), &t);
    // Without `copyMetadata` the copy's user metadata is the request's `x-metadata` (base64 JSON), as in Storage.
    let user_metadata = if t.copy_metadata { source.user_metadata.clone() } else { upload::metadata_header(&headers) };
    match write_row(&state, &caller, dst_bucket, dst, upsert, &version, &metadata, &user_metadata).await {
        Ok((id, old)) => {
            if let Some(old) = old.filter(|o| o != &version) {
                backend.delete(dst_bucket, dst, Some(&old)).await;
            }
            Ok(Json(json!({
                "Id": id, "Key": format!("{dst_bucket}/{dst}"), "id": id, "name": dst, "bucket_id": dst_bucket,
                "version": version, "owner": caller.owner_id(), "metadata": metadata,
            })))
        }
        Err(e) => {
            backend.delete(dst_bucket, dst, Some(&version)).await;
            Err(e)
        }
    }
}
