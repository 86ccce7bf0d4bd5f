//! Intent → plan: resolves the request against the schema cache (read, mutate or call) with PostgREST's errors
//! when names do not resolve. Pure: no database access.

pub mod call;
pub mod embed;
pub mod mutate;
pub mod read;
pub mod types;

use crate::rest::error::Error;
use crate::rest::fragment::qualified;
use crate::rest::request::{ApiRequest, Resource};
use crate::rest::schema_cache::{edit_distance, QualifiedName, SchemaCache, Table};
use http::Method;
pub use read::ReadLimits;
pub use types::*;

#[derive(Debug, Clone)]
pub enum Plan {
    Read(ReadPlan),
    Mutate(MutatePlan),
    Call(CallPlan),
}

/// What the planner needs besides the request and the cache.
#[derive(Debug, Clone)]
pub struct PlanContext<'a> {
    pub limits: ReadLimits,
    /// The role the request runs as (hints only name objects it can see).
    pub role: &'a str,
}

pub fn plan(req: &ApiRequest, cache: &SchemaCache, ctx: &PlanContext) -> Result<Plan, Error> {
    match &req.resource {
        Resource::Relation(name) => {
            let table = find_table(cache, &req.schema, name, ctx.role)?;
            match req.method {
                Method::GET | Method::HEAD => Ok(Plan::Read(plan_read(req, cache, table, ctx)?)),
                Method::POST => Ok(Plan::Mutate(mutate::insert(req, cache, table, ctx)?)),
                Method::PATCH => Ok(Plan::Mutate(mutate::update(req, cache, table, ctx)?)),
                Method::DELETE => Ok(Plan::Mutate(mutate::delete(req, cache, table, ctx)?)),
                Method::PUT => Ok(Plan::Mutate(mutate::put(req, cache, table, ctx)?)),
                ref m => Err(Error::Method(m.to_string())),
            }
        }
        Resource::Routine(name) => match req.method {
            Method::GET | Method::HEAD | Method::POST => Ok(Plan::Call(call::plan_call(req, cache, name, ctx)?)),
            ref m => Err(Error::RpcMethod(m.to_string())),
        },
    }
}

fn plan_read(req: &ApiRequest, cache: &SchemaCache, table: &Table, ctx: &PlanContext) -> Result<ReadPlan, Error> {
    let qual = qualified(&table.name.schema, &table.name.name);
    let mut root = read::build_tree(cache, &table.name, qual, &req.query.select, 0, ctx.limits)?;
    read::attach_query(cache, &mut root, &req.query, ctx.limits)?;
    let count_cap = match req.prefs.count {
        Some(crate::rest::request::preferences::Count::Estimated) => ctx.limits.max_rows,
        _ => None,
    };
    Ok(ReadPlan { root, count: req.prefs.count, count_cap })
}

/// PGRST205 for unknown relations; the hint only names a close match the role can see.
pub fn find_table<'a>(cache: &'a SchemaCache, schema: &str, name: &str, role: &str) -> Result<&'a Table, Error> {
    if let Some(t) = cache.table(schema, name) {
        return Ok(t);
    }
    let hint = cache
        .tables
        .values()
        .filter(|t| t.name.schema == schema && t.visible_to.iter().any(|r| r == role))
        .map(|t| (edit_distance(&t.name.name, name), &t.name))
        .filter(|(d, _)| *d <= 3)
        .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.name.cmp(&b.1.name)))
        .map(|(_, q)| format!("Perhaps you meant the table '{q}'"));
    Err(Error::NoTable { name: QualifiedName::new(schema, name).to_string(), hint })
}
