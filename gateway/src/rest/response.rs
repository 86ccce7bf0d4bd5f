//! Statement result → HTTP response: status (200/201/204/206, or the `response.status` GUC), `Content-Range`,
//! `Preference-Applied`, `Content-Profile`, `Location`, headers from the `response.headers` GUC, and the body.

use crate::core::db::pipeline::TextRow;
use crate::rest::error::Error;
use crate::rest::fragment::push_int;
use crate::rest::request::media::MediaType;
use crate::rest::request::preferences::{Count, Preferences, Resolution, Return, Tx};
use axum::body::Body;
use axum::http::{header, HeaderName, HeaderValue, Response, StatusCode};
use bytes::Bytes;

/// The one row every main statement returns.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub total: Option<i64>,
    pub page_total: i64,
    /// The body PostgreSQL rendered, passed through as its bytes (never parsed or copied).
    pub body: Bytes,
    pub headers: Option<String>,
    pub status: Option<String>,
    pub inserted: Option<i32>,
}

impl Outcome {
    pub fn from_rows(rows: &[TextRow]) -> Result<Self, Error> {
        // the wrapped statements always answer one row; a lean insert answers none only when a trigger added
        // since the schema cache was loaded skipped the row: nothing was written
        let Some(row) = rows.first() else { return Ok(Outcome::default()) };
        if row.len() != 6 {
            return Err(Error::Internal(format!("statement returned {} columns, not 6", row.len())));
        }
        Ok(Outcome {
            total: number(row, 0)?,
            page_total: number(row, 1)?.unwrap_or(0),
            body: row.bytes(2).unwrap_or_default(),
            headers: row.get(3).map(str::to_string),
            status: row.get(4).map(str::to_string),
            inserted: number(row, 5)?,
        })
    }
}

fn number<T: std::str::FromStr>(row: &TextRow, i: usize) -> Result<Option<T>, Error> {
    row.get(i).map(|v| v.parse().map_err(|_| Error::Internal(format!("column {i} is not a number: {v}")))).transpose()
}

/// What kind of response is being built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Read,
    Insert { merge: bool },
    Update,
    Delete,
    Call { void: bool },
}

/// Everything besides the outcome that shapes the response.
pub struct Shape<'a> {
    pub kind: Kind,
    pub head: bool,
    pub media: &'a MediaType,
    pub prefs: &'a Preferences,
    pub offset: i64,
    pub profile: Option<&'a str>,
    pub representation: bool,
    pub location: Option<String>,
    /// Whether the `tx` preference was honoured.
    pub tx_applied: bool,
    /// The `timezone` preference, when applied.
    pub timezone: Option<&'a str>,
}

/// `Preference-Applied` for what was honoured.
fn applied(shape: &Shape) -> Vec<String> {
    let p = shape.prefs;
    let mut out = vec![];
    if let Some(r) = p.resolution {
        out.push(resolution_word(r).to_string());
    }
    if p.missing_default == Some(true) {
        out.push("missing=default".into());
    }
    if let Some(r) = p.return_.filter(|_| !matches!(shape.kind, Kind::Read)) {
        out.push(return_word(r).into());
    }
    if let Some(c) = p.count {
        out.push(count_word(c).into());
    }
    if let Some(t) = p.tx.filter(|_| shape.tx_applied) {
        out.push(if t == Tx::Commit { "tx=commit".into() } else { "tx=rollback".into() });
    }
    if let Some(tz) = shape.timezone {
        out.push(format!("timezone={tz}"));
    }
    if p.strict == Some(false) {
        out.push("handling=lenient".into());
    }
    if p.is_strict() {
        out.push("handling=strict".into());
        if let Some(n) = p.max_affected {
            out.push(format!("max-affected={n}"));
        }
    }
    out
}

fn resolution_word(r: Resolution) -> &'static str {
    match r {
        Resolution::MergeDuplicates => "resolution=merge-duplicates",
        Resolution::IgnoreDuplicates => "resolution=ignore-duplicates",
    }
}

fn return_word(r: Return) -> &'static str {
    match r {
        Return::Minimal => "return=minimal",
        Return::HeadersOnly => "return=headers-only",
        Return::Representation => "return=representation",
    }
}

fn count_word(c: Count) -> &'static str {
    match c {
        Count::Exact => "count=exact",
        Count::Planned => "count=planned",
        Count::Estimated => "count=estimated",
    }
}

fn content_range(offset: i64, page_total: i64, total: Option<i64>) -> String {
    let mut out = String::with_capacity(48);
    if page_total <= 0 {
        out.push('*');
    } else {
        push_int(&mut out, offset);
        out.push('-');
        push_int(&mut out, offset + page_total - 1);
    }
    match total {
        Some(t) => {
            out.push('/');
            push_int(&mut out, t);
        }
        None => out.push_str("/*"),
    }
    out
}

/// The response headers this stage names, parsed once rather than from a string on every response.
static CONTENT_RANGE: HeaderName = HeaderName::from_static("content-range");
static CONTENT_PROFILE: HeaderName = HeaderName::from_static("content-profile");
static PREFERENCE_APPLIED: HeaderName = HeaderName::from_static("preference-applied");

/// The response: status, headers and body.
pub fn build(outcome: Outcome, shape: &Shape) -> Result<Response<Body>, Error> {
    let total = match shape.kind {
        Kind::Read | Kind::Call { .. } => outcome.total,
        _ if shape.prefs.count.is_some() => Some(outcome.page_total),
        _ => None,
    };
    let (mut status, range) = status_and_range(&outcome, shape, total)?;
    if let Some(s) = outcome.status.as_deref() {
        status = s
            .trim()
            .parse::<u16>()
            .ok()
            .and_then(|n| StatusCode::from_u16(n).ok())
            .ok_or_else(|| Error::Internal(format!("invalid response.status: {s}")))?;
    }
    let has_body = match shape.kind {
        Kind::Read | Kind::Call { void: false } => !shape.head,
        Kind::Call { void: true } => false,
        _ => shape.representation && !shape.head,
    };
    let mut res = Response::builder().status(status);
    let h = res.headers_mut().ok_or_else(|| Error::Internal("response builder".into()))?;
    add_headers(h, shape, &range, has_body, outcome.headers.as_deref())?;
    let body = if has_body { outcome.body } else { Bytes::new() };
    let body = if status == StatusCode::NO_CONTENT { Body::empty() } else { Body::from(body) };
    res.body(body).map_err(|e| Error::Internal(e.to_string()))
}

/// The status by kind (206 for a partial page) and the `Content-Range`; an offset past the end is refused.
fn status_and_range(outcome: &Outcome, shape: &Shape, total: Option<i64>) -> Result<(StatusCode, String), Error> {
    let all = || content_range(0, 0, total);
    let with_body = if shape.representation { StatusCode::OK } else { StatusCode::NO_CONTENT };
    Ok(match shape.kind {
        Kind::Read | Kind::Call { void: false } => {
            if let Some(t) = total.filter(|t| shape.offset > *t && *t >= 0) {
                let message = format!("An offset of {} was requested, but there are only {t} rows.", shape.offset);
                return Err(Error::Range(message));
            }
            let st = match total {
                Some(t) if outcome.page_total < t => StatusCode::PARTIAL_CONTENT,
                _ => StatusCode::OK,
            };
            (st, content_range(shape.offset, outcome.page_total, total))
        }
        Kind::Call { void: true } => (StatusCode::NO_CONTENT, content_range(0, outcome.page_total, total)),
        Kind::Insert { merge } => {
            let updated_only = merge && outcome.inserted.is_some_and(|n| n <= 0) && outcome.page_total > 0;
            (if updated_only { StatusCode::OK } else { StatusCode::CREATED }, all())
        }
        Kind::Update => (with_body, content_range(0, outcome.page_total, total)),
        Kind::Delete => (with_body, all()),
    })
}

/// `Content-Range`, the content type (HEAD describes the body GET would send), the profile, `Location`,
/// `Preference-Applied` and the headers of the `response.headers` GUC.
fn add_headers(
    h: &mut http::HeaderMap,
    shape: &Shape,
    range: &str,
    has_body: bool,
    gucs: Option<&str>,
) -> Result<(), Error> {
    // room for these, CORS and security headers up front: growing the map later rehashes it
    h.reserve(12);
    h.insert(&CONTENT_RANGE, hv(range)?);
    let typed_head = shape.head && matches!(shape.kind, Kind::Read | Kind::Call { void: false });
    if has_body || typed_head {
        let value = match shape.media.content_type() {
            std::borrow::Cow::Borrowed(s) => HeaderValue::from_static(s),
            std::borrow::Cow::Owned(s) => hv(&s)?,
        };
        h.insert(header::CONTENT_TYPE, value);
    }
    if let Some(p) = shape.profile {
        h.insert(&CONTENT_PROFILE, hv(p)?);
    }
    if let Some(l) = &shape.location {
        h.insert(header::LOCATION, hv(l)?);
    }
    let applied = applied(shape);
    if !applied.is_empty() {
        h.insert(&PREFERENCE_APPLIED, hv(&applied.join(", "))?);
    }
    match gucs {
        Some(gucs) => add_guc_headers(h, gucs),
        None => Ok(()),
    }
}

fn hv(s: &str) -> Result<HeaderValue, Error> {
    HeaderValue::from_str(s).map_err(|e| Error::Internal(format!("header value: {e}")))
}

/// `response.headers` = `[{"Name":"value"}, …]`
fn add_guc_headers(h: &mut http::HeaderMap, gucs: &str) -> Result<(), Error> {
    let invalid = || {
        Error::Internal(
            "response.headers GUC must be a JSON array composed of objects with a single key and a string value".into(),
        )
    };
    let v: serde_json::Value = serde_json::from_str(gucs).map_err(|_| invalid())?;
    for item in v.as_array().ok_or_else(invalid)? {
        for (k, v) in item.as_object().ok_or_else(invalid)? {
            let name = HeaderName::from_bytes(k.as_bytes()).map_err(|_| invalid())?;
            let value = v.as_str().ok_or_else(invalid)?;
            h.append(name, hv(value)?);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_range_like_postgrest() {
        assert_eq!(content_range(0, 10, Some(57)), "0-9/57");
        assert_eq!(content_range(0, 0, Some(0)), "*/0");
        assert_eq!(content_range(5, 2, None), "5-6/*");
    }
}
