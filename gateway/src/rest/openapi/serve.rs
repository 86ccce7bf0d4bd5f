//! The `GET /rest/v1/` handler: identify the caller, pick the schema (`Accept-Profile`), ask in the caller's own
//! request transaction what the caller may use (so `follow-privileges` sees the caller's grants), and answer the
//! document of the schema cache's catalog.

use super::{document, ForeignKeys, Options};
use crate::core::catalog::lookup::{Access, ACCESS_SQL};
use crate::rest::error::Error;
use crate::rest::execute::{self, Decide, TxJob};
use crate::rest::fragment::{Param, Statement};
use crate::rest::request::{self, ApiRequest, ParseConfig, Resource};
use crate::rest::schema_cache::{Cardinality, SchemaCache};
use crate::rest::Rest;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::Response;

/// The media type of the document (PostgREST answers it for `application/openapi+json`, `application/json` and
/// any wildcard).
pub const CONTENT_TYPE: &str = "application/openapi+json; charset=utf-8";

/// The PostgREST release whose document this follows (`info.version`).
pub const POSTGREST_VERSION: &str = "14.1";

pub async fn answer(rest: Rest, req: Request) -> Result<Response, Error> {
    let (parts, _body) = req.into_parts();
    if !matches!(parts.method, Method::GET | Method::HEAD) {
        return Err(Error::Method(parts.method.to_string()));
    }
    let openapi = &rest.config.openapi;
    let Some(mode) = openapi.mode else { return Err(Error::RootDisabled) };
    let headers = &parts.headers;
    let verified = rest
        .core
        .identify(headers)
        .map_err(|e| crate::rest::caller::identity_error(&e, headers, &rest.cache.load()))?;
    let api_req = document_request(&rest, &parts.method, headers)?;
    let cache = rest.cache.load_full();
    let tx = crate::rest::caller::request_context(&rest, &verified, &api_req, &parts.uri, headers, &cache);
    let job = TxJob {
        context: tx,
        read_only: true,
        setup: vec![],
        stmt: Statement { sql: ACCESS_SQL.into(), params: vec![Param(Some(api_req.schema.clone()))] },
        extra: None,
        authenticated: !verified.identity.is_anonymous_role(rest.config.anon_role.as_deref()),
        commit_in_flight: false,
    };
    let rollback: Decide = Box::new(|_| Ok(false));
    let (rows, _) = execute::run(rest.pool(), job, rollback).await?;
    let text = rows.first().and_then(|r| r.get(0)).unwrap_or("{}");
    let access = Access::parse(text).map_err(|e| Error::Connection(format!("catalog: {e}")))?;
    let catalog = super::catalog::describe(&cache.catalog, &api_req.schema, access);
    let options = Options { mode, ..openapi.options.clone() };
    let doc = document(&catalog, &foreign_keys(&cache, &api_req.schema), &options);
    let profile = api_req.schema_negotiated.then_some(api_req.schema.as_str());
    Ok(respond(&doc, parts.method == Method::HEAD, profile))
}

/// The request's schema and preferences; `Accept` is judged here, not by the data API's media types.
fn document_request(rest: &Rest, method: &Method, headers: &HeaderMap) -> Result<ApiRequest, Error> {
    let mut plain = headers.clone();
    let accept = plain.remove(header::ACCEPT);
    let settings = ParseConfig { schemas: &rest.config.schemas, plan_enabled: false };
    let api_req =
        request::parse(method, Resource::Relation(String::new()), None, &plain, Default::default(), &settings)?;
    if let Some(accept) = accept.as_ref().and_then(|v| v.to_str().ok()) {
        if !accepts_document(accept) {
            return Err(Error::MediaType(accept.to_string()));
        }
    }
    Ok(api_req)
}

fn respond(doc: &serde_json::Value, head: bool, profile: Option<&str>) -> Response {
    let body = if head { Body::empty() } else { Body::from(doc.to_string()) };
    let mut res = Response::new(body);
    *res.status_mut() = StatusCode::OK;
    let h: &mut HeaderMap = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE));
    if let Some(p) = profile.and_then(|p| HeaderValue::from_str(p).ok()) {
        h.insert("content-profile", p);
    }
    res
}

/// Whether an `Accept` header admits the document (a range with `q` above zero naming it or a wildcard).
pub fn accepts_document(accept: &str) -> bool {
    accept.split(',').any(|range| {
        let mut parts = range.split(';').map(str::trim);
        let essence = parts.next().unwrap_or("").to_ascii_lowercase();
        let refused = parts.any(|p| p.strip_prefix("q=").and_then(|q| q.trim().parse::<f32>().ok()) == Some(0.0));
        !refused
            && matches!(
                essence.as_str(),
                "" | "*/*" | "application/*" | "application/openapi+json" | "application/json"
            )
    })
}

/// Single-column foreign keys of the schema's tables, as the document notes them.
fn foreign_keys(cache: &SchemaCache, schema: &str) -> ForeignKeys {
    let mut fks = ForeignKeys::new();
    for (source, rels) in cache.relationships.iter().filter(|(s, _)| s.schema == schema) {
        for rel in rels {
            let holds_key = matches!(rel.cardinality, Cardinality::M2O | Cardinality::O2O { source_holds_key: true });
            if let ([(col, target_col)], true, false) = (rel.columns.as_slice(), holds_key, rel.via_view) {
                fks.insert((source.name.clone(), col.clone()), (rel.target.name.clone(), target_col.clone()));
            }
        }
    }
    fks
}

#[cfg(test)]
mod tests {
    use super::accepts_document;

    #[test]
    fn the_document_is_served_for_json_openapi_and_wildcards_only() {
        for ok in ["*/*", "application/json", "application/openapi+json", "text/html, */*;q=0.1", "application/*"] {
            assert!(accepts_document(ok), "{ok}");
        }
        for refused in ["text/csv", "application/openapi+json;q=0", "application/vnd.pgrst.object+json"] {
            assert!(!accepts_document(refused), "{refused}");
        }
    }
}
