//! Turning a resolved route into a response: files, pages with the runtime config, and data-rendered pages.

use super::manifest::qualified_function;
use super::resolve::{resolve, Resolved};
use super::Site;
use crate::core::context::{self, RequestContext};
use crate::core::db::request_tx::preamble;
use crate::core::identity::Verified;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use std::path::Path;

const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";

/// What a decoded path must have encoded again to be sent as a `Location` path.
const LOCATION_PATH: &percent_encoding::AsciiSet =
    &percent_encoding::CONTROLS.add(b' ').add(b'"').add(b'#').add(b'%').add(b'<').add(b'>').add(b'?').add(b'`');

/// A form posted to a page is small (a token, a few fields).
const MAX_POST_BYTES: usize = 16 * 1024;

pub async fn respond(state: &Site, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let method = parts.method.clone();
    let query = parts.uri.query().unwrap_or_default();
    let (Some(dir), Ok(path)) = (&state.dir, percent_encoding::percent_decode_str(parts.uri.path()).decode_utf8())
    else {
        return plain(StatusCode::NOT_FOUND, "Not Found");
    };
    let resolved = resolve(dir, &state.manifest, &path);
    let posted = match (&method, &resolved) {
        (&Method::GET | &Method::HEAD, _) => None,
        (&Method::POST, Resolved::Dynamic { post: Some(_), .. }) => match read_post(body).await {
            Ok(text) => Some(text),
            Err(refusal) => return refusal,
        },
        (_, Resolved::Dynamic { post: Some(_), .. }) => return not_allowed("GET, HEAD, POST"),
        _ => return not_allowed("GET, HEAD"),
    };
    let context = page_context(state, &method, &path, &parts.headers);
    let request = PageRequest { path: &path, query, posted: posted.as_deref() };
    let mut response = answer(state, dir, resolved, &request, &context).await;
    if method == Method::HEAD {
        *response.body_mut() = Body::empty();
    }
    response
}

fn not_allowed(allow: &'static str) -> Response {
    (StatusCode::METHOD_NOT_ALLOWED, [(header::ALLOW, allow)], "Method Not Allowed").into_response()
}

/// The body of a form posted to a page, as text: at most MAX_POST_BYTES of UTF-8.
async fn read_post(body: Body) -> Result<String, Response> {
    let bytes = axum::body::to_bytes(body, MAX_POST_BYTES)
        .await
        .map_err(|_| plain(StatusCode::PAYLOAD_TOO_LARGE, "The form is too large."))?;
    String::from_utf8(bytes.to_vec()).map_err(|_| plain(StatusCode::BAD_REQUEST, "The form is not valid UTF-8."))
}

/// The context a page function runs in: the anonymous role (a page is the same for everyone), with the request
/// as every API gives it to SQL.
fn page_context(state: &Site, method: &Method, path: &str, headers: &HeaderMap) -> RequestContext {
    let anon = Verified::tokenless(state.core.config.anon_role.as_deref().unwrap_or("anon"));
    let request = context::Request { method: method.as_str(), path, headers };
    state.core.context(&anon, &request, context::DEFAULT_SEARCH_PATH.into())
}

/// What a page function may read of the request: the decoded path, the raw query string and a posted form.
struct PageRequest<'a> {
    path: &'a str,
    query: &'a str,
    posted: Option<&'a str>,
}

async fn answer(
    state: &Site,
    dir: &Path,
    resolved: Resolved,
    request: &PageRequest<'_>,
    context: &RequestContext,
) -> Response {
    match resolved {
        Resolved::File(file) => match tokio::fs::read(&file).await {
            Ok(bytes) => file_response(request.path, &file, bytes),
            Err(_) => not_found(state, dir).await,
        },
        Resolved::Page { file, status } => page(state, &file, status, None).await,
        Resolved::Dynamic { file, function, arg, query, post } => {
            let (function, args, read_only) = match (request.posted, post) {
                (Some(form), Some(post)) => (post, vec![arg.as_str(), request.query, form], false),
                _ if query => (function, vec![arg.as_str(), request.query], true),
                _ => (function, vec![arg.as_str()], true),
            };
            match call(state, &function, &args, read_only, context).await {
                Ok(text) => {
                    let rendered: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
                    let status = rendered["status"].as_u64().and_then(|s| u16::try_from(s).ok()).unwrap_or(200);
                    let head = rendered["head"].as_str().unwrap_or_default();
                    let body = rendered["body"].as_str().unwrap_or_default();
                    page(state, &file, status, Some((head, body))).await
                }
                Err(e) => {
                    tracing::error!(error = %e, %function, "site page function failed");
                    plain(StatusCode::SERVICE_UNAVAILABLE, "The page could not be rendered; please try again.")
                }
            }
        }
        Resolved::Generated { function, content_type } => match call(state, &function, &[], true, context).await {
            Ok(text) => ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache".into())], text)
                .into_response(),
            Err(e) => {
                tracing::error!(error = %e, %function, "site document function failed");
                plain(StatusCode::SERVICE_UNAVAILABLE, "The document could not be generated; please try again.")
            }
        },
        Resolved::Redirect(to) => {
            let to = percent_encoding::utf8_percent_encode(&to, LOCATION_PATH);
            let query = if request.query.is_empty() { String::new() } else { format!("?{}", request.query) };
            (StatusCode::PERMANENT_REDIRECT, [(header::LOCATION, format!("{to}{query}"))]).into_response()
        }
        Resolved::NotFound => not_found(state, dir).await,
    }
}

async fn not_found(state: &Site, dir: &Path) -> Response {
    let file = dir.join("404.html");
    if file.is_file() {
        page(state, &file, 404, None).await
    } else {
        plain(StatusCode::NOT_FOUND, "Not Found")
    }
}

/// An HTML page with the runtime config (and server-rendered parts) filled in.
async fn page(state: &Site, file: &Path, status: u16, rendered: Option<(&str, &str)>) -> Response {
    let Ok(template) = tokio::fs::read_to_string(file).await else {
        return plain(StatusCode::NOT_FOUND, "Not Found");
    };
    let mut html = template.replacen("<!--runtime-config-->", &super::runtime_config(state), 1);
    if let Some((head, body)) = rendered {
        html = html.replacen("<!--ssr-head-->", head, 1).replacen("<!--ssr-body-->", body, 1);
    }
    let mut response = (StatusCode::from_u16(status).unwrap_or(StatusCode::OK), html).into_response();
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin"));
    h.insert("permissions-policy", HeaderValue::from_static("camera=(), microphone=(), geolocation=()"));
    response
}

fn file_response(path: &str, file: &Path, bytes: Vec<u8>) -> Response {
    let mime = mime_guess::from_path(file).first_or_octet_stream();
    let cache =
        if path.starts_with("/assets/") { "public, max-age=31536000, immutable" } else { "public, max-age=3600" };
    let mut response = bytes.into_response();
    let h = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(mime.as_ref()) {
        h.insert(header::CONTENT_TYPE, v);
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    response
}

fn plain(status: StatusCode, text: &'static str) -> Response {
    (status, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response()
}

/// Calls a manifest function with text arguments in the page's context (the anonymous role), in a read-only
/// transaction unless it handles a posted form; returns its result as text.
async fn call(
    state: &Site,
    function: &str,
    args: &[&str],
    read_only: bool,
    context: &RequestContext,
) -> anyhow::Result<String> {
    let function = qualified_function(function)?;
    let mut client = state.core.pool.get().await?;
    let tx = client.transaction().await?;
    if read_only {
        tx.batch_execute("SET TRANSACTION READ ONLY").await?;
    }
    let (sql, params) = preamble(context);
    tx.execute(sql.as_str(), &params).await?;
    let placeholders: Vec<String> = (1..=args.len()).map(|i| format!("${i}")).collect();
    let sql = format!("select {function}({})::text", placeholders.join(", "));
    let params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> =
        args.iter().map(|a| a as &(dyn tokio_postgres::types::ToSql + Sync)).collect();
    let row = tx.query_one(sql.as_str(), &params).await?;
    let text: Option<String> = row.get(0);
    tx.commit().await?;
    Ok(text.unwrap_or_default())
}

/// Escapes a value for a double-quoted HTML attribute.
pub fn escape_attr(s: &str) -> String {
    s.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}
