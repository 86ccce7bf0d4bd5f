//! RPC plans: the overload chosen by the set of argument names (PGRST202 none, PGRST203 several), where the
//! arguments come from, the read over the result, and whether the transaction can be read-only.

use super::read::{attach_query, build_tree};
use super::types::*;
use super::PlanContext;
use crate::rest::error::Error;
use crate::rest::fragment::quote_ident;
use crate::rest::request::ApiRequest;
use crate::rest::schema_cache::{
    edit_distance, QualifiedName, ReturnShape, Routine, RoutineParam, SchemaCache, Volatility,
};
use http::Method;
use serde_json::Value;

enum ArgSource {
    Keys(Vec<String>),
    /// A body that is not a JSON object: only a single unnamed parameter taking the whole body can take it.
    NonObject,
    /// A raw body (`text/plain`, `text/xml`, `application/octet-stream`): only a single unnamed parameter of its
    /// type can take it.
    Raw(RawBody),
}

/// One unnamed parameter of one of these types.
fn is_single_unnamed(r: &Routine, types: &[&str]) -> bool {
    r.params.len() == 1 && r.params[0].name.is_empty() && types.contains(&r.params[0].data_type.as_str())
}

/// Every key names a parameter and every parameter without a default is given (unnamed ones never are).
fn matches_keys(r: &Routine, keys: &[String]) -> bool {
    keys.iter().all(|k| !k.is_empty() && r.params.iter().any(|p| &p.name == k))
        && r.params.iter().all(|p| p.has_default || (!p.name.is_empty() && keys.contains(&p.name)))
}

pub fn plan_call(req: &ApiRequest, cache: &SchemaCache, name: &str, ctx: &PlanContext) -> Result<CallPlan, Error> {
    let qname = QualifiedName::new(&req.schema, name);
    let is_read = matches!(req.method, Method::GET | Method::HEAD);
    let source = arg_source(req, is_read)?;
    let overloads: &[Routine] = cache.routines.get(&qname).map(Vec::as_slice).unwrap_or(&[]);
    let (candidates, args) = candidates(overloads, &source, is_read);
    let routine = match candidates.as_slice() {
        [one] => (*one).clone(),
        [] => return Err(not_found(cache, &qname, &source, ctx.role)),
        many => return Err(ambiguous(many)),
    };
    let args = match args {
        Some(whole_body) => whole_body,
        None => call_args(req, &routine, &source, is_read),
    };
    if req.prefs.is_strict() && req.prefs.max_affected.is_some() && !routine.returns_set() {
        return Err(Error::MaxAffectedRpc);
    }
    let relation = match &routine.returns {
        ReturnShape::Composite { relation: Some(r), .. } => r.clone(),
        _ => qname.clone(),
    };
    let mut read = build_tree(cache, &relation, quote_ident(name), &req.query.select, 0, ctx.limits)?;
    let limits = if routine.returns_set() { ctx.limits } else { super::ReadLimits { max_rows: None, ..ctx.limits } };
    attach_query(cache, &mut read, &req.query, limits)?;
    let read_only = is_read || routine.volatility != Volatility::Volatile;
    Ok(CallPlan { routine, args, read, read_only, count: req.prefs.count })
}

/// The overloads that can take the arguments, and how the whole body is passed when one parameter takes it
/// (`None`: named arguments). A raw body goes only to a single unnamed parameter of its type; a JSON body to the
/// overloads its keys name, else to a single unnamed parameter that takes the whole body (json, jsonb, text, xml or
/// bytea, as PostgREST's `findProc` does: postgrest-js's polymorphic `{"": value}` calls reach a `text` one).
fn candidates<'a>(overloads: &'a [Routine], source: &ArgSource, is_read: bool) -> (Vec<&'a Routine>, Option<CallArgs>) {
    let whole = |types: &[&str], args: CallArgs| {
        let found: Vec<&Routine> = overloads.iter().filter(|r| is_single_unnamed(r, types)).collect();
        (found, Some(args))
    };
    const WHOLE_JSON: [&str; 5] = ["json", "jsonb", "text", "xml", "bytea"];
    match source {
        ArgSource::Raw(kind) => whole(&[kind.param_type()], CallArgs::RawBody(*kind)),
        ArgSource::NonObject => whole(&WHOLE_JSON, CallArgs::SingleJson),
        ArgSource::Keys(keys) => {
            let named: Vec<&Routine> = overloads.iter().filter(|r| matches_keys(r, keys)).collect();
            if named.is_empty() && !is_read {
                whole(&WHOLE_JSON, CallArgs::SingleJson)
            } else {
                (named, None)
            }
        }
    }
}

/// Where the argument names come from: the query of a read, the body's keys otherwise; a raw body by its type.
fn arg_source(req: &ApiRequest, is_read: bool) -> Result<ArgSource, Error> {
    if is_read {
        let mut keys: Vec<String> = req.query.rpc_args.iter().map(|(k, _)| k.clone()).collect();
        keys.dedup();
        return Ok(ArgSource::Keys(keys));
    }
    if let Some(kind) = RawBody::from_content_type(req.content_type.as_deref()) {
        if kind != RawBody::Bytes && std::str::from_utf8(&req.body).is_err() {
            return Err(Error::InvalidBody("The request body is not valid UTF-8".into()));
        }
        return Ok(ArgSource::Raw(kind));
    }
    if req.body.iter().all(u8::is_ascii_whitespace) {
        return Ok(ArgSource::Keys(vec![]));
    }
    let body: Value =
        serde_json::from_slice(&req.body).map_err(|_| Error::InvalidBody("Empty or invalid json".into()))?;
    Ok(match body {
        Value::Object(o) => ArgSource::Keys(o.keys().cloned().collect()),
        _ => ArgSource::NonObject,
    })
}

/// PGRST203: the overloads that match, simplest first.
fn ambiguous(many: &[&Routine]) -> Error {
    let mut sorted = many.to_vec();
    sorted.sort_by_key(|r| (r.params.len(), r.params.iter().map(|p| p.data_type.clone()).collect::<Vec<_>>()));
    Error::AmbiguousFunction(sorted.iter().map(|r| signature(r)).collect::<Vec<_>>().join(", "))
}

/// The named arguments the call passes: the query's values, or the body object's keys.
fn call_args(req: &ApiRequest, routine: &Routine, source: &ArgSource, is_read: bool) -> CallArgs {
    if is_read {
        let values_of = |p: &RoutineParam| {
            let values: Vec<String> =
                req.query.rpc_args.iter().filter(|(k, _)| k == &p.name).map(|(_, v)| v.clone()).collect();
            (!values.is_empty()).then(|| (p.clone(), values))
        };
        return CallArgs::Query(routine.params.iter().filter_map(values_of).collect());
    }
    let keys: &[String] = match source {
        ArgSource::Keys(k) => k,
        ArgSource::NonObject | ArgSource::Raw(_) => &[],
    };
    CallArgs::JsonObject(routine.params.iter().filter(|p| keys.contains(&p.name)).cloned().collect())
}

/// `public.f(a => integer, b => text)`
fn signature(r: &Routine) -> String {
    format!(
        "{}({})",
        r.name,
        r.params.iter().map(|p| format!("{} => {}", p.name, p.data_type)).collect::<Vec<_>>().join(", ")
    )
}

/// PGRST202: no overload takes these arguments; the hint names the closest overload the role may call, or a
/// function of a similar name.
fn not_found(cache: &SchemaCache, name: &QualifiedName, source: &ArgSource, role: &str) -> Error {
    let keys = match source {
        ArgSource::Keys(k) => {
            let mut k = k.clone();
            k.sort();
            k
        }
        ArgSource::NonObject => vec![],
        ArgSource::Raw(kind) => {
            return Error::NoFunction {
                signature: name.to_string(),
                details: format!(
                    "Searched for the function {name} with a single unnamed {} parameter, but no matches were found in the schema cache.",
                    kind.param_type()
                ),
                hint: None,
            }
        }
    };
    let (sig, searched) = match keys.len() {
        0 => (format!("{name} without parameters"), format!("{name} without parameters")),
        1 => (format!("{name}({})", keys[0]), format!("{name} with parameter {}", keys[0])),
        _ => (format!("{name}({})", keys.join(", ")), format!("{name} with parameters {}", keys.join(", "))),
    };
    if let Some(hint) = closest_overload(cache, name, &keys, role) {
        return Error::NoFunction {
            signature: sig,
            details: format!("Searched for the function {searched}, but no matches were found in the schema cache."),
            hint: Some(hint),
        };
    }
    Error::NoFunction {
        signature: sig,
        details: format!(
            "Searched for the function {searched} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache."
        ),
        hint: similar_name(cache, name, role),
    }
}

/// The name exists with other parameters: the overload the role may call that shares the most of `keys`.
fn closest_overload(cache: &SchemaCache, name: &QualifiedName, keys: &[String], role: &str) -> Option<String> {
    let overloads: Vec<&Routine> = cache
        .routines
        .get(name)
        .map(|rs| rs.iter().filter(|r| r.visible_to.iter().any(|v| v == role)).collect())
        .unwrap_or_default();
    let closest = overloads.iter().max_by_key(|r| {
        let shared = r.params.iter().filter(|p| keys.contains(&p.name)).count() as i64;
        (shared, -(r.params.len() as i64))
    })?;
    let params: Vec<&str> = closest.params.iter().map(|p| p.name.as_str()).collect();
    Some(format!("Perhaps you meant to call the function {name}({})", params.join(", ")))
}

/// PostgREST's fuzzy match for functions is looser than for tables; it still only names callable functions.
fn similar_name(cache: &SchemaCache, name: &QualifiedName, role: &str) -> Option<String> {
    let bound = (name.name.chars().count() / 3).max(3);
    cache
        .routines
        .iter()
        .filter(|(q, rs)| q.schema == name.schema && rs.iter().any(|r| r.visible_to.iter().any(|v| v == role)))
        .map(|(q, _)| (edit_distance(&q.name, &name.name), q))
        .filter(|(d, q)| *d <= bound && q.name != name.name)
        .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.name.cmp(&b.1.name)))
        .map(|(_, q)| format!("Perhaps you meant to call the function {q}"))
}
