//! Insert, upsert, update and delete plans: payload columns checked against the table (PGRST204), the conflict
//! target for upserts, root filters as the mutation's WHERE, and the `select` read over the affected rows.

use super::read::{attach_query, build_tree, ReadLimits};
use super::types::*;
use super::PlanContext;
use crate::rest::error::Error;
use crate::rest::fragment::quote_ident;
use crate::rest::request::preferences::{Resolution, Return};
use crate::rest::request::types::{Operation, SimpleOp};
use crate::rest::request::{ApiRequest, QueryParams};
use crate::rest::schema_cache::{Column, SchemaCache, Table};
use serde_json::Value;

/// The JSON body, or PGRST102.
pub fn parse_body(req: &ApiRequest) -> Result<Value, Error> {
    if let Some(ct) = &req.content_type {
        let essence = ct.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        if !essence.is_empty() && essence != "application/json" && !essence.ends_with("+json") {
            return Err(Error::InvalidBody(format!("Content-Type not acceptable: {essence}")));
        }
    }
    if req.body.iter().all(u8::is_ascii_whitespace) {
        return Err(Error::InvalidBody("Empty or invalid json".into()));
    }
    serde_json::from_slice(&req.body).map_err(|_| Error::InvalidBody("Empty or invalid json".into()))
}

/// The payload's columns: `columns=` when given, else the keys of the object (all array elements must agree).
fn payload_columns(req: &ApiRequest, table: &Table, body: &Value) -> Result<Vec<Column>, Error> {
    let names: Vec<String> = match (&req.query.columns, body) {
        (Some(cols), _) => cols.clone(),
        (None, Value::Object(o)) => o.keys().cloned().collect(),
        (None, Value::Array(items)) => {
            let first: Vec<&String> = match items.first() {
                Some(Value::Object(o)) => o.keys().collect(),
                Some(_) => return Err(Error::InvalidBody("All object keys must match".into())),
                None => vec![],
            };
            for item in items {
                let Value::Object(o) = item else {
                    return Err(Error::InvalidBody("All object keys must match".into()));
                };
                if o.len() != first.len() || !first.iter().all(|k| o.contains_key(k.as_str())) {
                    return Err(Error::InvalidBody("All object keys must match".into()));
                }
            }
            first.into_iter().cloned().collect()
        }
        (None, _) => return Err(Error::InvalidBody("Empty or invalid json".into())),
    };
    names
        .iter()
        .map(|n| {
            table
                .column(n)
                .cloned()
                .ok_or_else(|| Error::NoColumn { column: n.clone(), table: table.name.name.clone() })
        })
        .collect()
}

/// Root filters become the mutation's conditions; embed filters, order and ranges shape the representation.
fn split_query(q: &QueryParams) -> (QueryParams, QueryParams) {
    let root = QueryParams {
        filters: q.filters.iter().filter(|(p, _)| p.is_empty()).cloned().collect(),
        logic: q.logic.iter().filter(|(p, _)| p.is_empty()).cloned().collect(),
        ..Default::default()
    };
    let returning = QueryParams {
        filters: q.filters.iter().filter(|(p, _)| !p.is_empty()).cloned().collect(),
        logic: q.logic.iter().filter(|(p, _)| !p.is_empty()).cloned().collect(),
        order: q.order.clone(),
        ranges: q.ranges.iter().filter(|(p, _)| !p.is_empty()).map(|(p, r)| (p.clone(), *r)).collect(),
        ..Default::default()
    };
    (root, returning)
}

fn common(
    req: &ApiRequest,
    cache: &SchemaCache,
    table: &Table,
    ctx: &PlanContext,
    kind: MutateKind,
) -> Result<MutatePlan, Error> {
    let (root_q, returning_q) = split_query(&req.query);
    let full = format!("{}.{}", quote_ident(&table.name.schema), quote_ident(&table.name.name));
    let mut target = build_tree(cache, &table.name, full, &[], 0, ctx.limits)?;
    let no_cap = ReadLimits { max_rows: None, ..ctx.limits };
    attach_query(cache, &mut target, &root_q, no_cap)?;
    let mut returning =
        build_tree(cache, &table.name, quote_ident(&table.name.name), &req.query.select, 0, ctx.limits)?;
    attach_query(cache, &mut returning, &returning_q, no_cap)?;
    Ok(MutatePlan {
        table: table.clone(),
        kind,
        conds: target.conds,
        returning,
        representation: req.prefs.return_ == Some(Return::Representation),
        count: req.prefs.count,
    })
}

pub fn insert(req: &ApiRequest, cache: &SchemaCache, table: &Table, ctx: &PlanContext) -> Result<MutatePlan, Error> {
    let body = parse_body(req)?;
    let columns = payload_columns(req, table, &body)?;
    let on_conflict = match req.prefs.resolution {
        Some(resolution) => {
            let target = req.query.on_conflict.clone().unwrap_or_else(|| table.primary_key.clone());
            for c in &target {
                if table.column(c).is_none() {
                    return Err(Error::NoColumn { column: c.clone(), table: table.name.name.clone() });
                }
            }
            (!target.is_empty()).then_some((target, resolution))
        }
        None => None,
    };
    let missing_default = req.prefs.missing_default == Some(true);
    common(req, cache, table, ctx, MutateKind::Insert { columns, on_conflict, missing_default })
}

pub fn update(req: &ApiRequest, cache: &SchemaCache, table: &Table, ctx: &PlanContext) -> Result<MutatePlan, Error> {
    let body = parse_body(req)?;
    if !body.is_object() {
        return Err(Error::InvalidBody("Empty or invalid json".into()));
    }
    let columns = payload_columns(req, table, &body)?;
    common(req, cache, table, ctx, MutateKind::Update { columns })
}

pub fn delete(req: &ApiRequest, cache: &SchemaCache, table: &Table, ctx: &PlanContext) -> Result<MutatePlan, Error> {
    common(req, cache, table, ctx, MutateKind::Delete)
}

/// PUT: a single-row upsert addressed by the whole primary key (`pk=eq.v` filters and nothing else).
pub fn put(req: &ApiRequest, cache: &SchemaCache, table: &Table, ctx: &PlanContext) -> Result<MutatePlan, Error> {
    if req.query.ranges.values().any(|r| r.limit.is_some() || r.offset != 0) {
        return Err(Error::PutRange);
    }
    let pk_filters = put_key(req, table)?;
    let body = parse_body(req)?;
    let Value::Object(obj) = &body else { return Err(Error::InvalidBody("Empty or invalid json".into())) };
    for (col, want) in &pk_filters {
        let matches = match obj.get(col) {
            Some(Value::String(s)) => s == want,
            Some(Value::Null) | None => false,
            Some(other) => &other.to_string() == want,
        };
        if !matches {
            return Err(Error::PutMismatch);
        }
    }
    let columns = payload_columns(req, table, &body)?;
    let on_conflict = Some((table.primary_key.clone(), Resolution::MergeDuplicates));
    let mut plan = common(req, cache, table, ctx, MutateKind::Insert { columns, on_conflict, missing_default: false })?;
    // the filters only address the row; the upsert itself has no WHERE
    plan.conds.clear();
    Ok(plan)
}

/// The primary key's values a PUT's filters give: `pk=eq.v` on each key column and no other filter (PGRST105).
fn put_key(req: &ApiRequest, table: &Table) -> Result<Vec<(String, String)>, Error> {
    let eq_value = |col: &str| {
        req.query
            .filters
            .iter()
            .filter(|(path, f)| path.is_empty() && f.field.name == col && f.field.json_path.is_empty())
            .find_map(|(_, f)| match (&f.expr.negated, &f.expr.operation) {
                (false, Operation::Simple { op: SimpleOp::Eq, quantifier: None, value }) => Some(value.as_str()),
                _ => None,
            })
    };
    let pk_filters: Option<Vec<(String, String)>> =
        table.primary_key.iter().map(|c| eq_value(c).map(|v| (c.clone(), v.to_string()))).collect();
    match pk_filters.filter(|f| !f.is_empty() && f.len() == req.query.filters.len()) {
        Some(filters) if req.query.logic.is_empty() => Ok(filters),
        _ => Err(Error::PutFilters),
    }
}

/// Whether an upsert resolution was requested (for the 200/201 decision).
pub fn is_merge(plan: &MutatePlan) -> bool {
    matches!(plan.kind, MutateKind::Insert { on_conflict: Some((_, Resolution::MergeDuplicates)), .. })
}
