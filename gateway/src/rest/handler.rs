//! The request handlers: identify → read body → parse → plan → SQL → execute → respond. Failures before the
//! database (bad token, bad query, unknown table) never take a pooled connection.

use super::error::Error;
use super::execute::{self, Decide, TxJob};
use super::plan::{self, MutateKind, Plan, PlanContext, ReadLimits};
use super::request::media::MediaType;
use super::request::preferences::{Return, Tx};
use super::request::{self, ApiRequest, ParseSettings, Resource};
use super::response::{self, Kind, Outcome, Shape};
use super::settings::TxEnd;
use super::sql;
use super::Rest;
use crate::core::context::{self, RequestContext};
use crate::core::db::pipeline::TextRow;
use crate::core::identity::{Rejection, Verified};
use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value};

// The handlers take the request whole: the `HeaderMap` and `Uri` extractors would copy them.
pub async fn relation(State(rest): State<Rest>, Path(name): Path<String>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    answer(rest, Resource::Relation(name), parts.method, parts.uri, parts.headers, body)
        .await
        .unwrap_or_else(IntoResponse::into_response)
}

pub async fn routine(State(rest): State<Rest>, Path(name): Path<String>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    answer(rest, Resource::Routine(name), parts.method, parts.uri, parts.headers, body)
        .await
        .unwrap_or_else(IntoResponse::into_response)
}

pub async fn root(State(rest): State<Rest>, req: Request) -> Response {
    if req.method() == Method::OPTIONS {
        return options_response();
    }
    super::openapi::serve::answer(rest, req).await.unwrap_or_else(IntoResponse::into_response)
}

pub async fn invalid_path() -> Response {
    Error::InvalidPath.into_response()
}

fn options_response() -> Response {
    let mut res = StatusCode::OK.into_response();
    res.headers_mut().insert(header::ALLOW, HeaderValue::from_static(super::allow_on_options::ALLOWED));
    res.headers_mut().insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    res
}

/// The pipeline: identify → read body → parse → plan → SQL → execute → respond.
async fn answer(
    rest: Rest,
    resource: Resource,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, Error> {
    if method == Method::OPTIONS {
        return Ok(options_response());
    }
    let verified = match rest.core.identify(&headers) {
        Ok(verified) => verified,
        Err(e) => return Err(identity_error(&e, &headers, &rest.cache.load())),
    };
    let identity = &verified.identity;
    let body = crate::core::body::read_limited(body, &headers, rest.settings.max_body_bytes)
        .await
        .map_err(|_| Error::PayloadTooLarge)?;
    let parse_settings = ParseSettings { schemas: &rest.settings.schemas, plan_enabled: rest.settings.plan_enabled };
    let req = request::parse(&method, resource, uri.query(), &headers, body, &parse_settings)?;
    if req.prefs.is_strict() && !req.prefs.invalid.is_empty() {
        return Err(Error::StrictPreferences(req.prefs.invalid.clone()));
    }
    let cache = rest.cache.load_full();
    if req.media == MediaType::GeoJson && !cache.has_postgis {
        return Err(Error::MediaType("application/geo+json".into()));
    }
    let ctx = PlanContext {
        limits: ReadLimits { max_rows: rest.settings.max_rows, aggregates_enabled: rest.settings.aggregates_enabled },
        role: &identity.role,
    };
    let plan = plan::plan(&req, &cache, &ctx)?;
    if rest.settings.safe_update {
        refuse_unfiltered(&plan)?;
    }
    let built = build_statement(&plan, &cache, &req);
    let authenticated = !identity.is_anonymous_role(rest.settings.anon_role.as_deref());
    let tx = request_context(&rest, &verified, &req, &uri, &headers, &cache);
    if let MediaType::Plan { json, options, .. } = &req.media {
        let explain = sql::explain(&built.stmt, *json, options);
        let rollback: Decide = Box::new(|_| Ok(false));
        let mut setup: Vec<String> = rest.settings.pre_request_sql().into_iter().collect();
        if options.iter().any(|o| o == "verbose") {
            // shows "Query Identifier" where the platform migration granted the setting
            setup.push(
                "SELECT CASE WHEN has_parameter_privilege('compute_query_id', 'SET') \
                 THEN set_config('compute_query_id', 'on', true) END"
                    .into(),
            );
        }
        let job = TxJob {
            context: tx,
            read_only: built.read_only,
            setup,
            stmt: explain,
            extra: None,
            authenticated,
            commit_in_flight: false,
        };
        let (rows, _) = execute::run(rest.pool(), job, rollback).await?;
        return plan_response(&rows, &req.media, *json);
    }
    let (decide, tx_applied, commit_in_flight) = decider(&req, built.kind, rest.settings.tx_end);
    let planned = match &plan {
        Plan::Read(p) => sql::planned_count_statement(&cache, p),
        _ => None,
    };
    let job = TxJob {
        context: tx,
        read_only: built.read_only,
        setup: rest.settings.pre_request_sql().into_iter().collect(),
        stmt: built.stmt,
        extra: planned,
        authenticated,
        commit_in_flight,
    };
    let (rows, plan_rows) = execute::run(rest.pool(), job, decide).await?;
    let mut outcome = Outcome::from_rows(&rows)?;
    if let Some(estimate) = plan_rows.first().and_then(|r| r.get(0)).and_then(|t| serde_json::from_str::<Value>(t).ok())
    {
        let cap = match &plan {
            Plan::Read(p) => p.count_cap,
            _ => None,
        };
        outcome.total = sql::choose_count(outcome.total, cap, estimate[0]["Plan"]["Plan Rows"].as_i64());
    }
    let location = match &plan {
        Plan::Mutate(p) if req.prefs.return_ == Some(Return::HeadersOnly) => {
            location(&p.table.name.name, &outcome.body)
        }
        _ => None,
    };
    let shape = Shape {
        kind: built.kind,
        head: method == Method::HEAD,
        media: &req.media,
        prefs: &req.prefs,
        offset: built.offset,
        profile: req.schema_negotiated.then_some(req.schema.as_str()),
        representation: built.representation,
        location,
        tx_applied,
        timezone: applied_timezone(&req, &cache),
    };
    response::build(outcome, &shape)
}

/// A plan's statement and how its result becomes a response.
struct Built {
    stmt: sql::fragment::Statement,
    read_only: bool,
    kind: Kind,
    offset: i64,
    representation: bool,
}

fn build_statement(plan: &Plan, cache: &super::schema_cache::SchemaCache, req: &ApiRequest) -> Built {
    let body = String::from_utf8_lossy(&req.body);
    match plan {
        Plan::Read(p) => Built {
            stmt: sql::read_statement(cache, p, &req.media),
            read_only: true,
            kind: Kind::Read,
            offset: p.root.range.offset,
            representation: true,
        },
        Plan::Mutate(p) => {
            let kind = match p.kind {
                MutateKind::Insert { .. } => Kind::Insert { merge: plan::mutate::is_merge(p) },
                MutateKind::Update { .. } => Kind::Update,
                MutateKind::Delete => Kind::Delete,
            };
            let headers_only = req.prefs.return_ == Some(Return::HeadersOnly);
            let stmt = sql::mutate::mutate_statement(cache, p, &req.media, &body, headers_only);
            Built { stmt, read_only: false, kind, offset: 0, representation: p.representation }
        }
        Plan::Call(p) => {
            let void = matches!(p.routine.returns, super::schema_cache::ReturnShape::Scalar { void: true, .. });
            Built {
                stmt: sql::call::call_statement(cache, p, &req.media, &body),
                read_only: p.read_only,
                kind: Kind::Call { void },
                offset: p.read.range.offset,
                representation: true,
            }
        }
    }
}

/// pg-safeupdate's guard, which Supabase loads for its API role: an `UPDATE` or `DELETE` without a filter is refused
/// (21000 → 400) before it reaches the database.
fn refuse_unfiltered(plan: &Plan) -> Result<(), Error> {
    let Plan::Mutate(p) = plan else { return Ok(()) };
    let statement = match &p.kind {
        MutateKind::Update { columns } if !columns.is_empty() => "UPDATE",
        MutateKind::Delete => "DELETE",
        _ => return Ok(()),
    };
    if !p.conds.is_empty() {
        return Ok(());
    }
    Err(Error::Db {
        code: "21000".into(),
        message: format!("{statement} requires a WHERE clause"),
        details: None,
        hint: None,
        authenticated: false,
    })
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

/// A rejected caller in PostgREST's terms: token errors as PGRST301/303, a role the gateway never switches to
/// as PostgreSQL would report `SET ROLE` (22023 unknown role → 401, 42501 not granted → 403).
pub(super) fn identity_error(e: &Rejection, headers: &HeaderMap, cache: &super::schema_cache::SchemaCache) -> Error {
    match e {
        Rejection::RoleNotAllowed(role) if !cache.roles.contains(role) => Error::Db {
            code: "22023".into(),
            message: format!("role \"{role}\" does not exist"),
            details: None,
            hint: None,
            authenticated: true,
        },
        Rejection::RoleNotAllowed(role) => Error::Db {
            code: "42501".into(),
            message: format!("permission denied to set role \"{role}\""),
            details: None,
            hint: None,
            authenticated: true,
        },
        other => Error::Jwt(super::error::jwt::describe(other, crate::core::identity::bearer_token(headers))),
    }
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
fn location(table: &str, body: &str) -> Option<String> {
    let rows: Vec<Map<String, Value>> = serde_json::from_str(body).ok()?;
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

/// `Prefer: timezone=…` when PostgreSQL knows the zone (otherwise ignored, as PostgREST does).
fn applied_timezone<'a>(req: &'a ApiRequest, cache: &super::schema_cache::SchemaCache) -> Option<&'a str> {
    req.prefs.timezone.as_deref().filter(|tz| cache.timezones.contains(*tz))
}

/// What the preamble tells SQL about this request: the one request context, on the request's schema, with the
/// `Prefer: timezone` PostgreSQL knows.
pub(super) fn request_context(
    rest: &Rest,
    verified: &Verified,
    req: &ApiRequest,
    uri: &Uri,
    headers: &HeaderMap,
    cache: &super::schema_cache::SchemaCache,
) -> RequestContext {
    let path = uri.path();
    let request =
        context::Request { method: req.method.as_str(), path: path.strip_prefix("/rest/v1").unwrap_or(path), headers };
    let search_path = rest.settings.search_path(&req.schema);
    let mut context = rest.core.context(verified, &request, search_path);
    if let Some(tz) = applied_timezone(req, cache) {
        context.role_settings.push(("timezone".into(), tz.to_string()));
    }
    context
}
