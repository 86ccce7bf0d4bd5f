//! The bucket API: list, get, create, update, empty and delete buckets, each as the caller's role.

use super::caller::{self, Caller, Owner, Requester};
use super::db;
use super::error::{Result, StorageError};
use super::extract::StoragePath;
use super::json::{parse_body, query_checked, row_timestamp};
use super::names;
use super::schema::{Prop, Schema};
use super::settings::parse_size;
use crate::core::context;
use crate::storage::Storage;
use axum::body::Bytes;
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
}

const BUCKET_COLUMNS: &str = "id, name, owner::text, public, type::text, file_size_limit, allowed_mime_types, \
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
    state: &Storage,
    method: Method,
    id: &str,
) -> Result<BucketInfo> {
    let request = context::Request { method: method.as_str(), path: "", headers: &HeaderMap::new() };
    db::switch(tx, &caller::service(&state.core, &request)).await?;
    find(tx, id).await
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

const MIME: Schema = Schema::string();
const BUCKET_PROPS: [Prop; 6] = [
    Prop::new("name", Schema::string()),
    Prop::new("id", Schema::string()),
    Prop::new("public", Schema::boolean()),
    Prop::new("type", Schema::string().values(&["STANDARD", "ANALYTICS"])),
    Prop::new("file_size_limit", Schema::size_limit()),
    Prop::new("allowed_mime_types", Schema::array(&MIME).nullable()),
];
/// Storage's `createBucketBody`: `name` required.
const CREATE_BODY: Schema = Schema::object(&BUCKET_PROPS).required(&["name"]);
/// Storage's `updateBucketBody`: at least one of `public`, `file_size_limit`, `allowed_mime_types`.
const UPDATE_BODY: Schema =
    Schema::object(&BUCKET_PROPS).any_of_required(&["public", "file_size_limit", "allowed_mime_types"]);

/// A bucket's settings as sent; `Some(None)` is an explicit `null` (which clears a limit or a type list).
#[derive(Debug, Default)]
struct BucketBody {
    id: Option<String>,
    name: Option<String>,
    public: Option<bool>,
    kind: Option<String>,
    file_size_limit: Option<Option<i64>>,
    allowed_mime_types: Option<Option<Vec<String>>>,
}

impl BucketBody {
    fn parse(body: &Bytes, schema: &Schema, global_limit: u64) -> Result<Self> {
        let mut v: Value = parse_body(body)?;
        if v.as_object().is_some_and(|o| o.is_empty()) && schema.required.is_empty() {
            return Err(StorageError::Validation("body must NOT have fewer than 1 properties".into()));
        }
        super::schema::check(&mut v, schema, "body")?;
        let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let mime_types = match v.get("allowed_mime_types") {
            None => None,
            Some(Value::Null) => Some(None),
            Some(list) => Some(Some(allowed_mime_types(list)?)),
        };
        Ok(BucketBody {
            id: text("id"),
            name: text("name"),
            public: v.get("public").and_then(Value::as_bool),
            kind: text("type"),
            file_size_limit: v.get("file_size_limit").map(|l| size_limit(l, global_limit)).transpose()?,
            allowed_mime_types: mime_types,
        })
    }
}

/// The listed types without empty entries, each a `type/subtype` (optionally `; charset=…`) or ending in `*`.
fn allowed_mime_types(list: &Value) -> Result<Vec<String>> {
    let types: Vec<String> = list
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|t| !t.is_empty())
        .map(String::from)
        .collect();
    match types.iter().find(|t| !valid_mime_pattern(t)) {
        Some(bad) => Err(StorageError::InvalidMimeType(bad.clone())),
        None => Ok(types),
    }
}

fn valid_mime_pattern(t: &str) -> bool {
    let token = |p: &str| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || "-+.".contains(c));
    let plain = |m: &str| m.split_once('/').is_some_and(|(a, b)| token(a) && token(b));
    let with_charset = t.split_once(';').is_some_and(|(m, rest)| {
        let cs = rest.trim_start().strip_prefix("charset=");
        plain(m) && cs.is_some_and(|c| !c.is_empty() && c.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-'))
    });
    t.len() <= 1000 && (plain(t) || with_charset || t.ends_with('*'))
}

/// A bucket limit in bytes: a number or a size such as `20MB`; above the global limit is Storage's 413.
fn size_limit(v: &Value, global_limit: u64) -> Result<Option<i64>> {
    let bytes = parse_size(v).ok_or_else(|| {
        StorageError::InvalidRequest("Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B".into())
    })?;
    match bytes {
        Some(n) if n > global_limit => Err(StorageError::EntityTooLarge),
        other => Ok(other.map(|n| n.min(i64::MAX as u64) as i64)),
    }
}

pub async fn create(State(state): State<Storage>, requester: Requester, body: Bytes) -> Result<Json<Value>> {
    let b = BucketBody::parse(&body, &CREATE_BODY, state.settings.file_size_limit)?;
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
    let b = BucketBody::parse(&body, &UPDATE_BODY, state.settings.file_size_limit)?;
    let caller = requester.caller()?;
    let (set_limit, limit) = (b.file_size_limit.is_some(), b.file_size_limit.flatten());
    let (set_types, types) = (b.allowed_mime_types.is_some(), b.allowed_mime_types.flatten());
    let mut client = db::client(&state).await?;
    let tx = db::begin_as(&mut client, &caller, false).await?;
    let n = tx
        .execute(
            "update storage.buckets set public = coalesce($2, public), \
             file_size_limit = case when $3 then $4 else file_size_limit end, \
             allowed_mime_types = case when $5 then $6 else allowed_mime_types end, updated_at = now() where id = $1",
            &[&id, &b.public, &set_limit, &limit, &set_types, &types],
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
