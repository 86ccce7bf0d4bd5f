//! `GET /admin/users`: a page of the users of the request's audience (GoTrue's `page`, `per_page`, `filter`), with
//! `X-Total-Count` and GoTrue's `Link` header.

use super::request_aud;
use crate::auth::error::{AuthError, AuthResult};
use crate::auth::store::users;
use crate::auth::store::{account, begin};
use crate::auth::Auth;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use deadpool_postgres::Transaction;
use serde_json::{json, Value};
use std::collections::HashMap;

pub async fn list(
    State(state): State<Auth>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> AuthResult<Response> {
    let positive = |name: &str, default: i64| match query.get(name).filter(|v| !v.is_empty()) {
        None => Ok(default),
        Some(v) => v.parse::<i64>().ok().filter(|n| *n > 0).ok_or_else(|| {
            AuthError::validation(format!(
                "Bad Pagination Parameters: strconv.ParseUint: parsing {v:?}: invalid syntax"
            ))
        }),
    };
    let page = positive("page", 1)?;
    let per_page = positive("per_page", 50)?.min(1000);
    let aud = request_aud(&state, &headers);
    // GoTrue's `filter`: a substring of the e-mail or of `user_metadata.full_name`.
    let filter = format!("%{}%", query.get("filter").map(String::as_str).unwrap_or(""));
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let (total, list) = page_of(&tx, &aud, &filter, page, per_page).await?;
    tx.commit().await?;
    let mut res = Json(json!({"users": list, "aud": aud})).into_response();
    if let Ok(v) = HeaderValue::from_str(&total.to_string()) {
        res.headers_mut().insert("x-total-count", v);
    }
    if let Ok(v) = HeaderValue::from_str(&pagination_link(&query, page, per_page, total)) {
        res.headers_mut().insert("link", v);
    }
    Ok(res)
}

/// GoTrue's `Link` header: `rel="next"` while pages remain, then `rel="last"`, on the request's own query.
fn pagination_link(query: &HashMap<String, String>, page: i64, per_page: i64, total: i64) -> String {
    let last = (total + per_page - 1) / per_page;
    let url = |p: i64| {
        let mut q: Vec<(String, String)> = query.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        q.retain(|(k, _)| k != "page");
        q.push(("page".into(), p.to_string()));
        q.sort();
        let query = url::form_urlencoded::Serializer::new(String::new()).extend_pairs(q).finish();
        format!("</admin/users?{query}>")
    };
    let next = if last > page { format!("{}; rel=\"next\", ", url(page + 1)) } else { String::new() };
    format!("{next}{}; rel=\"last\"", url(last))
}

/// How many users match, and the users of one page.
async fn page_of(
    tx: &Transaction<'_>,
    aud: &str,
    filter: &str,
    page: i64,
    per_page: i64,
) -> AuthResult<(i64, Vec<Value>)> {
    let (total, ids) = account::page(tx, aud, filter, page, per_page).await?;
    let mut list = Vec::with_capacity(ids.len());
    for id in ids {
        if let Some(u) = users::by_id(tx, id).await? {
            list.push(u.to_json());
        }
    }
    Ok((total, list))
}
