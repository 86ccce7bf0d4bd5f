//! HTTP → intent: the resource, the schema (profile), the parsed query string, preferences and media type.
//! Pure: nothing here looks at the database or the schema cache, so whether the intent is sensible is decided
//! by the plan stage.

mod cursor;
pub mod filter;
pub mod media;
pub mod payload;
pub mod preferences;
pub mod query_params;
pub mod types;

use crate::rest::error::Error;
use bytes::Bytes;
use http::{HeaderMap, HeaderName, Method};
use media::MediaType;
use preferences::Preferences;
use std::collections::BTreeMap;
use types::*;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resource {
    Relation(String),
    Routine(String),
}

/// The parsed query string.
#[derive(Debug, Clone, Default)]
pub struct QueryParams {
    pub select: Vec<SelectItem>,
    pub filters: Vec<(EmbedPath, Filter)>,
    pub logic: Vec<(EmbedPath, LogicTree)>,
    pub order: Vec<(EmbedPath, Vec<OrderTerm>)>,
    pub ranges: BTreeMap<EmbedPath, Range>,
    pub columns: Option<Vec<String>>,
    pub on_conflict: Option<Vec<String>>,
    /// For GET/HEAD RPC: parameters whose value is not an operator expression (the function's arguments).
    pub rpc_args: Vec<(String, String)>,
}

/// Everything the client asked for, unchecked.
#[derive(Debug, Clone)]
pub struct ApiRequest {
    pub method: Method,
    pub resource: Resource,
    pub schema: String,
    /// Whether the schema came from a profile header (then `Content-Profile` is echoed).
    pub schema_negotiated: bool,
    pub query: QueryParams,
    pub prefs: Preferences,
    pub media: MediaType,
    pub body: Bytes,
    pub content_type: Option<String>,
}

/// Settings the parser needs.
pub struct ParseConfig<'a> {
    pub schemas: &'a [String],
    pub plan_enabled: bool,
}

/// Builds the request intent.
pub fn parse(
    method: &Method,
    resource: Resource,
    raw_query: Option<&str>,
    headers: &HeaderMap,
    body: Bytes,
    settings: &ParseConfig,
) -> Result<ApiRequest, Error> {
    let (schema, schema_negotiated) = schema(method, headers, settings)?;
    let is_rpc_read = matches!(resource, Resource::Routine(_)) && matches!(*method, Method::GET | Method::HEAD);
    let mut query = parse_query(raw_query.unwrap_or(""), is_rpc_read)?;
    if *method == Method::GET {
        if let Some(r) = headers.get(http::header::RANGE).and_then(|v| v.to_str().ok()).and_then(parse_range_header) {
            let root = query.ranges.entry(vec![]).or_default();
            intersect_range(root, r);
        }
    }
    let accept = headers.get(http::header::ACCEPT).and_then(|v| v.to_str().ok());
    let media = media::negotiate(accept, settings.plan_enabled)?;
    let mut content_type = headers.get(http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_string);
    let mut body = body;
    let writes = matches!(*method, Method::POST | Method::PATCH | Method::PUT);
    if let Some(json) = payload::to_json(content_type.as_deref(), &body)?.filter(|_| writes) {
        body = json;
        content_type = Some("application/json".into());
    }
    Ok(ApiRequest {
        method: method.clone(),
        resource,
        schema,
        schema_negotiated,
        query,
        prefs: Preferences::from_headers(headers),
        media,
        body,
        content_type,
    })
}

/// The schema the request names (`Accept-Profile` on reads, `Content-Profile` on writes; PGRST106 for one that is
/// not exposed), and whether a profile is part of the answer.
fn schema(method: &Method, headers: &HeaderMap, settings: &ParseConfig) -> Result<(String, bool), Error> {
    // named once: a name given as text is parsed on every lookup
    static ACCEPT_PROFILE: HeaderName = HeaderName::from_static("accept-profile");
    static CONTENT_PROFILE: HeaderName = HeaderName::from_static("content-profile");
    let schema_negotiated_header = if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        &ACCEPT_PROFILE
    } else {
        &CONTENT_PROFILE
    };
    let profile = headers.get(schema_negotiated_header).and_then(|v| v.to_str().ok()).map(str::trim);
    let schema = match profile {
        Some(p) if settings.schemas.iter().any(|s| s == p) => p.to_string(),
        Some(p) => return Err(Error::InvalidSchema { schema: p.to_string(), exposed: settings.schemas.to_vec() }),
        None => settings.schemas.first().cloned().unwrap_or_else(|| "public".into()),
    };
    Ok((schema, profile.is_some() || settings.schemas.len() > 1))
}

/// `Range: [items=]a-[b]` → (offset, limit).
fn parse_range_header(v: &str) -> Option<(i64, Option<i64>)> {
    let v = v.trim();
    let v = v.strip_prefix("items=").unwrap_or(v);
    let (a, b) = v.split_once('-')?;
    let from: i64 = a.trim().parse().ok()?;
    let to: Option<i64> = if b.trim().is_empty() { None } else { Some(b.trim().parse().ok()?) };
    match to {
        Some(t) if t < from => None,
        _ => Some((from, to.map(|t| t - from + 1))),
    }
}

fn intersect_range(r: &mut Range, (offset, limit): (i64, Option<i64>)) {
    let start = r.offset.max(offset);
    let end_a = r.limit.map(|l| r.offset + l);
    let end_b = limit.map(|l| offset + l);
    let end = match (end_a, end_b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    r.offset = start;
    r.limit = end.map(|e| (e - start).max(0));
}

/// Splits the form-decoded query string into select, filters, logic trees, order, ranges and the rest.
pub fn parse_query(raw: &str, is_rpc_read: bool) -> Result<QueryParams, Error> {
    let mut q = QueryParams::default();
    let mut select = None;
    for (key, value) in url::form_urlencoded::parse(raw.as_bytes()) {
        let (key, value) = (key.into_owned(), value.into_owned());
        match key.as_str() {
            "select" => select = Some(query_params::parse_select(&value)?),
            "columns" => q.columns = Some(query_params::parse_columns("columns", &value)?),
            "on_conflict" => q.on_conflict = Some(query_params::parse_columns("on_conflict", &value)?),
            _ => add_param(&mut q, key, value, is_rpc_read)?,
        }
    }
    q.select = select.unwrap_or_else(|| vec![SelectItem::Star]);
    Ok(q)
}

/// A logic tree, an order, a limit or offset (each on an embed path), a filter, or an RPC read's argument.
fn add_param(q: &mut QueryParams, key: String, value: String, is_rpc_read: bool) -> Result<(), Error> {
    if let Some((path, negated, is_or)) = query_params::logic_key(&key) {
        q.logic.push((path, query_params::parse_logic(negated, is_or, &value)?));
        return Ok(());
    }
    let (path, last) = match key.rsplit_once('.') {
        Some((p, l)) => (p.split('.').map(str::to_string).collect::<Vec<_>>(), l),
        None => (vec![], key.as_str()),
    };
    match last {
        "order" => q.order.push((path, query_params::parse_order(&value)?)),
        "limit" => q.ranges.entry(path).or_default().limit = Some(query_params::parse_integer("limit", &value)?),
        "offset" => q.ranges.entry(path).or_default().offset = query_params::parse_integer("offset", &value)?,
        _ => return add_filter(q, key, value, is_rpc_read),
    }
    Ok(())
}

/// A filter, or an RPC read's argument (a key that is no filter).
fn add_filter(q: &mut QueryParams, key: String, value: String, is_rpc_read: bool) -> Result<(), Error> {
    let expr = query_params::parse_op_expr(&value);
    if is_rpc_read && expr.is_err() && !key.contains('.') {
        q.rpc_args.push((key, value));
        return Ok(());
    }
    let (path, field) = query_params::parse_filter_key(&key)?;
    q.filters.push((path, Filter { field, expr: expr? }));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_the_query_string() {
        let q = parse_query(
            "select=id%2Cname&name=eq.a+b%2Bc&or=(a.eq.1,b.gt.2)&order=id.desc.nullslast&offset=5&limit=10&msgs.limit=2&msgs.order=name",
            false,
        )
        .unwrap();
        assert_eq!(q.select.len(), 2);
        assert_eq!(q.filters.len(), 1);
        assert_eq!(
            q.filters[0].1.expr.operation,
            Operation::Simple { op: SimpleOp::Eq, quantifier: None, value: "a b+c".into() }
        );
        assert_eq!(q.logic.len(), 1);
        assert_eq!(q.ranges[&vec![]], Range { offset: 5, limit: Some(10) });
        assert_eq!(q.ranges[&vec!["msgs".to_string()]], Range { offset: 0, limit: Some(2) });
        assert_eq!(q.order.len(), 2);
    }

    #[test]
    fn rpc_reads_keep_plain_values_as_arguments() {
        let q = parse_query("x=1&arr=%7B1,2%7D&id=gt.3", true).unwrap();
        assert_eq!(q.rpc_args, vec![("x".into(), "1".into()), ("arr".into(), "{1,2}".into())]);
        assert_eq!(q.filters.len(), 1);
        assert!(parse_query("x=1", false).is_err());
    }

    #[test]
    fn range_header_intersects_limit_and_offset() {
        assert_eq!(parse_range_header("0-9"), Some((0, Some(10))));
        assert_eq!(parse_range_header("items=5-"), Some((5, None)));
        assert_eq!(parse_range_header("9-1"), None);
        let mut r = Range { offset: 2, limit: Some(5) };
        intersect_range(&mut r, (0, Some(4)));
        assert_eq!(r, Range { offset: 2, limit: Some(2) });
    }
}
