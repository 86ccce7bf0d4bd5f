//! The per-request transaction preamble: one statement of `set_config(…, true)` calls that switches the role and
//! exposes the caller's claims and request to SQL (PostgREST's `txVarQuery`). It runs as its own statement before
//! the data statement, so privileges and row-level security are resolved for the switched role.

use crate::core::context::RequestContext;
use std::borrow::Cow;
use std::fmt::Write;
use std::sync::OnceLock;
use tokio_postgres::types::ToSql;

/// `BEGIN` for a writing request (reads run without one: see [`preamble_text`]).
pub const BEGIN_READ_WRITE: &str = "BEGIN ISOLATION LEVEL READ COMMITTED READ WRITE";

/// The preamble statement and its parameters.
pub fn preamble(context: &RequestContext) -> (String, Vec<&(dyn ToSql + Sync)>) {
    let (sql, values) = preamble_text(context, false);
    (sql.into_owned(), values.into_iter().map(|v| v as &(dyn ToSql + Sync)).collect())
}

/// The preamble statement and its parameters as text (for the pipelined request connection). With `read_only`
/// it first makes the transaction read-only — for a pipeline that runs in the implicit transaction its Sync
/// ends, without `BEGIN … READ ONLY` (the connection's default isolation is READ COMMITTED).
pub fn preamble_text(context: &RequestContext, read_only: bool) -> (Cow<'static, str>, Vec<&String>) {
    let mut params: Vec<&String> = Vec::with_capacity(7 + 2 * context.role_settings.len());
    params.push(&context.search_path);
    for (key, value) in &context.role_settings {
        params.push(key);
        params.push(value);
    }
    for value in [
        &context.role,
        &context.claims_json,
        &context.method,
        &context.path,
        &context.headers_json,
        &context.cookies_json,
    ] {
        params.push(value);
    }
    // the text depends only on how many role settings there are; the first few are built once
    static BY_ROLE_SETTINGS: OnceLock<[Vec<String>; 2]> = OnceLock::new();
    let built = BY_ROLE_SETTINGS.get_or_init(|| [false, true].map(|ro| (0..4).map(|n| preamble_sql(n, ro)).collect()));
    let sql = match built[usize::from(read_only)].get(context.role_settings.len()) {
        Some(sql) => Cow::Borrowed(sql.as_str()),
        None => Cow::Owned(preamble_sql(context.role_settings.len(), read_only)),
    };
    (sql, params)
}

/// The preamble's text for `role_settings` pairs of role settings (parameters numbered as `preamble` binds them).
fn preamble_sql(role_settings: usize, read_only: bool) -> String {
    let mut sql = String::from(if read_only {
        "select set_config('transaction_read_only', 'on', true), set_config('search_path', $1, true)"
    } else {
        "select set_config('search_path', $1, true)"
    });
    for i in 0..role_settings {
        let _ = write!(sql, ", set_config(${}, ${}, true)", 2 + 2 * i, 3 + 2 * i);
    }
    let n = 1 + 2 * role_settings + 6;
    let _ = write!(
        sql,
        ", set_config('role', ${}, true), set_config('request.jwt.claims', ${}, true), set_config('request.method', ${}, true), \
         set_config('request.path', ${}, true), set_config('request.headers', ${}, true), set_config('request.cookies', ${}, true)",
        n - 5,
        n - 4,
        n - 3,
        n - 2,
        n - 1,
        n
    );
    sql
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preamble_binds_every_value_as_a_parameter() {
        let s = RequestContext {
            role: "anon".into(),
            claims_json: r#"{"role":"anon"}"#.into(),
            method: "GET".into(),
            path: "/items".into(),
            headers_json: "{}".into(),
            cookies_json: "{}".into(),
            search_path: r#""public", "extensions""#.into(),
            role_settings: vec![("statement_timeout".into(), "3s".into())],
        };
        let (sql, params) = preamble(&s);
        assert_eq!(params.len(), 9);
        assert!(sql.contains("set_config($2, $3, true)"));
        assert!(sql.contains("set_config('role', $4, true)"));
        assert!(sql.ends_with("set_config('request.cookies', $9, true)"));
        assert!(!sql.contains("anon"));
    }

    /// An anonymous GET of `/items` with these role settings.
    fn anon_get(role_settings: Vec<(String, String)>) -> RequestContext {
        RequestContext {
            role: "anon".into(),
            claims_json: "{}".into(),
            method: "GET".into(),
            path: "/items".into(),
            headers_json: "{}".into(),
            cookies_json: "{}".into(),
            search_path: r#""public""#.into(),
            role_settings,
        }
    }

    #[test]
    fn preamble_without_role_settings_numbers_seven_parameters() {
        let s = anon_get(vec![]);
        let (sql, params) = preamble(&s);
        assert_eq!(params.len(), 7);
        assert_eq!(
            sql,
            "select set_config('search_path', $1, true), set_config('role', $2, true), \
             set_config('request.jwt.claims', $3, true), set_config('request.method', $4, true), \
             set_config('request.path', $5, true), set_config('request.headers', $6, true), \
             set_config('request.cookies', $7, true)"
        );
        assert_eq!(preamble(&s).0, sql, "the same text every time (one cached statement)");
    }

    #[test]
    fn read_only_preamble_first_makes_the_transaction_read_only() {
        let s = anon_get(vec![("statement_timeout".into(), "3s".into())]);
        let (sql, params) = preamble_text(&s, true);
        assert_eq!(params.len(), 9);
        assert!(sql.starts_with("select set_config('transaction_read_only', 'on', true), set_config('search_path', $1, true), set_config($2, $3, true)"));
        assert!(!preamble_text(&s, false).0.contains("transaction_read_only"));
    }
}
