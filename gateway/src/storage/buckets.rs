//! The bucket API: list, get, create, update, empty and delete buckets, each as the caller's role.

use super::db::{self, Caller};
use super::error::{Result, StorageError};
use super::extract::StoragePath;
use super::json::{parse_body, row_timestamp};
use super::names;
use super::settings::parse_size;
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, Method, Uri};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio_postgres::Row;

/// The limits an upload must respect.
#[derive(Debug, Clone)]
pub struct BucketInfo {
    pub public: bool,
    pub file_size_limit: Option<i64>,
    pub allowed_mime_types: Option<Vec<String>>,
}

const BUCKET_COLUMNS: &str = "id, name, owner::text, public, type::text, file_size_limit, allowed_mime_types, \
     created_at, updated_at, owner_id";

fn bucket_json(row: &Row) -> Value {
    json!({
        "id": row.get::<_, String>(0),
        "name": row.get::<_, String>(1),
        "owner": row.get::<_, Option<String>>(2).unwrap_or_default(),
        "public": row.get::<_, Option<bool>>(3).unwrap_or(false),
        "file_size_limit": row.get::<_, Option<i64>>(5),
        "allowed_mime_types": row.get::<_, Option<Vec<String>>>(6),
        "created_at": row_timestamp(row, 7),
        "updated_at": row_timestamp(row, 8),
    })
}

/// Looks a bucket up as Storage's superuser (upload limits and public flags are not subject to RLS).
pub async fn find(tx: &deadpool_postgres::Transaction<'_>, id: &str) -> Result<BucketInfo> {
    let row = tx
        .query_opt("select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1", &[&id])
        .await?
        .ok_or(StorageError::NoSuchBucket)?;
    Ok(BucketInfo {
        public: row.get::<_, Option<bool>>(1).unwrap_or(false),
        file_size_limit: row.get(2),
        allowed_mime_types: row.get(3),
    })
}

/// Switches `tx` to Storage's superuser and looks bucket `id` up, so a missing bucket is reported as such whatever
/// row-level security would hide. `method` is the `request.method` SQL sees meanwhile.
pub async fn find_as_service(
    tx: &deadpool_postgres::Transaction<'_>,
    state: &AppState,
    method: Method,
    id: &str,
) -> Result<BucketInfo> {
    db::switch(tx, &db::service(state, &HeaderMap::new(), &method, "")).await?;
    find(tx, id).await
}

/// [`find_as_service`] in a read-only transaction of its own: a bucket's limits, checked before contents are written.
pub async fn lookup(state: &AppState, method: Method, id: &str) -> Result<BucketInfo> {
    let mut client = db::client(state).await?;
    let tx = db::begin(&mut client, true).await?;
    let info = find_as_service(&tx, state, method, id).await?;
    tx.commit().await?;
    Ok(info)
}

#[derive(Debug, Deserialize)]
pub struct ListQuery {
    limit: Option<i64>,
    offset: Option<i64>,
    search: Option<String>,
    #[serde(rename = "sortColumn")]
    sort_column: Option<String>,
    #[serde(rename = "sortOrder")]
    sort_order: Option<String>,
}

pub async fn list(
    State(state): State<AppState>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    Query(q): Query<ListQuery>,
) -> Result<Json<Value>> {
    let caller = db::caller(&state, &headers, &method, uri.path())?;
    let column = match q.sort_column.as_deref().unwrap_or("name") {
        "id" => "id",
        "name" => "name",
        "created_at" => "created_at",
        "updated_at" => "updated_at",
        other => return Err(StorageError::InvalidRequest(format!("invalid sortColumn {other}"))),
    };
    let order = if q.sort_order.as_deref().is_some_and(|o| o.eq_ignore_ascii_case("desc")) { "desc" } else { "asc" };
    let search = format!("%{}%", like_escape(q.search.as_deref().unwrap_or("")));
    let limit = q.limit.unwrap_or(i64::MAX).max(0);
    let offset = q.offset.unwrap_or(0).max(0);
    let sql = format!(
        "select {BUCKET_COLUMNS} from storage.buckets where name ilike $1 escape '\\' \
         order by {column} {order} limit $2 offset $3"
    );
    let mut client = db::client(&state).await?;
    let tx = db::begin_as(&mut client, &caller, true).await?;
    let rows = tx.query(sql.as_str(), &[&search, &limit, &offset]).await?;
    tx.commit().await?;
    Ok(Json(Value::Array(rows.iter().map(bucket_json).collect())))
}

pub fn like_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

pub async fn get(
    State(state): State<AppState>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    StoragePath(id): StoragePath<String>,
) -> Result<Json<Value>> {
    let caller = db::caller(&state, &headers, &method, uri.path())?;
    let mut client = db::client(&state).await?;
    let tx = db::begin_as(&mut client, &caller, true).await?;
    let sql = format!("select {BUCKET_COLUMNS} from storage.buckets where id = $1");
    let row = tx.query_opt(sql.as_str(), &[&id]).await?.ok_or(StorageError::NoSuchBucket)?;
    tx.commit().await?;
    Ok(Json(bucket_json(&row)))
}

#[derive(Debug, Deserialize)]
struct BucketBody {
    id: Option<String>,
    name: Option<String>,
    public: Option<bool>,
    #[serde(default)]
    file_size_limit: Option<Value>,
    allowed_mime_types: Option<Vec<String>>,
    #[serde(rename = "type")]
    kind: Option<String>,
}

fn size_limit(v: &Option<Value>) -> Result<Option<i64>> {
    match v {
        None => Ok(None),
        Some(v) => match parse_size(v) {
            Some(n) => Ok(n.map(|n| n.min(i64::MAX as u64) as i64)),
            None => {
                Err(StorageError::InvalidRequest("Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B".into()))
            }
        },
    }
}

pub async fn create(
    State(state): State<AppState>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>> {
    let caller = db::caller(&state, &headers, &method, uri.path())?;
    let b: BucketBody = parse_body(&body)?;
    let name = b
        .name
        .clone()
        .or(b.id.clone())
        .ok_or(StorageError::InvalidRequest("body must have required property 'name'".into()))?;
    let id = b.id.clone().unwrap_or_else(|| name.clone());
    names::bucket_id(&id)?;
    names::bucket_id(&name)?;
    let limit = size_limit(&b.file_size_limit)?;
    let kind = b.kind.unwrap_or_else(|| "STANDARD".into()).to_ascii_uppercase();
    if kind != "STANDARD" {
        return Err(StorageError::InvalidRequest(format!("bucket type {kind} is not supported")));
    }
    let mut client = db::client(&state).await?;
    let tx = db::begin_as(&mut client, &caller, false).await?;
    // No RETURNING: the caller may be allowed to insert but not to read back.
    tx.execute(
        "insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types) \
         values ($1, $2, $3, $4, $5, $6, $7)",
        &[&id, &name, &caller.owner(), &caller.owner_id(), &b.public.unwrap_or(false), &limit, &b.allowed_mime_types],
    )
    .await?;
    tx.commit().await?;
    Ok(Json(json!({ "name": name })))
}

pub async fn update(
    State(state): State<AppState>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    StoragePath(id): StoragePath<String>,
    body: Bytes,
) -> Result<Json<Value>> {
    let caller = db::caller(&state, &headers, &method, uri.path())?;
    let b: BucketBody = parse_body(&body)?;
    let limit = size_limit(&b.file_size_limit)?;
    let mut client = db::client(&state).await?;
    let tx = db::begin_as(&mut client, &caller, false).await?;
    let n = tx
        .execute(
            "update storage.buckets set public = coalesce($2, public), \
             file_size_limit = case when $3 then $4 else file_size_limit end, \
             allowed_mime_types = case when $5 then $6 else allowed_mime_types end, updated_at = now() where id = $1",
            &[
                &id,
                &b.public,
                &b.file_size_limit.is_some(),
                &limit,
                &b.allowed_mime_types.is_some(),
                &b.allowed_mime_types,
            ],
        )
        .await?;
    if n == 0 {
        return Err(StorageError::NoSuchBucket);
    }
    tx.commit().await?;
    Ok(Json(json!({ "message": "Successfully updated" })))
}

/// Removes every object of a bucket the caller may delete; contents are removed after the commit.
pub async fn empty(
    State(state): State<AppState>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    StoragePath(id): StoragePath<String>,
) -> Result<Json<Value>> {
    let caller = db::caller(&state, &headers, &method, uri.path())?;
    let removed = delete_objects(&state, &caller, &id).await?;
    for (name, version) in removed {
        state.storage.backend.delete(&id, &name, version.as_deref()).await;
    }
    // Storage's own wording (it queues the work; here it is already done).
    Ok(Json(json!({ "message": "Empty bucket has been queued. Completion may take up to an hour." })))
}

async fn delete_objects(state: &AppState, caller: &Caller, id: &str) -> Result<Vec<(String, Option<String>)>> {
    let mut client = db::client(state).await?;
    let tx = db::begin(&mut client, false).await?;
    find_as_service(&tx, state, Method::POST, id).await?;
    db::switch(&tx, caller).await?;
    let rows = tx.query("delete from storage.objects where bucket_id = $1 returning name, version", &[&id]).await?;
    tx.commit().await?;
    Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
}

pub async fn delete(
    State(state): State<AppState>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    StoragePath(id): StoragePath<String>,
) -> Result<Json<Value>> {
    let caller = db::caller(&state, &headers, &method, uri.path())?;
    let mut client = db::client(&state).await?;
    let tx = db::begin_as(&mut client, &caller, false).await?;
    let n = tx.execute("delete from storage.buckets where id = $1", &[&id]).await.map_err(|e| {
        if e.code() == Some(&tokio_postgres::error::SqlState::FOREIGN_KEY_VIOLATION) {
            StorageError::BucketNotEmpty
        } else {
            StorageError::from_db(&e)
        }
    })?;
    if n == 0 {
        return Err(StorageError::NoSuchBucket);
    }
    tx.commit().await?;
    Ok(Json(json!({ "message": "Successfully deleted" })))
}
