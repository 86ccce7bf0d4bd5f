//! The HTTP broadcast endpoints behind supabase-js's `send()` when a channel is not joined
//! (`POST /realtime/v1/api/broadcast`, a batch) and `httpSend()` (`POST /realtime/v1/api/broadcast/{topic}/events/
//! {event}`, one JSON or binary message). Authentication from `Authorization: Bearer` else `apikey`; the query
//! string realtime-js leaves on these URLs is ignored. Private topics need the caller's broadcast write policy.

use super::auth::{self, Caller};
use super::authorization;
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

fn message(status: StatusCode, text: &str) -> Response {
    (status, axum::Json(json!({ "message": text }))).into_response()
}

fn caller(rt: &RealtimeState, headers: &HeaderMap) -> Result<Caller, Response> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim().to_string());
    let token = bearer.or_else(|| headers.get("apikey").and_then(|v| v.to_str().ok()).map(str::to_string));
    let token = token.ok_or_else(|| message(StatusCode::UNAUTHORIZED, "Unauthorized"))?;
    auth::verify(&token, &rt.keys.load(), &rt.config).map_err(|_| message(StatusCode::UNAUTHORIZED, "Unauthorized"))
}

fn limited(rt: &RealtimeState) -> Option<Response> {
    (!rt.events.take()).then(|| message(StatusCode::TOO_MANY_REQUESTS, "You have exceeded your rate limit"))
}

async fn may_write(rt: &RealtimeState, topic: &str, caller: &Caller, headers: &HeaderMap) -> Result<bool, Response> {
    let x_headers = super::join::x_headers_json(headers);
    match authorization::authorize(&rt.pool, topic, caller, &x_headers, false).await {
        Ok(p) => Ok(p.write_broadcast),
        Err(authorization::AuthorizationError::Policy(_)) => {
            Err(message(StatusCode::UNPROCESSABLE_ENTITY, "RLS policy error"))
        }
        Err(authorization::AuthorizationError::Unavailable) => {
            Err(message(StatusCode::SERVICE_UNAVAILABLE, "Realtime was unable to connect to the project database"))
        }
    }
}

fn deliver(rt: &RealtimeState, key: RoomKey, b: &Broadcast) {
    rt.hub.broadcast(&key, b, None);
    rt.cluster.publish_broadcast(&key, b);
}

fn invalid(field: &str, text: &str) -> Response {
    (StatusCode::UNPROCESSABLE_ENTITY, axum::Json(json!({ "errors": { field: [text] } }))).into_response()
}

/// One message of a batch, validated as Realtime's changeset does.
fn batch_item(rt: &RealtimeState, item: &Value) -> Result<(RoomKey, Broadcast), Response> {
    let get_str = |k: &str| item.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
    let topic = get_str("topic").ok_or_else(|| invalid("topic", "can't be blank"))?;
    let event = get_str("event").ok_or_else(|| invalid("event", "can't be blank"))?;
    let Some(Value::Object(payload)) = item.get("payload") else { return Err(invalid("payload", "can't be blank")) };
    let private = item.get("private").and_then(Value::as_bool).unwrap_or(false);
    let mut out = Map::new();
    out.insert("type".into(), json!("broadcast"));
    out.insert("event".into(), json!(event));
    out.insert("payload".into(), Value::Object(payload.clone()));
    if let Some(id) = item.get("id").filter(|v| !v.is_null()) {
        out.insert("meta".into(), json!({ "id": id }));
    }
    let text = Value::Object(out).to_string();
    if text.len() > rt.settings.max_payload_bytes {
        return Err(invalid("payload", "Payload size exceeds tenant limit"));
    }
    Ok((RoomKey { private, sub_topic: topic.into() }, Broadcast::Text(text.into())))
}

/// `POST /api/broadcast`: `{"messages":[{topic, event, payload, private?, id?}]}` → 202.
pub async fn batch(State(rt): State<Arc<RealtimeState>>, headers: HeaderMap, body: Bytes) -> Response {
    let caller = match caller(&rt, &headers) {
        Ok(c) => c,
        Err(r) => return r,
    };
    let Ok(Value::Object(body)) = serde_json::from_slice::<Value>(&body) else {
        return invalid("messages", "can't be blank");
    };
    let Some(Value::Array(items)) = body.get("messages") else { return invalid("messages", "can't be blank") };
    let mut messages = Vec::with_capacity(items.len());
    for item in items {
        match batch_item(&rt, item) {
            Ok(m) => messages.push(m),
            Err(r) => return r,
        }
    }
    let mut allowed: HashMap<Arc<str>, bool> = HashMap::new();
    for (key, b) in messages {
        if let Some(r) = limited(&rt) {
            return r;
        }
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
    StatusCode::ACCEPTED.into_response()
}

/// `POST /api/broadcast/{topic}/events/{event}`: the body is the payload (JSON or bytes) → 202.
pub async fn single(
    State(rt): State<Arc<RealtimeState>>,
    Path((topic, event)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let media = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let binary = match media.as_str() {
        "" | "application/json" => false,
        "application/octet-stream" => true,
        _ => {
            let text = "Unsupported Media Type. Use application/json or application/octet-stream";
            return (StatusCode::UNSUPPORTED_MEDIA_TYPE, axum::Json(json!({ "error": text }))).into_response();
        }
    };
    let caller = match caller(&rt, &headers) {
        Ok(c) => c,
        Err(r) => return r,
    };
    if body.len() > rt.settings.max_payload_bytes {
        return invalid("payload", "Payload size exceeds tenant limit");
    }
    let body = if binary {
        Body::Binary(body)
    } else {
        match serde_json::from_slice::<Value>(&body) {
            Ok(v @ Value::Object(_)) => Body::Json(v.to_string().into()),
            Ok(other) => Body::Json(json!({ "_json": other }).to_string().into()),
            Err(_) => return message(StatusCode::BAD_REQUEST, "Invalid JSON body"),
        }
    };
    if let Some(r) = limited(&rt) {
        return r;
    }
    let private = query.get("private").is_some_and(|v| v == "true");
    if private {
        match may_write(&rt, &topic, &caller, &headers).await {
            Ok(true) => {}
            Ok(false) => return message(StatusCode::FORBIDDEN, "Unauthorized"),
            Err(r) => return r,
        }
    }
    let b = Broadcast::User { event: event.into(), meta: None, body };
    deliver(&rt, RoomKey { private, sub_topic: topic.into() }, &b);
    StatusCode::ACCEPTED.into_response()
}
