//! Moving and copying objects (`/object/move`, `/object/copy`): checked like Storage's bodies, within a bucket or
//! to another; a move renames the row as the caller and the contents after it, a copy writes a new version.

use super::caller::{Owner, Requester};
use super::db;
use super::error::{Result, StorageError};
use super::find::{find_object, Access};
use super::json::parse_checked;
use super::objects::{write_version, NewRow};
use super::schema::{Prop, Schema};
use super::upload::upsert_header;
use super::{buckets, names, upload};
use crate::storage::Storage;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

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
    let source = find_object(&state, Access::Caller(&caller), src_bucket, src).await?;
    buckets::lookup(&state, Method::POST, dst_bucket).await?;
    let version = uuid::Uuid::new_v4().simple().to_string();
    let from = (src_bucket.as_str(), src.as_str(), source.version.as_deref());
    state.backend.copy(from, (dst_bucket, dst, &version)).await.map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            StorageError::NoSuchKey
        } else {
            StorageError::from_io("copy object", e)
        }
    })?;
    let metadata = copied_metadata(source.metadata.as_ref(), &t);
    // Without `copyMetadata` the copy's user metadata is the request's `x-metadata` (base64 JSON), as in Storage.
    let user_metadata = if t.copy_metadata { source.user_metadata.clone() } else { upload::metadata_header(&headers) };
    let row = NewRow {
        bucket: dst_bucket,
        name: dst,
        upsert,
        version: &version,
        metadata: &metadata,
        user_metadata: &user_metadata,
    };
    let id = write_version(&state, &caller, &row).await?;
    Ok(Json(json!({
        "Id": id, "Key": format!("{dst_bucket}/{dst}"), "id": id, "name": dst, "bucket_id": dst_bucket,
        "version": version, "owner": caller.owner_id(), "metadata": metadata,
    })))
}
