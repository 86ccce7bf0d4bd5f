//! Storage's JSON conventions shared by its routes: request bodies (an empty body reads as `{}`), query strings
//! as Fastify hands them to the schema, and timestamps
//! (RFC 3339 with milliseconds and `Z`, as Storage's API answers them).

use super::error::{Result, StorageError};
use super::schema::{self, Schema};
use axum::body::Bytes;
use chrono::{DateTime, Utc};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use tokio_postgres::Row;

/// Parses a JSON request body; an empty body is `{}`. Errors are `InvalidRequest("body …")`.
pub fn parse_body<T: DeserializeOwned>(body: &Bytes) -> Result<T> {
    let body: &[u8] = if body.is_empty() { b"{}" } else { body };
    serde_json::from_slice(body).map_err(|e| StorageError::InvalidRequest(format!("body {e}")))
}

/// Parses a JSON body, coerces and checks it against the route's schema (as Fastify does), then reads it as `T`.
pub fn parse_checked<T: DeserializeOwned>(body: &Bytes, schema: &Schema) -> Result<T> {
    let mut value: Value = parse_body(body)?;
    schema::check(&mut value, schema, "body")?;
    serde_json::from_value(value).map_err(|e| StorageError::Validation(format!("body {e}")))
}

/// The query string, coerced and checked against the route's schema, read as `T`.
pub fn query_checked<T: DeserializeOwned>(query: Option<&str>, schema: &Schema) -> Result<T> {
    let mut value = query_object(query);
    schema::check(&mut value, schema, "querystring")?;
    serde_json::from_value(value).map_err(|e| StorageError::Validation(format!("querystring {e}")))
}

/// A timestamp as Storage writes it, e.g. `2024-05-01T12:00:00.000Z`.
pub fn timestamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// Column `i` of `row`, a nullable `timestamptz`, as [`timestamp`] text.
pub fn row_timestamp(row: &Row, i: usize) -> Option<String> {
    row.get::<_, Option<DateTime<Utc>>>(i).map(timestamp)
}

/// A query string as Fastify hands it to the schema: every value a string, a repeated key an array.
pub fn query_object(query: Option<&str>) -> Value {
    let mut map = Map::new();
    for (k, v) in url::form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        let v = Value::String(v.into_owned());
        match map.get_mut(k.as_ref()) {
            Some(Value::Array(list)) => list.push(v),
            Some(existing) => *existing = Value::Array(vec![existing.take(), v]),
            None => {
                map.insert(k.into_owned(), v);
            }
        }
    }
    Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn an_empty_body_is_an_empty_object_and_bad_json_is_an_invalid_request() {
        assert_eq!(parse_body::<Value>(&Bytes::new()).unwrap(), json!({}));
        assert_eq!(parse_body::<Value>(&Bytes::from_static(b"{\"a\":1}")).unwrap(), json!({"a": 1}));
        assert_eq!(query_object(Some("limit=10&a=1&a=2")), json!({"limit": "10", "a": ["1", "2"]}));
        assert_eq!(query_object(None), json!({}));
        let err = parse_body::<Value>(&Bytes::from_static(b"{")).unwrap_err();
        assert!(matches!(err, StorageError::InvalidRequest(m) if m.starts_with("body ")));
    }

    #[test]
    fn timestamps_have_milliseconds_and_z() {
        let t = DateTime::parse_from_rfc3339("2024-05-01T12:00:00+00:00").unwrap().with_timezone(&Utc);
        assert_eq!(timestamp(t), "2024-05-01T12:00:00.000Z");
    }
}
