//! `POST /object/list-v2/{bucket}`: objects whose names start with a prefix, optionally grouped into folders at
//! the next `/` (`with_delimiter`), sorted and paged with an opaque cursor, as the caller (RLS decides).

use super::buckets::query_as_caller;
use super::error::{Result, StorageError};
use super::extract::BucketJson;
use super::json::row_timestamp;
use super::schema::{Prop, Schema};
use crate::storage::Storage;
use axum::extract::State;
use axum::http::Method;
use axum::Json;
use base64::Engine;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio_postgres::types::ToSql;

const SORT_BY: Schema = Schema::object(&[
    Prop::new("column", Schema::string().values(&["name", "updated_at", "created_at"])),
    Prop::new("order", Schema::string().values(&["asc", "desc"])),
])
.required(&["column"]);

/// Storage's list-v2 body schema (nothing required; numbers and booleans may arrive as strings).
const LIST_V2_BODY: Schema = Schema::object(&[
    Prop::new("prefix", Schema::string()),
    Prop::new("limit", Schema::integer().min(1.0)),
    Prop::new("cursor", Schema::string()),
    Prop::new("with_delimiter", Schema::boolean()),
    Prop::new("sortBy", SORT_BY),
]);

#[derive(Debug, Default, Deserialize)]
struct SortBy {
    column: Option<String>,
    order: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct ListV2Body {
    prefix: Option<String>,
    limit: Option<i64>,
    cursor: Option<String>,
    with_delimiter: Option<bool>,
    #[serde(rename = "sortBy")]
    sort_by: Option<SortBy>,
}

/// The cursor is the offset of the next page, opaque to clients.
fn encode_cursor(offset: i64) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(format!("offset:{offset}"))
}

fn decode_cursor(cursor: &str) -> Result<i64> {
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(cursor).ok();
    bytes
        .and_then(|b| String::from_utf8(b).ok())
        .and_then(|s| s.strip_prefix("offset:").and_then(|n| n.parse().ok()))
        .filter(|n: &i64| *n >= 0)
        .ok_or(StorageError::InvalidParameter("continuation token"))
}

/// The page's offset: an absent or empty cursor is the first page, as Storage reads it.
fn cursor_offset(cursor: Option<&str>) -> Result<i64> {
    cursor.filter(|c| !c.is_empty()).map(decode_cursor).transpose().map(|o| o.unwrap_or(0))
}

fn order_sql(sort: Option<SortBy>) -> Result<&'static str> {
    let sort = sort.unwrap_or_default();
    let desc = sort.order.as_deref() == Some("desc");
    Ok(match (sort.column.as_deref().unwrap_or("name"), desc) {
        ("name", false) => "key_name asc",
        ("name", true) => "key_name desc",
        ("created_at", false) => "created_at asc nulls first, key_name asc",
        ("created_at", true) => "created_at desc nulls last, key_name desc",
        ("updated_at", false) => "updated_at asc nulls first, key_name asc",
        ("updated_at", true) => "updated_at desc nulls last, key_name desc",
        (other, _) => return Err(StorageError::InvalidRequest(format!("invalid sort column {other}"))),
    })
}

pub async fn list_v2(State(state): State<Storage>, req: BucketJson) -> Result<Json<Value>> {
    let (bucket, body, caller): (_, ListV2Body, _) = req.open(&LIST_V2_BODY)?;
    let prefix = body.prefix.unwrap_or_default();
    if prefix.contains("..") || prefix.contains('\\') {
        return Err(StorageError::InvalidKey(prefix));
    }
    let limit = body.limit.unwrap_or(1000).clamp(1, 1000);
    let offset = cursor_offset(body.cursor.as_deref())?;
    let delimit = body.with_delimiter.unwrap_or(false);
    let sql = format!("{PAGE} order by {} limit $5 offset $6", order_sql(body.sort_by)?);
    let prefix_len = prefix.chars().count() as i32;
    let params: [&(dyn ToSql + Sync); 6] = [&bucket, &prefix_len, &prefix, &delimit, &(limit + 1), &offset];
    let rows = query_as_caller(&state, &caller, Method::POST, &bucket, true, &sql, &params).await?;
    Ok(Json(page(&bucket, &rows, limit, offset)))
}

/// The objects (and with the delimiter, the folders) under prefix `$3` (of `$2` characters) of bucket `$1`, one
/// row per key; the caller orders and pages it.
const PAGE: &str = "select key_name, is_folder, id, updated_at, created_at, last_accessed_at, metadata from ( \
       select distinct on (key_name) key_name, is_folder, id, updated_at, created_at, last_accessed_at, metadata \
       from ( \
         select case when f then left(o.name, $2::int + s.slash) else o.name end as key_name, f as is_folder, \
                case when f then null else o.id end as id, case when f then null else o.updated_at end as updated_at, \
                case when f then null else o.created_at end as created_at, \
                case when f then null else o.last_accessed_at end as last_accessed_at, \
                case when f then null else o.metadata end as metadata \
         from storage.objects o \
         cross join lateral (select strpos(substr(o.name, $2::int + 1), '/') as slash) s \
         cross join lateral (select $4::bool and s.slash > 0 as f) d \
         where o.bucket_id = $1 and left(o.name, $2::int) = $3 \
       ) t order by key_name, is_folder \
     ) u";

/// The answer: folders and objects of the page (its first `limit` rows; one more means a next page and a cursor).
fn page(bucket: &str, rows: &[tokio_postgres::Row], limit: i64, offset: i64) -> Value {
    let has_next = rows.len() as i64 > limit;
    let mut last_name = None;
    let (mut folders, mut objects) = (Vec::new(), Vec::new());
    for r in rows.iter().take(limit as usize) {
        let name: String = r.get(0);
        last_name = Some(name.clone());
        if r.get::<_, bool>(1) {
            folders.push(json!({ "key": name.trim_end_matches('/'), "name": name }));
        } else {
            objects.push(json!({
                "id": r.get::<_, Option<uuid::Uuid>>(2), "name": name, "bucket_id": bucket,
                "updated_at": row_timestamp(r, 3), "created_at": row_timestamp(r, 4), "last_accessed_at": row_timestamp(r, 5),
                "metadata": r.get::<_, Option<Value>>(6),
            }));
        }
    }
    let mut out = json!({ "hasNext": has_next, "folders": folders, "objects": objects });
    if has_next {
        out["nextCursor"] = Value::String(encode_cursor(offset + limit));
        out["nextCursorKey"] = json!(last_name);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_bad_ones_are_refused() {
        assert_eq!(decode_cursor(&encode_cursor(42)), Ok(42));
        assert!(decode_cursor("not a cursor").is_err());
        assert_eq!(cursor_offset(Some("")), Ok(0));
        assert_eq!(cursor_offset(None), Ok(0));
        assert!(decode_cursor(&base64::engine::general_purpose::URL_SAFE_NO_PAD.encode("offset:-1")).is_err());
        assert!(order_sql(Some(SortBy { column: Some("id; drop".into()), order: None })).is_err());
    }
}
