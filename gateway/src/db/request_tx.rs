//! The per-request transaction preamble: one statement of `set_config(…, true)` calls that switches the role and
//! exposes the caller's claims and request to SQL (PostgREST's `txVarQuery`). It runs as its own statement before
//! the data statement, so privileges and row-level security are resolved for the switched role.

use tokio_postgres::types::ToSql;

/// What a request tells SQL about itself.
#[derive(Debug, Clone)]
pub struct RequestSettings {
    /// The database role to switch to (already checked against the allowed roles).
    pub role: String,
    /// `request.jwt.claims` as JSON text; always includes `role`.
    pub claims_json: String,
    pub method: String,
    pub path: String,
    /// `request.headers` as a JSON object of lower-cased names (Cookie excluded).
    pub headers_json: String,
    /// `request.cookies` as a JSON object.
    pub cookies_json: String,
    /// The `search_path` value, already quoted.
    pub search_path: String,
    /// The role's own settings (`ALTER ROLE … SET`), which `SET ROLE` does not apply by itself.
    pub role_settings: Vec<(String, String)>,
}

/// `BEGIN` for a request: read-only for reads.
pub fn begin_sql(read_only: bool) -> &'static str {
    if read_only {
        "BEGIN ISOLATION LEVEL READ COMMITTED READ ONLY"
    } else {
        "BEGIN ISOLATION LEVEL READ COMMITTED READ WRITE"
    }
}

/// The preamble statement and its parameters.
pub fn preamble(settings: &RequestSettings) -> (String, Vec<&(dyn ToSql + Sync)>) {
    let mut sql = String::from("select set_config('search_path', $1, true)");
    let mut params: Vec<&(dyn ToSql + Sync)> = vec![&settings.search_path];
    for (key, value) in &settings.role_settings {
        params.push(key);
        let k = params.len();
        params.push(value);
        let v = params.len();
        sql.push_str(&format!(", set_config(${k}, ${v}, true)"));
    }
    for value in [
        &settings.role,
        &settings.claims_json,
        &settings.method,
        &settings.path,
        &settings.headers_json,
        &settings.cookies_json,
    ] {
        params.push(value);
    }
    let n = params.len();
    sql.push_str(&format!(
        ", set_config('role', ${}, true), set_config('request.jwt.claims', ${}, true), set_config('request.method', ${}, true), \
         set_config('request.path', ${}, true), set_config('request.headers', ${}, true), set_config('request.cookies', ${}, true)",
        n - 5,
        n - 4,
        n - 3,
        n - 2,
        n - 1,
        n
    ));
    (sql, params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preamble_binds_every_value_as_a_parameter() {
        let s = RequestSettings {
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
}
