//! The data API's one error type, rendered as PostgREST's `{code,details,hint,message}` body with PostgREST's
//! statuses. Codes are grouped by prefix as in PostgREST (`PGRST0xx` connection, `1xx` request, `2xx` schema
//! cache, `3xx` JWT); the SQLSTATE → HTTP table lives in [`pg_error_status`].

use crate::rest::jwt_errors::JwtRejection;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

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
    Jwt(JwtRejection),
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
    /// The PostgREST code, HTTP status, message, details and hint of this error.
    fn parts(&self) -> (StatusCode, String, String, Value, Value) {
        use Error::*;
        let s = |v: &str| Value::String(v.to_string());
        let n = Value::Null;
        match self {
            PoolTimeout => (
                StatusCode::SERVICE_UNAVAILABLE,
                "PGRST003".into(),
                "Timed out acquiring connection from connection pool.".into(),
                n.clone(),
                n,
            ),
            Connection(d) => (StatusCode::SERVICE_UNAVAILABLE, "PGRST000".into(), "Database connection error.".into(), s(d), n),
            Parse { message, details } => (StatusCode::BAD_REQUEST, "PGRST100".into(), message.clone(), s(details), n),
            RpcMethod(m) => (
                StatusCode::METHOD_NOT_ALLOWED,
                "PGRST101".into(),
                format!("Cannot use the {m} method on RPC"),
                n.clone(),
                n,
            ),
            InvalidBody(m) => (StatusCode::BAD_REQUEST, "PGRST102".into(), m.clone(), n.clone(), n),
            Range(d) => {
                (StatusCode::RANGE_NOT_SATISFIABLE, "PGRST103".into(), "Requested range not satisfiable".into(), s(d), n)
            }
            PutFilters => (
                StatusCode::METHOD_NOT_ALLOWED,
                "PGRST105".into(),
                "Filters must include all and only primary key columns with 'eq' operators".into(),
                n.clone(),
                n,
            ),
            PutRange => (
                StatusCode::BAD_REQUEST,
                "PGRST114".into(),
                "limit/offset querystring parameters are not allowed for PUT".into(),
                n.clone(),
                n,
            ),
            PutMismatch => (
                StatusCode::BAD_REQUEST,
                "PGRST115".into(),
                "Payload values do not match URL in primary key column(s)".into(),
                n.clone(),
                n,
            ),
            InvalidSchema { schema, exposed } => (
                StatusCode::NOT_ACCEPTABLE,
                "PGRST106".into(),
                format!("Invalid schema: {schema}"),
                n,
                s(&format!("Only the following schemas are exposed: {}", exposed.join(", "))),
            ),
            MediaType(m) => (
                StatusCode::NOT_ACCEPTABLE,
                "PGRST107".into(),
                format!("None of these media types are available: {m}"),
                n.clone(),
                n,
            ),
            NotEmbedded(r) => (
                StatusCode::BAD_REQUEST,
                "PGRST108".into(),
                format!("'{r}' is not an embedded resource in this request"),
                n,
                s(&format!("Verify that '{r}' is included in the 'select' query parameter.")),
            ),
            Singular(rows) => (
                StatusCode::NOT_ACCEPTABLE,
                "PGRST116".into(),
                "Cannot coerce the result to a single JSON object".into(),
                s(&format!("The result contains {rows} rows")),
                n,
            ),
            Method(m) => {
                (StatusCode::METHOD_NOT_ALLOWED, "PGRST117".into(), format!("Unsupported HTTP method: {m}"), n.clone(), n)
            }
            RelatedOrder(parent, t) => (
                StatusCode::BAD_REQUEST,
                "PGRST118".into(),
                format!("A related order on '{t}' is not possible"),
                s(&format!("'{parent}' and '{t}' do not form a many-to-one or one-to-one relationship")),
                n,
            ),
            EmbedOperator(t) => (
                StatusCode::BAD_REQUEST,
                "PGRST120".into(),
                format!("Bad operator on the '{t}' embedded resource"),
                s("Only is null or not is null filters are allowed on embedded resources"),
                n,
            ),
            StrictPreferences(p) => (
                StatusCode::BAD_REQUEST,
                "PGRST122".into(),
                "Invalid preferences given with handling=strict".into(),
                s(&format!("Invalid preferences: {}", p.join(", "))),
                n,
            ),
            AggregatesDisabled => (
                StatusCode::BAD_REQUEST,
                "PGRST123".into(),
                "Use of aggregate functions is not allowed".into(),
                n.clone(),
                n,
            ),
            MaxAffected(rows) => (
                StatusCode::BAD_REQUEST,
                "PGRST124".into(),
                "Query result exceeds max-affected preference constraint".into(),
                s(&format!("The query affects {rows} rows")),
                n,
            ),
            InvalidPath => {
                (StatusCode::NOT_FOUND, "PGRST125".into(), "Invalid path specified in request URL".into(), n.clone(), n)
            }
            RootDisabled => {
                (StatusCode::NOT_FOUND, "PGRST126".into(), "Root endpoint metadata is disabled".into(), n.clone(), n)
            }
            NotImplemented(d) => (StatusCode::BAD_REQUEST, "PGRST127".into(), "Feature not implemented".into(), s(d), n),
            MaxAffectedRpc => (
                StatusCode::BAD_REQUEST,
                "PGRST128".into(),
                "Function must return SETOF or TABLE when max-affected preference is used with handling=strict".into(),
                n.clone(),
                n,
            ),
            NoRelationship { parent, child, hint, schema } => (
                StatusCode::BAD_REQUEST,
                "PGRST200".into(),
                format!("Could not find a relationship between '{parent}' and '{child}' in the schema cache"),
                s(&format!(
                    "Searched for a foreign key relationship between '{parent}' and '{child}'{} in the schema '{schema}', but no matches were found.",
                    hint.as_ref().map(|h| format!(" using the hint '{h}'")).unwrap_or_default()
                )),
                n,
            ),
            AmbiguousRelationship { parent, child, details, hints } => (
                StatusCode::MULTIPLE_CHOICES,
                "PGRST201".into(),
                format!("Could not embed because more than one relationship was found for '{parent}' and '{child}'"),
                details.clone(),
                s(&format!(
                    "Try changing '{child}' to one of the following: {}. Find the desired relationship in the 'details' key.",
                    hints.iter().map(|h| format!("'{h}'")).collect::<Vec<_>>().join(", ")
                )),
            ),
            NoFunction { signature, details, hint } => (
                StatusCode::NOT_FOUND,
                "PGRST202".into(),
                format!("Could not find the function {signature} in the schema cache"),
                s(details),
                hint.clone().map(Value::String).unwrap_or(Value::Null),
            ),
            AmbiguousFunction(list) => (
                StatusCode::MULTIPLE_CHOICES,
                "PGRST203".into(),
                format!("Could not choose the best candidate function between: {list}"),
                n,
                s("Try renaming the parameters or the function itself in the database so function overloading can be resolved"),
            ),
            NoColumn { column, table } => (
                StatusCode::BAD_REQUEST,
                "PGRST204".into(),
                format!("Could not find the '{column}' column of '{table}' in the schema cache"),
                n.clone(),
                n,
            ),
            NoTable { name, hint } => (
                StatusCode::NOT_FOUND,
                "PGRST205".into(),
                format!("Could not find the table '{name}' in the schema cache"),
                n,
                hint.clone().map(Value::String).unwrap_or(Value::Null),
            ),
            Jwt(j) => (
                StatusCode::UNAUTHORIZED,
                j.code.to_string(),
                j.message.clone(),
                j.details.clone().map(Value::String).unwrap_or(Value::Null),
                n,
            ),
            PayloadTooLarge => (
                StatusCode::PAYLOAD_TOO_LARGE,
                "PGRST413".into(),
                "Request body exceeds the configured size limit".into(),
                n.clone(),
                n,
            ),
            Db { code, message, details, hint, authenticated } => (
                pg_error_status(code, message, *authenticated),
                code.clone(),
                message.clone(),
                details.clone().map(Value::String).unwrap_or(Value::Null),
                hint.clone().map(Value::String).unwrap_or(Value::Null),
            ),
            Custom { status, body, .. } => (
                StatusCode::from_u16(*status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
                body["code"].as_str().unwrap_or("").to_string(),
                body["message"].as_str().unwrap_or("").to_string(),
                body.get("details").cloned().unwrap_or(Value::Null),
                body.get("hint").cloned().unwrap_or(Value::Null),
            ),
            CustomUnparsable => (
                StatusCode::INTERNAL_SERVER_ERROR,
                "PGRST121".into(),
                "Could not parse JSON in the \"RAISE SQLSTATE 'PGRST'\" error".into(),
                n.clone(),
                n,
            ),
            Internal(_) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                "PGRSTX00".into(),
                "Internal server error".into(),
                n.clone(),
                n,
            ),
        }
    }

    /// The status this error answers with.
    pub fn status(&self) -> StatusCode {
        self.parts().0
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
        let (_, code, message, details, hint) = self.parts();
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

/// `RAISE SQLSTATE 'PGRST' USING message = '{"code":…,"message":…,"details":…,"hint":…}',
/// detail = '{"status":402,"headers":{"X-A":"b"}}'` → that exact response.
fn custom_error(message: &str, detail: Option<&str>) -> Error {
    let Ok(body @ Value::Object(_)) = serde_json::from_str::<Value>(message) else { return Error::CustomUnparsable };
    let Some(Ok(Value::Object(detail))) = detail.map(serde_json::from_str::<Value>) else {
        return Error::CustomUnparsable;
    };
    let Some(status) = detail.get("status").and_then(Value::as_u64).and_then(|s| u16::try_from(s).ok()) else {
        return Error::CustomUnparsable;
    };
    let headers = detail
        .get("headers")
        .and_then(Value::as_object)
        .map(|h| h.iter().filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string()))).collect())
        .unwrap_or_default();
    Error::Custom { status, body, headers }
}

/// SQLSTATE → HTTP status, as PostgREST's `pgErrorStatus` (postgrest.md §14.2).
pub fn pg_error_status(code: &str, message: &str, authenticated: bool) -> StatusCode {
    let st = |n: u16| StatusCode::from_u16(n).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    match code {
        c if c.starts_with("08") => st(503), // connection exception
        c if c.starts_with("09") => st(500), // triggered action exception
        c if c.starts_with("0L") => st(403), // invalid grantor
        c if c.starts_with("0P") => st(403), // invalid role specification
        "23503" => st(409),                  // foreign_key_violation
        "23505" => st(409),                  // unique_violation
        "25006" => st(405),                  // read_only_sql_transaction
        "21000" if message.contains("requires a WHERE clause") => st(400), // pg-safeupdate
        "21000" => st(500),                  // cardinality_violation
        "22023" if message.starts_with("role") && message.ends_with("does not exist") => st(401),
        c if c.starts_with("25") => st(500), // invalid transaction state
        c if c.starts_with("28") => st(403), // invalid authorization specification
        c if c.starts_with("2D") => st(500), // invalid transaction termination
        c if c.starts_with("38") => st(500), // external routine exception
        c if c.starts_with("39") => st(500), // external routine invocation
        c if c.starts_with("3B") => st(500), // savepoint exception
        c if c.starts_with("40") => st(500), // transaction rollback
        "53400" => st(500),                  // config limit exceeded
        c if c.starts_with("53") => st(503), // insufficient resources
        c if c.starts_with("54") => st(500), // too complex
        c if c.starts_with("55") => st(500), // object not in prerequisite state
        "57P01" => st(503),                  // admin_shutdown
        c if c.starts_with("57") => st(500), // operator intervention (57014 query_canceled)
        c if c.starts_with("58") => st(500), // system error
        c if c.starts_with("F0") => st(500), // config file error
        c if c.starts_with("HV") => st(500), // foreign data wrapper error
        "P0001" => st(400),                  // raise_exception
        c if c.starts_with("P0") => st(500), // PL/pgSQL error
        c if c.starts_with("XX") => st(500), // internal error
        "42883" if message.starts_with("function xmlagg(") => st(406),
        "42883" => st(404),                  // undefined_function
        "42P01" => st(404),                  // undefined_table
        "42P17" => st(500),                  // infinite_recursion
        "42501" if authenticated => st(403), // insufficient_privilege
        "42501" => st(401),
        c if c.starts_with("PT") => c[2..].parse::<u16>().ok().map(st).unwrap_or(st(500)), // RAISE SQLSTATE 'PTxyz'
        _ => st(400),
    }
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        if let Error::Internal(cause) = &self {
            tracing::error!(%cause, "rest: internal error");
        }
        let status = self.status();
        let code = self.parts().1;
        if status == StatusCode::TOO_MANY_REQUESTS {
            // a limit doing its job (e.g. the site's per-client limits, PT429): worth a warning, never an error
            tracing::warn!(%code, "rest: rate limit reached");
        }
        let body = self.body().to_string();
        let mut res = (status, body).into_response();
        let h = res.headers_mut();
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json; charset=utf-8"));
        if let Ok(v) = HeaderValue::from_str(&format!("PostgREST; error={code}")) {
            h.insert("proxy-status", v);
        }
        if let Error::Custom { headers, .. } = &self {
            for (k, v) in headers {
                if let (Ok(k), Ok(v)) = (axum::http::HeaderName::from_bytes(k.as_bytes()), HeaderValue::from_str(v)) {
                    h.insert(k, v);
                }
            }
        }
        match &self {
            Error::PoolTimeout => {
                h.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            }
            Error::Jwt(j) if j.code != "PGRST302" && j.message != "No API key found in request" => {
                let description = serde_json::to_string(&j.message).unwrap_or_default();
                if let Ok(v) =
                    HeaderValue::from_str(&format!("Bearer error=\"invalid_token\", error_description={description}"))
                {
                    h.insert(header::WWW_AUTHENTICATE, v);
                }
            }
            _ => {}
        }
        if status == StatusCode::UNAUTHORIZED && !h.contains_key(header::WWW_AUTHENTICATE) {
            h.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlstates_map_like_postgrest() {
        assert_eq!(pg_error_status("23505", "", false), 409);
        assert_eq!(pg_error_status("23503", "", false), 409);
        assert_eq!(pg_error_status("42501", "", false), 401);
        assert_eq!(pg_error_status("42501", "", true), 403);
        assert_eq!(pg_error_status("42P01", "", true), 404);
        assert_eq!(pg_error_status("25006", "", true), 405);
        assert_eq!(pg_error_status("P0001", "", true), 400);
        assert_eq!(pg_error_status("57014", "", true), 500);
        assert_eq!(pg_error_status("57P01", "", true), 503);
        assert_eq!(pg_error_status("PT402", "", true), 402);
        assert_eq!(pg_error_status("22P02", "", true), 400);
        assert_eq!(pg_error_status("21000", "DELETE requires a WHERE clause", true), 400);
    }

    #[test]
    fn raised_pgrst_errors_control_the_response() {
        let e = custom_error(
            r#"{"code":"123","message":"Payment required"}"#,
            Some(r#"{"status":402,"headers":{"X-Powered-By":"Nerd Rage"}}"#),
        );
        assert_eq!(e.status(), 402);
        assert_eq!(e.body(), json!({"code":"123","details":null,"hint":null,"message":"Payment required"}));
        assert_eq!(custom_error("not json", None), Error::CustomUnparsable);
    }

    #[test]
    fn body_has_all_four_keys() {
        let b = Error::Singular(3).body();
        assert_eq!(
            b,
            json!({"code":"PGRST116","details":"The result contains 3 rows","hint":null,"message":"Cannot coerce the result to a single JSON object"})
        );
    }
}
