//! The request handlers: identify → read body → parse → plan → SQL → execute → respond. Failures before the
//! database (bad token, bad query, unknown table) never take a pooled connection.

use super::caller::{identity_error, request_context};
use super::error::Error;
use super::plan::{self, Plan, PlanContext, ReadLimits};
use super::request::media::MediaType;
use super::request::{self, ApiRequest, ParseConfig, Resource};
use super::run::{self, Planned};
use super::schema_cache::SchemaCache;
use super::statement;
use super::Rest;
use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

// The handlers take the request whole (`rest::service` routes to them): extractors would copy its parts.
pub async fn relation(rest: Rest, name: String, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    answer(rest, Resource::Relation(name), parts.method, parts.uri, parts.headers, body)
        .await
        .unwrap_or_else(IntoResponse::into_response)
}

pub async fn routine(rest: Rest, name: String, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    answer(rest, Resource::Routine(name), parts.method, parts.uri, parts.headers, body)
        .await
        .unwrap_or_else(IntoResponse::into_response)
}

pub async fn root(rest: Rest, req: Request) -> Response {
    if req.method() == Method::OPTIONS {
        return options_response();
    }
    super::openapi::serve::answer(rest, req).await.unwrap_or_else(IntoResponse::into_response)
}

pub fn invalid_path() -> Response {
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
    let body = crate::core::body::read_limited(body, &headers, rest.config.max_body_bytes)
        .await
        .map_err(|_| Error::PayloadTooLarge)?;
    let req = parse(&rest, &method, resource, &uri, &headers, body)?;
    let cache = rest.cache.load_full();
    let plan = plan(&rest, &req, &cache, &verified.identity.role)?;
    let built = statement::build_statement(&plan, &cache, &req);
    let authenticated = !verified.identity.is_anonymous_role(rest.config.anon_role.as_deref());
    let context = request_context(&rest, &verified, &req, &uri, &headers, &cache);
    let source = super::replica::source(&method, &headers);
    let planned = Planned { req: &req, plan: &plan, cache: &cache, authenticated, source };
    run::run(&rest, &planned, built, context, &method).await
}

/// The request's intent, with unknown preferences refused under `handling=strict`.
fn parse(
    rest: &Rest,
    method: &Method,
    resource: Resource,
    uri: &Uri,
    headers: &HeaderMap,
    body: Bytes,
) -> Result<ApiRequest, Error> {
    let parse_config = ParseConfig { schemas: &rest.config.schemas, plan_enabled: rest.config.plan_enabled };
    let req = request::parse(method, resource, uri.query(), headers, body, &parse_config)?;
    if req.prefs.is_strict() && !req.prefs.invalid.is_empty() {
        return Err(Error::StrictPreferences(req.prefs.invalid.clone()));
    }
    Ok(req)
}

/// The intent resolved against the schema cache, with pg-safeupdate's guard when it is on.
fn plan(rest: &Rest, req: &ApiRequest, cache: &SchemaCache, role: &str) -> Result<Plan, Error> {
    if req.media == MediaType::GeoJson && !cache.has_postgis {
        return Err(Error::MediaType("application/geo+json".into()));
    }
    let config = &rest.config;
    let ctx = PlanContext {
        limits: ReadLimits { max_rows: config.max_rows, aggregates_enabled: config.aggregates_enabled },
        role,
    };
    let plan = plan::plan(req, cache, &ctx)?;
    if config.safe_update {
        statement::refuse_unfiltered(&plan)?;
    }
    Ok(plan)
}
