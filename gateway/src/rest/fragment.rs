//! SQL safety in one place: `quote_ident` is the only way an identifier enters generated SQL, and
//! [`SqlBuilder::param`] the only way a user value does (as a `$n` parameter sent in text format with a type the
//! server infers, like PostgREST's *unknown*-typed literals).

use bytes::BytesMut;
use std::collections::HashMap;
use tokio_postgres::types::{to_sql_checked, Format, IsNull, ToSql, Type};

/// `"name"` with embedded quotes doubled.
pub fn quote_ident(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 2);
    push_quoted_ident(&mut out, name);
    out
}

/// Appends `"name"` (embedded quotes doubled) to `out`.
pub fn push_quoted_ident(out: &mut String, name: &str) {
    out.push('"');
    for (i, part) in name.split('"').enumerate() {
        if i > 0 {
            out.push_str("\"\"");
        }
        out.push_str(part);
    }
    out.push('"');
}

/// `"schema"."name"`.
pub fn qualified(schema: &str, name: &str) -> String {
    let mut out = String::with_capacity(schema.len() + name.len() + 5);
    push_quoted_ident(&mut out, schema);
    out.push('.');
    push_quoted_ident(&mut out, name);
    out
}

/// A generated statement: SQL text with `$n` placeholders and their values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub sql: String,
    pub params: Vec<Param>,
}

/// A parameter value in text form; PostgreSQL parses it with the input function of the type it inferred.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param(pub Option<String>);

impl ToSql for Param {
    fn to_sql(&self, _ty: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match &self.0 {
            Some(v) => {
                out.extend_from_slice(v.as_bytes());
                Ok(IsNull::No)
            }
            None => Ok(IsNull::Yes),
        }
    }

    fn accepts(_ty: &Type) -> bool {
        true
    }

    fn encode_format(&self, _ty: &Type) -> Format {
        Format::Text
    }

    to_sql_checked!();
}

/// Collects parameters while SQL is written.
#[derive(Debug, Default)]
pub struct SqlBuilder {
    params: Vec<Param>,
    /// JSON-path keys are reused so equal expressions (select, GROUP BY, ORDER BY) stay equal.
    json_keys: HashMap<String, usize>,
}

impl SqlBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a value and returns its placeholder.
    pub fn param(&mut self, value: impl Into<String>) -> String {
        let mut placeholder = String::with_capacity(4);
        self.push_param(&mut placeholder, value);
        placeholder
    }

    /// Adds a value and appends its placeholder to `sql`.
    pub fn push_param(&mut self, sql: &mut String, value: impl Into<String>) {
        self.params.push(Param(Some(value.into())));
        sql.push('$');
        push_int(sql, self.params.len() as i64);
    }

    /// Appends a JSON object key as a `text` parameter, shared between equal keys.
    pub fn push_json_key(&mut self, sql: &mut String, key: &str) {
        let n = match self.json_keys.get(key) {
            Some(n) => *n,
            None => {
                self.params.push(Param(Some(key.to_string())));
                self.json_keys.insert(key.to_string(), self.params.len());
                self.params.len()
            }
        };
        sql.push('$');
        push_int(sql, n as i64);
        sql.push_str("::text");
    }

    /// A JSON object key as a `text` parameter, shared between equal keys.
    pub fn json_key(&mut self, key: &str) -> String {
        let mut placeholder = String::with_capacity(10);
        self.push_json_key(&mut placeholder, key);
        placeholder
    }

    pub fn finish(self, sql: String) -> Statement {
        Statement { sql, params: self.params }
    }

    pub fn len(&self) -> usize {
        self.params.len()
    }

    pub fn is_empty(&self) -> bool {
        self.params.is_empty()
    }
}

/// `LIMIT n`: the one number written into generated SQL rather than bound. PostgreSQL reuses a prepared statement's
/// generic plan only when it can cost it, and a LIMIT it cannot see is costed as 10 % of the rows — so a bound
/// LIMIT had every page planned anew on every request (0.17 ms of the to-many page's 0.4 ms in PostgreSQL). The
/// value is an integer the request parser produced, so no client text enters the statement; few distinct page
/// sizes are used, so the prepared statements stay few. OFFSET stays a parameter: its values are many.
pub fn limit_clause(limit: i64) -> String {
    let mut clause = String::with_capacity(16);
    clause.push_str(" LIMIT ");
    push_int(&mut clause, limit);
    clause
}

/// Appends `n` in decimal (what `write!(out, "{n}")` gives, through `itoa` rather than the formatting machinery:
/// statements and response headers write a few numbers on every request).
pub fn push_int(out: &mut String, n: i64) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// A PostgreSQL array literal (`{"a","b\"c"}`) from elements, each quoted and escaped.
pub fn array_literal<S: AsRef<str>>(items: &[S]) -> String {
    let inner: Vec<String> =
        items.iter().map(|i| format!("\"{}\"", i.as_ref().replace('\\', "\\\\").replace('"', "\\\""))).collect();
    format!("{{{}}}", inner.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_identifiers() {
        assert_eq!(quote_ident(""), "\"\"");
        assert_eq!(quote_ident("\""), "\"\"\"\"");
        assert_eq!(qualified("a\"b", "c"), "\"a\"\"b\".\"c\"");
        assert_eq!(quote_ident("users"), "\"users\"");
        assert_eq!(quote_ident("a\"b"), "\"a\"\"b\"");
        assert_eq!(quote_ident("x\"; drop table t; --"), "\"x\"\"; drop table t; --\"");
    }

    #[test]
    fn params_are_numbered_and_json_keys_shared() {
        let mut b = SqlBuilder::new();
        assert_eq!(b.param("1"), "$1");
        assert_eq!(b.json_key("a"), "$2::text");
        assert_eq!(b.json_key("a"), "$2::text");
        assert_eq!(b.param("x"), "$3");
        assert_eq!(b.finish(String::new()).params.len(), 3);
    }

    #[test]
    fn integers_are_written_as_display_writes_them() {
        for n in [0, 7, 10, 99, 1234567890, -1, -250, i64::MAX, i64::MIN] {
            let mut out = String::from("x");
            push_int(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
        assert_eq!(limit_clause(25), " LIMIT 25");
    }

    #[test]
    fn array_literals_escape_elements() {
        assert_eq!(array_literal(&["a b", "q,r", "x\"y", "b\\s"]), r#"{"a b","q,r","x\"y","b\\s"}"#);
        assert_eq!(array_literal::<&str>(&[]), "{}");
    }
}
