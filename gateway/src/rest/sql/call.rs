//! RPC SQL: the function called with named arguments (`"a" := …`) taken from the JSON body through
//! `json_to_record`, from the query string cast to each parameter's type, or the whole body as the single json
//! (or raw text/xml/bytea) argument; the plan's read (select, filters, order, range) applies to its rows.

use super::read::{count_query, node_query};
use super::{body_expr, wrap, BodyShape};
use crate::rest::fragment::{array_literal, limit_clause, qualified, quote_ident, SqlBuilder, Statement};
use crate::rest::plan::types::*;
use crate::rest::request::media::MediaType;
use crate::rest::schema_cache::{ReturnShape, RoutineParam, SchemaCache};

/// The `FROM` items that produce the function's rows, aliased `alias` (or `pgrst_call(pgrst_scalar)`).
fn call_from(b: &mut SqlBuilder, plan: &CallPlan, body: &str, alias: &str) -> String {
    let r = &plan.routine;
    let func = qualified(&r.name.schema, &r.name.name);
    match &plan.args {
        CallArgs::SingleJson | CallArgs::RawBody(RawBody::Text | RawBody::Xml) => {
            let ty = &r.params[0].data_type;
            format!("{func}({}::{ty}) AS {alias}", b.param(body))
        }
        // The bytes travel as hex text (`body` is the body hex-encoded: super::body_text).
        CallArgs::RawBody(RawBody::Bytes) => format!("{func}(pg_catalog.decode({}, 'hex')) AS {alias}", b.param(body)),
        CallArgs::Query(args) => {
            let list: Vec<String> = args.iter().map(|(p, values)| query_arg(b, p, values)).collect();
            format!("{func}({}) AS {alias}", list.join(", "))
        }
        CallArgs::JsonObject(params) if params.is_empty() => format!("{func}() AS {alias}"),
        CallArgs::JsonObject(params) => {
            let payload = b.param(body);
            from_body_object(params, &payload, &func, alias)
        }
    }
}

/// A parameter's argument from the query string, cast to its type: the last value given, or for a variadic
/// parameter every value as an array (unless the one value is already an array literal `{…}`).
fn query_arg(b: &mut SqlBuilder, p: &RoutineParam, values: &[String]) -> String {
    let v = if p.variadic && (values.len() > 1 || !values[0].starts_with(ARRAY_OPEN)) {
        array_literal(values)
    } else {
        values[values.len() - 1].clone()
    };
    named(p, format!("{}::{}", b.param(v), p.data_type))
}

/// How a PostgreSQL array literal starts.
const ARRAY_OPEN: char = '{';

/// `FROM` items passing the body object's keys as named arguments (through `json_to_record`).
fn from_body_object(params: &[RoutineParam], payload: &str, func: &str, alias: &str) -> String {
    let cols: Vec<String> = params.iter().map(|p| quote_ident(&p.name)).collect();
    let defs: Vec<String> = params.iter().map(|p| format!("{} {}", quote_ident(&p.name), p.data_type)).collect();
    let args: Vec<String> = params.iter().map(|p| named(p, format!("pgrst_body.{}", quote_ident(&p.name)))).collect();
    format!(
        "(SELECT {payload}::json AS json_data) pgrst_payload, \
         LATERAL (SELECT {} FROM json_to_record(pgrst_payload.json_data) AS _({}) LIMIT 1) pgrst_body, \
         LATERAL {func}({}) AS {alias}",
        cols.join(", "),
        defs.join(", "),
        args.join(", ")
    )
}

/// `"name" := value` (with `VARIADIC` for a variadic parameter).
fn named(p: &RoutineParam, v: String) -> String {
    format!("{}{} := {v}", if p.variadic { "VARIADIC " } else { "" }, quote_ident(&p.name))
}

/// The text a call's body is bound as: the bytes hex-encoded for a raw `bytea` argument, else the body as text.
pub fn body_text(plan: &CallPlan, body: &[u8]) -> String {
    match plan.args {
        CallArgs::RawBody(RawBody::Bytes) => crate::core::hex::lower(body),
        _ => String::from_utf8_lossy(body).into_owned(),
    }
}

/// The statement for a function call.
pub fn call_statement(cache: &SchemaCache, plan: &CallPlan, media: &MediaType, body: &str) -> Statement {
    let mut b = SqlBuilder::new();
    let (source, count_src, shape, single) = match &plan.routine.returns {
        ReturnShape::Scalar { set, void } => {
            let (sql, count) = scalar_call(&mut b, plan, body, *set);
            (sql, count, if *void { BodyShape::None } else { BodyShape::Scalars }, !set)
        }
        ReturnShape::Composite { set, .. } => {
            let from = call_from(&mut b, plan, body, &plan.read.qual);
            let sql = node_query(&mut b, cache, &plan.read, &from, vec![], false);
            let count = match plan.count {
                Some(_) => {
                    let count_from = call_from(&mut b, plan, body, &plan.read.qual);
                    count_query(&mut b, cache, &plan.read, &count_from)
                }
                None => String::new(),
            };
            (sql, count, BodyShape::Rows, !set)
        }
    };
    let (ctes, total) = match plan.count {
        Some(_) => (
            format!("pgrst_source AS ({source}), pgrst_source_count AS ({count_src})"),
            "(SELECT pg_catalog.count(*) FROM pgrst_source_count)",
        ),
        None => (format!("pgrst_source AS ({source})"), "NULL::bigint"),
    };
    let body_sql = body_expr(media, shape, single);
    wrap(b, &ctes, total, "SELECT * FROM pgrst_source", &body_sql, "NULL::int")
}

/// A scalar function's values (a set paged by the range) and, when counted, their count's source.
fn scalar_call(b: &mut SqlBuilder, plan: &CallPlan, body: &str, set: bool) -> (String, String) {
    let from = call_from(b, plan, body, "pgrst_call(pgrst_scalar)");
    let mut sql = format!("SELECT pgrst_call.pgrst_scalar FROM {from}");
    if set {
        if let Some(l) = plan.read.range.limit {
            sql.push_str(&limit_clause(l));
        }
        if plan.read.range.offset > 0 {
            sql.push_str(&format!(" OFFSET {}", b.param(plan.read.range.offset.to_string())));
        }
    }
    let count = match plan.count {
        Some(_) => format!("SELECT 1 FROM {}", call_from(b, plan, body, "pgrst_call(pgrst_scalar)")),
        None => String::new(),
    };
    (sql, count)
}
