//! Writing objects: upload (POST, or PUT as upsert), upload through a signed URL, delete one or many (move and
//! copy are in `transfer`). Contents are written first (temp file, fsync, rename to a new version), then the row is written as
//! the caller; if the row is refused the new file is removed, and a replaced version is removed only after the
//! commit — so a failed database write leaves no file and a failed file write leaves no row.

use super::caller::{self, Caller, Owner, Requester};
use super::db;
use super::error::{Result, StorageError};
use super::extract::{BucketJson, ObjectRequest, StoragePath};
use super::json::{row_timestamp, timestamp};
use super::schema::{Prop, Schema};
use super::upload::upsert_header;
use super::{buckets, names, signing, sniff, upload};
use crate::core::context;
use crate::storage::Storage;
use axum::body::Body;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, Method};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

const PREFIX: Schema = Schema::string();
/// Storage's `deleteObjectsBody`: `prefixes`, at least one.
const DELETE_BODY: Schema =
    Schema::object(&[Prop::new("prefixes", Schema::array(&PREFIX).items(Some(1), None))]).required(&["prefixes"]);

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
    let global = state.config.file_size_limit;
    let limit = info.file_size_limit.map(|l| (l.max(0) as u64).min(global)).unwrap_or(global);
    let backend = &state.backend;
    let staged = upload::stage(backend, headers, body, limit).await?;
    let rule = sniff::Rule::of(info.sniff_content || state.config.sniff_content);
    sniff::check(&staged.content_type, &staged.head, info.allowed_mime_types.as_deref(), rule)?;
    let metadata = object_metadata(&staged);
    let user_metadata = staged.user_metadata.clone();
    let version = uuid::Uuid::new_v4().simple().to_string();
    backend.commit(staged.tmp, bucket, name, &version).await.map_err(|e| StorageError::from_io("store object", e))?;
    let row = NewRow { bucket, name, upsert, version: &version, metadata: &metadata, user_metadata: &user_metadata };
    write_version(state, caller, &row).await
}

/// The row of a new version whose contents are stored.
pub(super) struct NewRow<'a> {
    pub bucket: &'a str,
    pub name: &'a str,
    /// Whether an existing object is replaced (else a conflict is an error).
    pub upsert: bool,
    pub version: &'a str,
    pub metadata: &'a Value,
    pub user_metadata: &'a Option<Value>,
}

/// Writes the row of a stored version as `caller`, then removes the version it replaced — or, when the row is
/// refused, the new version's contents. Returns the object's id.
pub(super) async fn write_version(state: &Storage, caller: &Caller, row: &NewRow<'_>) -> Result<uuid::Uuid> {
    let backend = &state.backend;
    match write_row(state, caller, row).await {
        Ok((id, old_version)) => {
            if let Some(old) = old_version.filter(|o| o != row.version) {
                backend.delete(row.bucket, row.name, Some(&old)).await;
            }
            Ok(id)
        }
        Err(e) => {
            backend.delete(row.bucket, row.name, Some(row.version)).await;
            Err(e)
        }
    }
}

/// Inserts (or upserts) the row as `caller`; returns its id and the version it replaced.
async fn write_row(state: &Storage, caller: &Caller, row: &NewRow<'_>) -> Result<(uuid::Uuid, Option<String>)> {
    let mut client = db::client(state).await?;
    let tx = db::begin_as(&mut client, caller, false).await?;
    let id = uuid::Uuid::new_v4();
    let (owner, owner_id) = (caller.owner(), caller.owner_id());
    let values: [&(dyn tokio_postgres::types::ToSql + Sync); 8] =
        [&id, &row.bucket, &row.name, &owner, &owner_id, row.metadata, &row.version, row.user_metadata];
    let result = if row.upsert {
        let old: Option<String> = tx
            .query_opt(
                "select version from storage.objects where bucket_id = $1 and name = $2",
                &[&row.bucket, &row.name],
            )
            .await?
            .and_then(|r| r.get(0));
        let upserted = tx
            .query_one(
                "insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, version, user_metadata) \
                 values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (bucket_id, name) do update set \
                 owner = excluded.owner, owner_id = excluded.owner_id, metadata = excluded.metadata, \
                 version = excluded.version, user_metadata = excluded.user_metadata, last_accessed_at = now() \
                 returning id",
                &values,
            )
            .await?;
        (upserted.get(0), old)
    } else {
        // No RETURNING: an insert-only policy (e.g. anonymous CV uploads) must not need read access.
        tx.execute(
            "insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, version, user_metadata) \
             values ($1, $2, $3, $4, $5, $6, $7, $8)",
            &values,
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
    ObjectRequest { method, headers, params, .. }: ObjectRequest,
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
    ObjectRequest { method, uri, headers, params }: ObjectRequest,
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
    let sql = format!("delete from storage.objects where bucket_id = $1 and name = any($2) returning {OBJECT_COLUMNS}");
    let rows = buckets::query_as_caller(state, caller, Method::DELETE, bucket, false, &sql, &[&bucket, &names]).await?;
    for r in &rows {
        state.backend.delete(bucket, r.get::<_, &str>(1), r.get::<_, Option<&str>>(5)).await;
    }
    Ok(rows.iter().map(object_json).collect())
}

/// `DELETE /object/{bucket}` `{prefixes: [...]}` → the deleted objects.
pub async fn remove_many(State(state): State<Storage>, req: BucketJson) -> Result<Json<Value>> {
    let (bucket, DeleteBody { prefixes }, caller) = req.open(&DELETE_BODY)?;
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
