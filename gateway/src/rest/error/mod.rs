//! The data API's one error type, rendered as PostgREST's `{code,details,hint,message}` body with PostgREST's
//! statuses: each error's parts come from PostgREST's table (`table`), grouped by prefix as in PostgREST
//! (`PGRST0xx` connection, `1xx` request, `2xx` schema cache, `3xx` JWT, with its own table in `jwt`); SQLSTATEs
//! map to statuses in `sqlstate`; `response` writes the answer.

pub mod jwt;
mod response;
mod sqlstate;
mod table;

use serde_json::{json, Value};
use sqlstate::custom_error;
pub use sqlstate::pg_error_status;

/// Everything that can go wrong while answering a `/rest/v1` request.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// PGRST003: no pooled connection within the acquisition timeout (503 + Retry-After).
    PoolTimeout,
    /// PGRST000: the database cannot be reached.
    Connection(String),
    /// PGRST100: a query parameter does not parse (`message`, `details`).
    Parse { message: String, details: String },
    /// PGRST101: a method RPC does not allow.
    RpcMethod(String),
    /// PGRST102: the body is not acceptable JSON (message).
    InvalidBody(String),
    /// PGRST103: the requested range cannot be satisfied (details).
    Range(String),
    /// PGRST105: PUT filters must be exactly the primary key with `eq`.
    PutFilters,
    /// PGRST114: PUT with limit/offset.
    PutRange,
    /// PGRST115: PUT body primary key differs from the URL's.
    PutMismatch,
    /// PGRST106: a profile outside the exposed schemas.
    InvalidSchema { schema: String, exposed: Vec<String> },
    /// PGRST107: no acceptable media type.
    MediaType(String),
    /// PGRST108: a filter or order names an embed that is not selected.
    NotEmbedded(String),
    /// PGRST116: singular response requested but not exactly one row.
    Singular(i64),
    /// PGRST117: method not supported.
    Method(String),
    /// PGRST118: related order on a to-many embed (parent, embed).
    RelatedOrder(String, String),
    /// PGRST120: operator other than `is` on an embedded resource.
    EmbedOperator(String),
    /// PGRST122: unknown preferences with `handling=strict`.
    StrictPreferences(Vec<String>),
    /// PGRST123: aggregates are disabled.
    AggregatesDisabled,
    /// PGRST124: more rows affected than `max-affected` allows.
    MaxAffected(i64),
    /// PGRST125: the path is not a relation or a function.
    InvalidPath,
    /// PGRST126: the root endpoint (OpenAPI) is not served.
    RootDisabled,
    /// PGRST127: a feature the gateway does not implement (details).
    NotImplemented(String),
    /// PGRST128: max-affected on a function that does not return a set.
    MaxAffectedRpc,
    /// PGRST200: no relationship for an embed.
    NoRelationship { parent: String, child: String, hint: Option<String>, schema: String },
    /// PGRST201: several relationships for an embed (details array, suggested hints).
    AmbiguousRelationship { parent: String, child: String, details: Value, hints: Vec<String> },
    /// PGRST202: no function matches.
    NoFunction { signature: String, details: String, hint: Option<String> },
    /// PGRST203: several overloads match.
    AmbiguousFunction(String),
    /// PGRST204: a payload column that does not exist.
    NoColumn { column: String, table: String },
    /// PGRST205: no such table or view.
    NoTable { name: String, hint: Option<String> },
    /// PGRST301/302/303: the caller's token (or missing apikey) was rejected.
    Jwt(jwt::JwtRejection),
    /// The request body is larger than the configured limit.
    PayloadTooLarge,
    /// An error raised by PostgreSQL; `authenticated` decides 401 vs 403 for 42501.
    Db { code: String, message: String, details: Option<String>, hint: Option<String>, authenticated: bool },
    /// `RAISE SQLSTATE 'PGRST'`: the function chose the status, headers and body.
    Custom { status: u16, body: Value, headers: Vec<(String, String)> },
    /// PGRST121: a `RAISE SQLSTATE 'PGRST'` whose message or detail is not the expected JSON.
    CustomUnparsable,
    /// PGRSTX00: anything unexpected (logged, never shown).
    Internal(String),
}

impl Error {
    /// The status this error answers with.
    pub fn status(&self) -> axum::http::StatusCode {
        self.parts().status
    }

    /// The `{code,details,hint,message}` body (a custom error's body as raised).
    pub fn body(&self) -> Value {
        if let Error::Custom { body, .. } = self {
            let mut b = body.clone();
            if let Value::Object(o) = &mut b {
                for k in ["code", "details", "hint", "message"] {
                    o.entry(k).or_insert(Value::Null);
                }
            }
            return b;
        }
        let table::Parts { code, message, details, hint, .. } = self.parts();
        json!({ "code": code, "details": details, "hint": hint, "message": message })
    }

    /// Converts an error of the pipelined connection: server errors keep their SQLSTATE and texts, the rest is a
    /// connection error.
    pub fn from_pipeline(e: &crate::core::db::pipeline::PgError, authenticated: bool) -> Self {
        use crate::core::db::pipeline::PgError;
        match e {
            PgError::Db(db) if db.code == "PGRST" => custom_error(&db.message, db.detail.as_deref()),
            PgError::Db(db) => Error::Db {
                code: db.code.clone(),
                message: db.message.clone(),
                details: db.detail.clone(),
                hint: db.hint.clone(),
                authenticated,
            },
            PgError::Io(_) | PgError::Protocol(_) => Error::Connection(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_has_all_four_keys() {
        let b = Error::Singular(3).body();
        assert_eq!(
            b,
            json!({"code":"PGRST116","details":"The result contains 3 rows","hint":null,"message":"Cannot coerce the result to a single JSON object"})
        );
    }
}
