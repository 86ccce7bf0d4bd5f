//! The HTTP broadcast endpoints behind supabase-js's `send()` when a channel is not joined
//! (`POST /realtime/v1/api/broadcast`, a batch) and `httpSend()` (`POST /realtime/v1/api/broadcast/{topic}/events/
//! {event}`, one JSON or binary message). Authentication from `Authorization: Bearer` else `apikey`; the query
//! string realtime-js leaves on these URLs is ignored. Private topics need the caller's broadcast write policy.

use super::channel_policies;
use super::credentials::Credentials;
use super::hub::RoomKey;
use super::message::Broadcast;
use super::protocol::Body;
use super::RealtimeState;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// Every refusal of these endpoints, answered as Realtime answers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApiError {
    Unauthorized,
    Forbidden,
    /// A changeset error: the field and Realtime's text.
    Invalid(&'static str, &'static str),
    RateLimited,
    MediaType,
    BadJson,
    PolicyError,
    Unavailable,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let message = |status: StatusCode, text: &str| (status, axum::Json(json!({ "message": text }))).into_response();
        match self {
            ApiError::Unauthorized => message(StatusCode::UNAUTHORIZED, "Unauthorized"),
            ApiError::Forbidden => message(StatusCode::FORBIDDEN, "Unauthorized"),
            ApiError::Invalid(field, text) => {
                (StatusCode::UNPROCESSABLE_ENTITY, axum::Json(json!({ "errors": { field: [text] } }))).into_response()
            }
            ApiError::RateLimited => message(StatusCode::TOO_MANY_REQUESTS, "You have exceeded your rate limit"),
            ApiError::MediaType => {
                let text = "Unsupported Media Type. Use application/json or application/octet-stream";
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, axum::Json(json!({ "error": text }))).into_response()
            }
            ApiError::BadJson => message(StatusCode::BAD_REQUEST, "Invalid JSON body"),
            ApiError::PolicyError => message(StatusCode::UNPROCESSABLE_ENTITY, "RLS policy error"),
            ApiError::Unavailable => {
                message(StatusCode::SERVICE_UNAVAILABLE, "Realtime was unable to connect to the project database")
            }
        }
    }
}

const BLANK: &str = "can't be blank";

fn caller(rt: &RealtimeState, headers: &HeaderMap) -> Result<Credentials, ApiError> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim().to_string());
    let token = bearer.or_else(|| headers.get("apikey").and_then(|v| v.to_str().ok()).map(str::to_string));
    let token = token.ok_or(ApiError::Unauthorized)?;
    let apikey = headers.get("apikey").and_then(|v| v.to_str().ok());
    rt.require_api_key(apikey).map_err(|_| ApiError::Unauthorized)?;
    rt.verify(&token).map_err(|_| ApiError::Unauthorized)
}

fn take_event(rt: &RealtimeState) -> Result<(), ApiError> {
    rt.events.take().then_some(()).ok_or(ApiError::RateLimited)
}

async fn may_write(
    rt: &RealtimeState,
    topic: &str,
    caller: &Credentials,
    headers: &HeaderMap,
) -> Result<bool, ApiError> {
    let x_headers = super::admission::x_headers_json(headers);
    match channel_policies::authorize(&rt.pool, topic, caller, &x_headers, false).await {
        Ok(p) => Ok(p.write_broadcast),
        Err(channel_policies::AuthorizationError::Policy(_)) => Err(ApiError::PolicyError),
        Err(channel_policies::AuthorizationError::Unavailable) => Err(ApiError::Unavailable),
    }
}

fn deliver(rt: &RealtimeState, key: RoomKey, b: &Broadcast) {
    rt.hub.broadcast(&key, b, None);
    rt.cluster.publish_broadcast(&key, b);
}

/// One message of a batch, validated as Realtime's changeset does.
fn batch_item(rt: &RealtimeState, item: &Value) -> Result<(RoomKey, Broadcast), ApiError> {
    let get_str = |k: &str| item.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
    let topic = get_str("topic").ok_or(ApiError::Invalid("topic", BLANK))?;
    let event = get_str("event").ok_or(ApiError::Invalid("event", BLANK))?;
    let Some(Value::Object(payload)) = item.get("payload") else { return Err(ApiError::Invalid("payload", BLANK)) };
    let private = item.get("private").and_then(Value::as_bool).unwrap_or(false);
    let mut out = Map::new();
    out.insert("type".into(), json!("broadcast"));
    out.insert("event".into(), json!(event));
    out.insert("payload".into(), Value::Object(payload.clone()));
    if let Some(id) = item.get("id").filter(|v| !v.is_null()) {
        out.insert("meta".into(), json!({ "id": id }));
    }
    let text = Value::Object(out).to_string();
    if text.len() > rt.config.max_payload_bytes {
        return Err(ApiError::Invalid("payload", "Payload size exceeds tenant limit"));
    }
    Ok((RoomKey { private, sub_topic: topic.into() }, Broadcast::Text(text.into())))
}

/// `POST /api/broadcast`: `{"messages":[{topic, event, payload, private?, id?}]}` → 202.
pub async fn batch(
    State(rt): State<Arc<RealtimeState>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<StatusCode, ApiError> {
    let caller = caller(&rt, &headers)?;
    let Ok(Value::Object(body)) = serde_json::from_slice::<Value>(&body) else {
        return Err(ApiError::Invalid("messages", BLANK));
    };
    let Some(Value::Array(items)) = body.get("messages") else { return Err(ApiError::Invalid("messages", BLANK)) };
    let messages = items.iter().map(|item| batch_item(&rt, item)).collect::<Result<Vec<_>, _>>()?;
    let mut allowed: HashMap<Arc<str>, bool> = HashMap::new();
    for (key, b) in messages {
        take_event(&rt)?;
        if key.private {
            let ok = match allowed.get(&key.sub_topic) {
                Some(ok) => *ok,
                None => {
                    let ok = may_write(&rt, &key.sub_topic, &caller, &headers).await.unwrap_or(false);
                    allowed.insert(key.sub_topic.clone(), ok);
                    ok
                }
            };
            if !ok {
                continue; // unauthorised topics are skipped silently, as Realtime does
            }
        }
        deliver(&rt, key, &b);
    }
    Ok(StatusCode::ACCEPTED)
}

/// The body of a single broadcast: JSON objects as they are (other JSON under `_json`), or raw bytes.
fn single_body(headers: &HeaderMap, body: Bytes) -> Result<Body, ApiError> {
    let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    match content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase().as_str() {
        "application/octet-stream" => Ok(Body::Binary(body)),
        "" | "application/json" => match serde_json::from_slice::<Value>(&body) {
            Ok(v @ Value::Object(_)) => Ok(Body::Json(v.to_string().into())),
            Ok(other) => Ok(Body::Json(json!({ "_json": other }).to_string().into())),
            Err(_) => Err(ApiError::BadJson),
        },
        _ => Err(ApiError::MediaType),
    }
}

/// `POST /api/broadcast/{topic}/events/{event}`: the body is the payload (JSON or bytes) → 202.
pub async fn single(
    State(rt): State<Arc<RealtimeState>>,
    Path((topic, event)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<StatusCode, ApiError> {
    if body.len() > rt.config.max_payload_bytes {
        return Err(ApiError::Invalid("payload", "Payload size exceeds tenant limit"));
    }
    let body = single_body(&headers, body)?;
    let caller = caller(&rt, &headers)?;
    take_event(&rt)?;
    let private = query.get("private").is_some_and(|v| v == "true");
    if private && !may_write(&rt, &topic, &caller, &headers).await? {
        return Err(ApiError::Forbidden);
    }
    let b = Broadcast::User { event: event.into(), meta: None, body };
    deliver(&rt, RoomKey { private, sub_topic: topic.into() }, &b);
    Ok(StatusCode::ACCEPTED)
}
