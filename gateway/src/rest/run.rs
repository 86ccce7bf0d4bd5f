//! Running a planned request: the transaction's job (the statement, or its EXPLAIN), how the transaction ends once
//! the rows are known, and the rows turned into PostgREST's response.

use super::caller::applied_timezone;
use super::config::TxEnd;
use super::error::Error;
use super::execute::{self, Decide, TxJob};
use super::plan::Plan;
use super::request::media::MediaType;
use super::request::preferences::{Return, Tx};
use super::request::ApiRequest;
use super::response::{self, Kind, Outcome, Shape};
use super::schema_cache::SchemaCache;
use super::sql;
use super::statement::{Built, Form};
use super::Rest;
use crate::core::context::RequestContext;
use crate::core::db::pipeline::TextRow;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value};

/// A planned request ready to run.
pub(super) struct Planned<'a> {
    pub req: &'a ApiRequest,
    pub plan: &'a Plan,
    pub cache: &'a SchemaCache,
    /// Whether the role is not the anonymous one (42501 → 403 rather than 401).
    pub authenticated: bool,
    /// Whether a read replica may answer.
    pub source: super::replica::Source,
}

/// Runs the statement in the request's transaction (`context`) and answers with its rows.
pub(super) async fn run(
    rest: &Rest,
    p: &Planned<'_>,
    built: Built,
    context: RequestContext,
    method: &Method,
) -> Result<Response, Error> {
    if let MediaType::Plan { json, options, .. } = &p.req.media {
        // boxed: a rare path whose state would otherwise widen every request's future
        return Box::pin(explain(rest, built, context, p.authenticated, *json, options, &p.req.media)).await;
    }
    let Built { stmt, read_only, form } = built;
    let (decide, tx_applied, commit_in_flight) = decider(p.req, form.kind, rest.config.tx_end);
    let planned = match p.plan {
        Plan::Read(plan) => sql::planned_count_statement(p.cache, plan),
        _ => None,
    };
    let job = TxJob {
        context,
        read_only,
        setup: rest.config.pre_request_sql().into_iter().collect(),
        stmt,
        extra: planned,
        authenticated: p.authenticated,
        commit_in_flight,
    };
    let (rows, plan_rows) = super::replica::run(rest, p.source, job, decide).await?;
    let mut outcome = Outcome::from_rows(&rows)?;
    if let Some(estimate) = plan_rows.first().and_then(|r| r.get(0)).and_then(|t| serde_json::from_str::<Value>(t).ok())
    {
        let cap = match p.plan {
            Plan::Read(plan) => plan.count_cap,
            _ => None,
        };
        outcome.total = sql::choose_count(outcome.total, cap, estimate[0]["Plan"]["Plan Rows"].as_i64());
    }
    let shape = shape(p, form, tx_applied, method, &outcome);
    response::build(outcome, &shape)
}

/// How the outcome is shaped into the response.
fn shape<'a>(p: &Planned<'a>, form: Form, tx_applied: bool, method: &Method, outcome: &Outcome) -> Shape<'a> {
    let location = match p.plan {
        Plan::Mutate(plan) if p.req.prefs.return_ == Some(Return::HeadersOnly) => {
            location(&plan.table.name.name, &outcome.body)
        }
        _ => None,
    };
    Shape {
        kind: form.kind,
        head: method == Method::HEAD,
        media: &p.req.media,
        prefs: &p.req.prefs,
        offset: form.offset,
        profile: p.req.schema_negotiated.then_some(p.req.schema.as_str()),
        representation: form.representation,
        location,
        tx_applied,
        timezone: applied_timezone(p.req, p.cache),
    }
}

/// `Accept: application/vnd.pgrst.plan`: the statement's EXPLAIN, always rolled back.
async fn explain(
    rest: &Rest,
    built: Built,
    context: RequestContext,
    authenticated: bool,
    json: bool,
    options: &[String],
    media: &MediaType,
) -> Result<Response, Error> {
    let stmt = sql::explain(&built.stmt, json, options);
    let rollback: Decide = Box::new(|_| Ok(false));
    let mut setup: Vec<String> = rest.config.pre_request_sql().into_iter().collect();
    if options.iter().any(|o| o == "verbose") {
        // shows "Query Identifier" where the platform migration granted the setting
        setup.push(
            "SELECT CASE WHEN has_parameter_privilege('compute_query_id', 'SET') \
             THEN set_config('compute_query_id', 'on', true) END"
                .into(),
        );
    }
    let job =
        TxJob { context, read_only: built.read_only, setup, stmt, extra: None, authenticated, commit_in_flight: false };
    let (rows, _) = execute::run(rest.pool(), job, rollback).await?;
    plan_response(&rows, media, json)
}

/// How the transaction ends once the result is known: singular and max-affected violations roll back with an
/// error; otherwise commit unless `tx=rollback` is honoured. Also whether the `tx` preference was honoured.
fn decider(req: &ApiRequest, kind: Kind, tx_end: TxEnd) -> (Decide, bool, bool) {
    let (commit, tx_applied) = commit_preference(req, tx_end);
    let singular = req.media.is_singular();
    let max_affected = req.prefs.max_affected.filter(|_| req.prefs.is_strict() && !matches!(kind, Kind::Read));
    let commit_in_flight = commit && !singular && max_affected.is_none();
    let decide: Decide = Box::new(move |rows| {
        let outcome = Outcome::from_rows(rows)?;
        if singular && outcome.page_total != 1 {
            return Err(Error::Singular(outcome.page_total));
        }
        if max_affected.is_some_and(|max| outcome.page_total > max) {
            return Err(Error::MaxAffected(outcome.page_total));
        }
        Ok(commit)
    });
    (decide, tx_applied, commit_in_flight)
}

/// Whether to commit, and whether the `tx` preference was honoured (`PGRST_DB_TX_END`).
fn commit_preference(req: &ApiRequest, tx_end: TxEnd) -> (bool, bool) {
    match (tx_end, req.prefs.tx) {
        (TxEnd::CommitAllowOverride | TxEnd::RollbackAllowOverride, Some(t)) => (t == Tx::Commit, true),
        (TxEnd::Commit | TxEnd::CommitAllowOverride, _) => (true, false),
        (TxEnd::Rollback | TxEnd::RollbackAllowOverride, _) => (false, false),
    }
}

/// `Location: /t?pk=eq.v` for one inserted row.
fn location(table: &str, body: &[u8]) -> Option<String> {
    let rows: Vec<Map<String, Value>> = serde_json::from_slice(body).ok()?;
    let [row] = rows.as_slice() else { return None };
    let query = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(row.iter().map(|(k, v)| {
            let v = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (k.clone(), format!("eq.{v}"))
        }))
        .finish();
    Some(format!("/{table}?{query}"))
}

fn plan_response(rows: &[TextRow], media: &MediaType, json: bool) -> Result<Response, Error> {
    let body = if json {
        let v: Option<Value> = rows.first().and_then(|r| r.get(0)).and_then(|t| serde_json::from_str(t).ok());
        v.map(|v| v.to_string()).unwrap_or_default()
    } else {
        rows.iter().filter_map(|r| r.get(0)).collect::<Vec<_>>().join("\n")
    };
    let mut res = (StatusCode::OK, body).into_response();
    if let Ok(v) = HeaderValue::from_str(&media.content_type()) {
        res.headers_mut().insert(header::CONTENT_TYPE, v);
    }
    Ok(res)
}
