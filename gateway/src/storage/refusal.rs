//! Refusals from PostgreSQL and from the core, as Storage answers them: SQLSTATEs (row-level security and
//! privileges, duplicates, time-outs, raised exceptions), rate-limit refusals raised by SQL during a storage write
//! (a trigger on `storage.objects`: `PT429`, or PostgREST's `RAISE SQLSTATE 'PGRST'` with a JSON message and a
//! detail naming the status and headers — the form that carries `Retry-After`; both answer 429 with `Retry-After`,
//! as the data API does), and a refused caller.

use super::error::StorageError;
use crate::core::raise::RaisedResponse;

impl StorageError {
    /// Maps a database error: RLS and privileges → 403, unique → 409, timeouts → 544, raised exceptions → 400.
    pub fn from_db(e: &tokio_postgres::Error) -> Self {
        if crate::core::db::is_unavailable(e) {
            tracing::warn!(error = %e, "storage: database unavailable");
            return StorageError::DatabaseUnavailable;
        }
        let Some(db) = e.as_db_error() else {
            return Self::internal("database", e);
        };
        match db.code().code() {
            "42501" if db.message().contains("row-level security") => {
                StorageError::AccessDenied("new row violates row-level security policy".into())
            }
            "42501" => StorageError::AccessDenied(db.message().to_string()),
            "23505" => StorageError::AlreadyExists,
            "57014" => StorageError::DatabaseTimeout,
            "P0001" | "23514" | "22P02" | "22023" => StorageError::InvalidRequest(db.message().to_string()),
            "PT429" => Self::rate_limited(db.message().to_string(), None),
            "PGRST" => custom_error(db.message(), db.detail()),
            _ => Self::internal("database", format!("{} ({})", db.message(), db.code().code())),
        }
    }
}

impl From<tokio_postgres::Error> for StorageError {
    fn from(e: tokio_postgres::Error) -> Self {
        StorageError::from_db(&e)
    }
}

/// Storage's words for a refused caller: the gateway's own description, except where Storage has its own.
impl From<crate::core::identity::Rejection> for StorageError {
    fn from(refused: crate::core::identity::Rejection) -> Self {
        use crate::core::identity::Rejection;
        let message = match refused {
            Rejection::Expired => "jwt expired".to_string(),
            Rejection::AnonymousDisabled => "Access denied: JWT is not authenticated".to_string(),
            Rejection::RoleNotAllowed(_) => "Access denied: Invalid role".to_string(),
            other => other.to_string(),
        };
        StorageError::AccessDenied(message)
    }
}

/// Maps `RAISE SQLSTATE 'PGRST' USING message = '{"message":…}', detail = '{"status":429,"headers":{…}}'`: 429
/// (with its `Retry-After`) and 403 keep their meaning, anything else is a bad request with the raised message.
pub fn custom_error(message: &str, detail: Option<&str>) -> StorageError {
    let Some(raised) = RaisedResponse::parse(message, detail) else {
        return StorageError::InvalidRequest(message.to_string());
    };
    let text = raised.message().unwrap_or(message).to_string();
    match raised.status {
        429 => {
            let retry_after = raised.header("retry-after").and_then(|v| v.trim().parse().ok());
            StorageError::rate_limited(text, retry_after)
        }
        403 => StorageError::AccessDenied(text),
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
