//! `POST /object/list/{bucket}`: one level of a bucket under a prefix — files and folders — with search,
//! sorting and paging, as the caller (RLS decides which objects are seen).

use super::buckets::{like_escape, query_as_caller};
use super::error::{Result, StorageError};
use super::extract::BucketJson;
use super::json::row_timestamp;
use super::schema::{Prop, Schema};
use crate::storage::Storage;
use axum::extract::State;
use axum::http::Method;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio_postgres::types::ToSql;

const SORT_BY: Schema = Schema::object(&[
    Prop::new("column", Schema::string().values(&["name", "updated_at", "created_at", "last_accessed_at"])),
    Prop::new("order", Schema::string().values(&["asc", "desc"])),
])
.required(&["column"]);

/// Storage's `searchRequestBodySchema`: `prefix` is required; numbers and the sort may arrive as strings.
const LIST_BODY: Schema = Schema::object(&[
    Prop::new("prefix", Schema::string()),
    Prop::new("limit", Schema::integer().min(1.0)),
    Prop::new("offset", Schema::integer().min(0.0)),
    Prop::new("sortBy", SORT_BY),
    Prop::new("search", Schema::string()),
])
.required(&["prefix"]);

#[derive(Debug, Default, Deserialize)]
struct SortBy {
    column: Option<String>,
    order: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ListBody {
    prefix: Option<String>,
    limit: Option<i64>,
    offset: Option<i64>,
    sort_by: Option<SortBy>,
    search: Option<String>,
}

/// The listing plan: normalised prefix and whitelisted ordering. Pure, unit-tested.
#[derive(Debug, PartialEq, Eq)]
struct Plan {
    prefix: String,
    search: String,
    order_sql: &'static str,
    limit: i64,
    offset: i64,
}

fn plan(body: ListBody) -> Result<Plan> {
    let mut prefix = body.prefix.unwrap_or_default();
    if !prefix.is_empty() && !prefix.ends_with('/') {
        prefix.push('/');
    }
    if prefix.contains("..") || prefix.contains('\\') || prefix.starts_with('/') {
        return Err(StorageError::InvalidKey(prefix));
    }
    let sort = body.sort_by.unwrap_or_default();
    let desc = sort.order.as_deref() == Some("desc");
    let order_sql = match (sort.column.as_deref().unwrap_or("name"), desc) {
        ("name", false) => "part asc",
        ("name", true) => "part desc",
        ("created_at", false) => "created_at asc nulls first, part asc",
        ("created_at", true) => "created_at desc nulls last, part asc",
        ("updated_at", false) => "updated_at asc nulls first, part asc",
        ("updated_at", true) => "updated_at desc nulls last, part asc",
        ("last_accessed_at", false) => "last_accessed_at asc nulls first, part asc",
        ("last_accessed_at", true) => "last_accessed_at desc nulls last, part asc",
        (other, _) => return Err(StorageError::InvalidRequest(format!("invalid sort column {other}"))),
    };
    Ok(Plan {
        prefix,
        search: format!("{}%", like_escape(&body.search.unwrap_or_default().to_lowercase())),
        order_sql,
        limit: body.limit.unwrap_or(100).max(1),
        offset: body.offset.unwrap_or(0).max(0),
    })
}

/// The files and folders one level under prefix `$3` (of `$2` characters) of bucket `$1` whose names match `$4`
/// (a lower-case `LIKE` pattern), one row per name; the caller orders and pages it.
const LEVEL: &str = "select part, is_folder, id, updated_at, created_at, last_accessed_at, metadata from ( \
       select distinct on (part) part, is_folder, id, updated_at, created_at, last_accessed_at, metadata from ( \
         select split_part(rest, '/', 1) as part, strpos(rest, '/') > 0 as is_folder, \
                case when strpos(rest, '/') > 0 then null else id end as id, \
                case when strpos(rest, '/') > 0 then null else updated_at end as updated_at, \
                case when strpos(rest, '/') > 0 then null else created_at end as created_at, \
                case when strpos(rest, '/') > 0 then null else last_accessed_at end as last_accessed_at, \
                case when strpos(rest, '/') > 0 then null else metadata end as metadata \
         from (select substr(name, $2::int + 1) as rest, o.* from storage.objects o \
               where bucket_id = $1 and left(name, $2::int) = $3) s \
         where rest <> '' and lower(rest) like $4 escape '\\' \
       ) t order by part, is_folder \
     ) u";

pub async fn list(State(state): State<Storage>, req: BucketJson) -> Result<Json<Value>> {
    let (bucket, body, caller): (_, ListBody, _) = req.open(&LIST_BODY)?;
    let p = plan(body)?;
    let sql = format!("{LEVEL} order by {} limit $5 offset $6", p.order_sql);
    let prefix_len = p.prefix.chars().count() as i32;
    let params: [&(dyn ToSql + Sync); 6] = [&bucket, &prefix_len, &p.prefix, &p.search, &p.limit, &p.offset];
    let rows = query_as_caller(&state, &caller, Method::POST, &bucket, true, &sql, &params).await?;
    let items = rows
        .iter()
        .map(|r| {
            json!({
                "name": r.get::<_, String>(0),
                "id": r.get::<_, Option<uuid::Uuid>>(2),
                "updated_at": row_timestamp(r, 3),
                "created_at": row_timestamp(r, 4),
                "last_accessed_at": row_timestamp(r, 5),
                "metadata": r.get::<_, Option<Value>>(6),
            })
        })
        .collect();
    Ok(Json(Value::Array(items)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_the_prefix_and_whitelists_sorting() {
        let p = plan(ListBody { prefix: Some("testpath".into()), ..Default::default() }).unwrap();
        assert_eq!(p.prefix, "testpath/");
        assert_eq!(p.order_sql, "part asc");
        assert_eq!(p.limit, 100);
        let body = ListBody {
            sort_by: Some(SortBy { column: Some("created_at".into()), order: Some("desc".into()) }),
            search: Some("50%_".into()),
            ..Default::default()
        };
        let p = plan(body).unwrap();
        assert_eq!(p.order_sql, "created_at desc nulls last, part asc");
        assert_eq!(p.search, "50\\%\\_%");
        let bad = ListBody {
            sort_by: Some(SortBy { column: Some("name; drop table x".into()), order: None }),
            ..Default::default()
        };
        assert!(plan(bad).is_err());
        assert!(plan(ListBody { prefix: Some("../x".into()), ..Default::default() }).is_err());
    }
}
