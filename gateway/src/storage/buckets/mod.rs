//! The bucket API: list and get here, and create, update, empty and delete (`write`), each as the caller's role.

mod body;
mod write;

pub use write::{create, delete, empty, update};

use super::caller::{self, Caller, Requester};
use super::db;
use super::error::{Result, StorageError};
use super::extract::StoragePath;
use super::json::{query_checked, row_timestamp};
use super::schema::{Prop, Schema};
use crate::core::context;
use crate::storage::Storage;
use axum::extract::State;
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
    /// Uploads are judged by their bytes too (`storage.buckets.sniff_content`).
    pub sniff_content: bool,
}

pub(super) const BUCKET_COLUMNS: &str =
    "id, name, owner::text, public, type::text, file_size_limit, allowed_mime_types, \
     created_at, updated_at, owner_id";

fn bucket_json(row: &Row) -> Value {
    let mut bucket = json!({
        "id": row.get::<_, String>(0),
        "name": row.get::<_, String>(1),
        "owner": row.get::<_, Option<String>>(2).unwrap_or_default(),
        "public": row.get::<_, Option<bool>>(3).unwrap_or(false),
        "file_size_limit": row.get::<_, Option<i64>>(5),
        "allowed_mime_types": row.get::<_, Option<Vec<String>>>(6),
        "created_at": row_timestamp(row, 7),
        "updated_at": row_timestamp(row, 8),
    });
    bucket["type"] = json!(row.get::<_, Option<String>>(4).unwrap_or_else(|| "STANDARD".into()));
    bucket
}

/// storage-py before 0.12.1 (supabase-py before 2.18.0) fails on a bucket's `type`: Storage leaves it out of the
/// bucket list for those clients, recognised by `X-Client-Info` and `User-Agent`.
fn omits_bucket_type(headers: &HeaderMap) -> bool {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("");
    version_before(header("x-client-info"), "supabase-py/", (2, 18, 0))
        || version_before(header("user-agent"), "supabase-py/storage3 v", (0, 12, 1))
}

/// Whether `agent` names `client` (case-insensitive) with a `major.minor.patch` below `min`.
fn version_before(agent: &str, client: &str, min: (u64, u64, u64)) -> bool {
    let lower = agent.to_ascii_lowercase();
    let Some(at) = lower.find(client) else { return false };
    let rest = &agent[at + client.len()..];
    let mut parts = rest.splitn(3, '.').map(|p| p.chars().take_while(char::is_ascii_digit).collect::<String>());
    let mut next = || parts.next().and_then(|p| p.parse::<u64>().ok());
    match (next(), next(), next()) {
        (Some(a), Some(b), Some(c)) => (a, b, c) < min,
        _ => false,
    }
}

/// Looks a bucket up as Storage's superuser (upload limits and public flags are not subject to RLS).
pub async fn find(tx: &deadpool_postgres::Transaction<'_>, id: &str) -> Result<BucketInfo> {
    let row = tx
        .query_opt(
            "select id, public, file_size_limit, allowed_mime_types, sniff_content from storage.buckets where id = $1",
            &[&id],
        )
        .await?
        .ok_or(StorageError::NoSuchBucket)?;
    Ok(BucketInfo {
        public: row.get::<_, Option<bool>>(1).unwrap_or(false),
        file_size_limit: row.get(2),
        allowed_mime_types: row.get(3),
        sniff_content: row.get(4),
    })
}

/// Switches `tx` to Storage's superuser and looks bucket `id` up, so a missing bucket is reported as such whatever
/// row-level security would hide. `method` is the `request.method` SQL sees meanwhile.
pub async fn find_as_service(
    tx: &deadpool_postgres::Transaction<'_>,
    state: &Storage,
    method: Method,
    id: &str,
) -> Result<BucketInfo> {
    let request = context::Request { method: method.as_str(), path: "", headers: &HeaderMap::new() };
    db::switch(tx, &caller::service(&state.core, &request)).await?;
    find(tx, id).await
}

/// Runs `sql` as `caller` in a transaction of its own, once bucket `bucket` is found as Storage's superuser (a
/// missing bucket is reported as such whatever row-level security would hide); returns its rows.
pub async fn query_as_caller(
    state: &Storage,
    caller: &Caller,
    method: Method,
    bucket: &str,
    read_only: bool,
    sql: &str,
    params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
) -> Result<Vec<Row>> {
    let mut client = db::client(state).await?;
    let tx = db::begin(&mut client, read_only).await?;
    find_as_service(&tx, state, method, bucket).await?;
    db::switch(&tx, caller).await?;
    let rows = tx.query(sql, params).await?;
    tx.commit().await?;
    Ok(rows)
}

/// [`find_as_service`] in a read-only transaction of its own: a bucket's limits, checked before contents are written.
pub async fn lookup(state: &Storage, method: Method, id: &str) -> Result<BucketInfo> {
    let mut client = db::client(state).await?;
    let tx = db::begin(&mut client, true).await?;
    let info = find_as_service(&tx, state, method, id).await?;
    tx.commit().await?;
    Ok(info)
}

const LIST_QUERY: Schema = Schema::object(&[
    Prop::new("limit", Schema::integer().min(1.0)),
    Prop::new("offset", Schema::integer().min(0.0)),
    Prop::new("sortColumn", Schema::string().values(&["id", "name", "created_at", "updated_at"])),
    Prop::new("sortOrder", Schema::string().values(&["asc", "desc"])),
    Prop::new("search", Schema::string()),
]);

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
    State(state): State<Storage>,
    requester: Requester,
    uri: Uri,
    headers: HeaderMap,
) -> Result<Json<Value>> {
    let q: ListQuery = query_checked(uri.query(), &LIST_QUERY)?;
    let caller = requester.caller()?;
    let column = match q.sort_column.as_deref().unwrap_or("name") {
        "id" => "id",
        "created_at" => "created_at",
        "updated_at" => "updated_at",
        _ => "name",
    };
    let order = if q.sort_order.as_deref() == Some("desc") { "desc" } else { "asc" };
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
    let omit_type = omits_bucket_type(&headers);
    let list = rows.iter().map(bucket_json).map(|mut b| {
        if omit_type {
            b.as_object_mut().map(|o| o.remove("type"));
        }
        b
    });
    Ok(Json(Value::Array(list.collect())))
}

pub fn like_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

pub async fn get(
    State(state): State<Storage>,
    requester: Requester,
    StoragePath(id): StoragePath<String>,
) -> Result<Json<Value>> {
    let caller = requester.caller()?;
    let mut client = db::client(&state).await?;
    let tx = db::begin_as(&mut client, &caller, true).await?;
    let sql = format!("select {BUCKET_COLUMNS} from storage.buckets where id = $1");
    let row = tx.query_opt(sql.as_str(), &[&id]).await?.ok_or(StorageError::NoSuchBucket)?;
    tx.commit().await?;
    let mut bucket = bucket_json(&row);
    // Storage's bucket lookup selects no `type` (only the list has it).
    bucket.as_object_mut().map(|o| o.remove("type"));
    Ok(Json(bucket))
}
