//! Plan → SQL. Every statement has the same outer shape (PostgREST's `mainRead`/`mainWrite`/`mainCall`): a CTE
//! `pgrst_source` with the work, and one row of `total_result_set, page_total, body, response_headers,
//! response_status, response_inserted` that the executor turns into the HTTP response.

pub mod call;
pub mod filter;
pub mod mutate;
pub mod read;

use crate::rest::fragment::{SqlBuilder, Statement};
use crate::rest::request::media::MediaType;
use crate::rest::request::preferences::Count;

/// How the body aggregates `_postgrest_t` rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyShape {
    /// Rows as objects.
    Rows,
    /// The scalar column `pgrst_scalar` of each row (RPC returning a scalar or a set of scalars).
    Scalars,
    /// No body at all (minimal writes, void functions).
    None,
}

/// The body expression for a media type. `single` asks for the first element (singular media or a function
/// returning one value).
pub fn body_expr(media: &MediaType, shape: BodyShape, single: bool) -> String {
    let agg = match shape {
        BodyShape::Rows => "json_agg(_postgrest_t)",
        BodyShape::Scalars => "json_agg(_postgrest_t.pgrst_scalar)",
        BodyShape::None => return "''".into(),
    };
    let strip = |e: String| match media {
        MediaType::Json { strip_nulls: true } | MediaType::SingleObject { strip_nulls: true } => {
            format!("json_strip_nulls({e})")
        }
        _ => e,
    };
    match media {
        MediaType::Csv => "(coalesce((SELECT string_agg(pgrst_k, ',') FROM (SELECT json_object_keys(row_to_json(pgrst_h)) AS pgrst_k FROM (SELECT * FROM pgrst_source LIMIT 1) pgrst_h) pgrst_keys), '') \
             || chr(10) || coalesce(string_agg(substring(_postgrest_t::text, 2, length(_postgrest_t::text) - 2), chr(10)), ''))"
            .into(),
        MediaType::GeoJson => "json_build_object('type', 'FeatureCollection', 'features', coalesce(json_agg(ST_AsGeoJSON(_postgrest_t)::json), '[]'))::text".into(),
        _ if single || media.is_singular() => ["coalesce(", &strip(["(", agg, ")->0"].concat()), ", 'null')::text"].concat(),
        _ => ["coalesce(", &strip(agg.to_string()), ", '[]')::text"].concat(),
    }
}

/// The result columns that read what the statement (its triggers, its functions) set for the response.
pub const RESPONSE_SETTINGS: &str = "nullif(current_setting('response.headers', true), '') AS response_headers, \
     nullif(current_setting('response.status', true), '') AS response_status, ";

/// Wraps the CTEs into the final statement.
pub fn wrap(b: SqlBuilder, ctes: &str, total: &str, rows_from: &str, body: &str, inserted: &str) -> Statement {
    // joined rather than `format!`: this runs on every request
    let sql = [
        "WITH ",
        ctes,
        " SELECT ",
        total,
        " AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, ",
        body,
        " AS body, ",
        RESPONSE_SETTINGS,
        inserted,
        " AS response_inserted FROM (",
        rows_from,
        ") _postgrest_t",
    ]
    .concat();
    b.finish(sql)
}

/// `count=planned` and `count=estimated`: the planner's row estimate for a read's count query
/// (`EXPLAIN (FORMAT JSON)`).
pub fn planned_count_statement(
    cache: &crate::rest::schema_cache::SchemaCache,
    plan: &crate::rest::plan::ReadPlan,
) -> Option<Statement> {
    let wanted = match plan.count {
        Some(Count::Planned) => true,
        // without db-max-rows the exact count is the answer
        Some(Count::Estimated) => plan.count_cap.is_some(),
        _ => false,
    };
    if !wanted {
        return None;
    }
    let mut b = SqlBuilder::new();
    let count = read::count_query(&mut b, cache, &plan.root, &plan.root.qual);
    Some(b.finish(format!("EXPLAIN (FORMAT JSON) {count}")))
}

/// The total a response reports: `count=planned` (no cap) takes the planner's estimate; `count=estimated` keeps
/// the exact count up to the cap (`db-max-rows`) and takes the estimate once the capped count passed it.
pub fn choose_count(exact: Option<i64>, cap: Option<i64>, estimate: Option<i64>) -> Option<i64> {
    match (exact, cap) {
        (Some(n), Some(cap)) if n <= cap => Some(n),
        _ => estimate,
    }
}

/// `EXPLAIN` of a statement for `application/vnd.pgrst.plan`.
pub fn explain(stmt: &Statement, json: bool, options: &[String]) -> Statement {
    let mut opts = vec![format!("FORMAT {}", if json { "JSON" } else { "TEXT" })];
    for o in options {
        match o.as_str() {
            "analyze" => opts.push("ANALYZE".into()),
            "verbose" => opts.push("VERBOSE".into()),
            "settings" => opts.push("SETTINGS".into()),
            "buffers" => opts.push("BUFFERS".into()),
            "wal" => opts.push("WAL".into()),
            _ => {}
        }
    }
    Statement { sql: format!("EXPLAIN ({}) {}", opts.join(", "), stmt.sql), params: stmt.params.clone() }
}

/// The statement for a read of a table or view.
pub fn read_statement(
    cache: &crate::rest::schema_cache::SchemaCache,
    plan: &crate::rest::plan::ReadPlan,
    media: &MediaType,
) -> Statement {
    let mut b = SqlBuilder::new();
    let from = plan.root.qual.clone();
    let source = read::node_query(&mut b, cache, &plan.root, &from, vec![], false);
    let (ctes, total) = match plan.count {
        Some(Count::Exact | Count::Estimated) => {
            let mut count = read::count_query(&mut b, cache, &plan.root, &from);
            if let Some(cap) = plan.count_cap {
                // one row past the cap tells that it was passed
                count.push_str(&format!(" LIMIT {}", cap.saturating_add(1)));
            }
            (
                ["pgrst_source AS (", &source, "), pgrst_source_count AS (", &count, ")"].concat(),
                "(SELECT pg_catalog.count(*) FROM pgrst_source_count)",
            )
        }
        _ => (["pgrst_source AS (", &source, ")"].concat(), "NULL::bigint"),
    };
    let body = body_expr(media, BodyShape::Rows, false);
    wrap(b, &ctes, total, "SELECT * FROM pgrst_source", &body, "NULL::int")
}

#[cfg(test)]
mod tests;
