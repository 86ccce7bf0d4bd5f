//! PostgreSQL's errors in PostgREST's terms: SQLSTATE → HTTP status (`pgErrorStatus`), and the response a function
//! chooses with `RAISE SQLSTATE 'PGRST'`.

use super::Error;
use crate::core::raise::RaisedResponse;
use axum::http::StatusCode;
use serde_json::Value;

/// `RAISE SQLSTATE 'PGRST' USING message = '{"code":…,"message":…,"details":…,"hint":…}',
/// detail = '{"status":402,"headers":{"X-A":"b"}}'` → that exact response (PGRST121 when unparsable).
pub(super) fn custom_error(message: &str, detail: Option<&str>) -> Error {
    match RaisedResponse::parse(message, detail) {
        Some(r) => Error::Custom { status: r.status, body: Value::Object(r.body), headers: r.headers },
        None => Error::CustomUnparsable,
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
}
