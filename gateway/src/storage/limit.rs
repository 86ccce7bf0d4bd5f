//! Rate-limit refusals raised by SQL during a storage write (a trigger on `storage.objects`): `PT429`, or
//! PostgREST's `RAISE SQLSTATE 'PGRST'` with a JSON message and a detail naming the status and headers — the form
//! that carries `Retry-After`. Both answer 429 with `Retry-After`, as the data API does.

use super::error::StorageError;
use serde_json::Value;

/// `Retry-After` when SQL gives none.
pub const DEFAULT_RETRY_AFTER_SECS: u64 = 60;

/// Maps `RAISE SQLSTATE 'PGRST' USING message = '{"message":…}', detail = '{"status":429,"headers":{…}}'`.
pub fn custom_error(message: &str, detail: Option<&str>) -> StorageError {
    let body: Value = serde_json::from_str(message).unwrap_or(Value::Null);
    let text = body.get("message").and_then(Value::as_str).unwrap_or(message).to_string();
    let detail: Value = detail.and_then(|d| serde_json::from_str(d).ok()).unwrap_or(Value::Null);
    match detail.get("status").and_then(Value::as_u64) {
        Some(429) => {
            let retry_after = detail
                .get("headers")
                .and_then(Value::as_object)
                .and_then(|h| h.iter().find(|(k, _)| k.eq_ignore_ascii_case("retry-after")))
                .and_then(|(_, v)| v.as_str()?.trim().parse().ok());
            StorageError::rate_limited(text, retry_after)
        }
        Some(403) => StorageError::AccessDenied(text),
        _ => StorageError::InvalidRequest(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::response::IntoResponse;

    #[test]
    fn a_rate_limit_from_sql_is_429_with_retry_after() {
        let e = custom_error(
            r#"{"code":"PT429","message":"Too many uploads"}"#,
            Some(r#"{"status":429,"headers":{"Retry-After":"120"}}"#),
        );
        assert_eq!(e, StorageError::TooManyRequests { message: "Too many uploads".into(), retry_after: Some(120) });
        let res = e.into_response();
        assert_eq!(res.status(), 429);
        assert_eq!(res.headers()["retry-after"], "120");
        let plain = StorageError::rate_limited("slow down".into(), None).into_response();
        assert_eq!(plain.status(), 429);
        assert_eq!(plain.headers()["retry-after"], "60");
        assert!(matches!(custom_error("not json", None), StorageError::InvalidRequest(_)));
    }
}
