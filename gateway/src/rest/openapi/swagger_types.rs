//! PostgreSQL column and argument types as Swagger 2.0 `type`/`format`/`items`/`default`, by PostgREST's rules
//! (the type text is `format_type` output: `integer`, `character varying`, `text[]`, `public.mood`, …).

use serde_json::{json, Map, Value};

/// Swagger's `type`, or `None` for `json`/`jsonb` (any JSON value).
pub fn swagger_type(pg: &str) -> Option<&'static str> {
    Some(match pg {
        "character varying" | "character" | "text" => "string",
        "boolean" => "boolean",
        "smallint" | "integer" | "bigint" => "integer",
        "numeric" | "real" | "double precision" => "number",
        "json" | "jsonb" => return None,
        other if other.ends_with("[]") => "array",
        _ => "string",
    })
}

/// Swagger's `format`: `int32`/`int64` for integers, otherwise the type's own name.
pub fn swagger_format(pg: &str) -> String {
    match pg {
        "smallint" | "integer" => "int32".into(),
        "bigint" => "int64".into(),
        other => other.into(),
    }
}

/// `items` of an array type: the element's Swagger type (`{}` for arrays of JSON).
pub fn items(pg: &str) -> Option<Value> {
    let element = pg.strip_suffix("[]")?;
    let mut items = Map::new();
    if let Some(t) = swagger_type(element) {
        items.insert("type".into(), json!(t));
    }
    Some(Value::Object(items))
}

/// A column default as a JSON value: for string-typed columns the literal without its cast and quotes
/// (`'ok'::mood` → `"ok"`, `now()` → `"now()"`); for others the expression when it is JSON (`false`, `42`),
/// otherwise none (`nextval(…)`, `'{}'::jsonb`).
pub fn default_value(pg_type: &str, default: &str) -> Option<Value> {
    let text = match swagger_type(pg_type) {
        Some("string") => {
            let stripped = default.strip_suffix(&format!("::{pg_type}")).map(|d| d.trim_matches('\''));
            format!("\"{}\"", stripped.unwrap_or(default))
        }
        _ => default.to_string(),
    };
    serde_json::from_str(&text).ok()
}

/// Type, format and items of a function argument or column type.
pub fn typed(pg: &str, map: &mut Map<String, Value>) {
    if let Some(t) = swagger_type(pg) {
        map.insert("type".into(), json!(t));
    }
    map.insert("format".into(), json!(swagger_format(pg)));
    if let Some(i) = items(pg) {
        map.insert("items".into(), i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_and_formats_follow_postgrest() {
        assert_eq!((swagger_type("bigint"), swagger_format("bigint")), (Some("integer"), "int64".into()));
        assert_eq!((swagger_type("smallint"), swagger_format("smallint")), (Some("integer"), "int32".into()));
        assert_eq!(swagger_type("jsonb"), None);
        assert_eq!(swagger_type("timestamp with time zone"), Some("string"));
        assert_eq!(swagger_type("integer[]"), Some("array"));
        assert_eq!(swagger_format("integer[]"), "integer[]");
        assert_eq!(items("text[]"), Some(json!({"type": "string"})));
        assert_eq!(items("jsonb[]"), Some(json!({})));
        assert_eq!(items("text"), None);
    }

    #[test]
    fn defaults_keep_literals_and_json() {
        assert_eq!(default_value("public.mood", "'ok'::public.mood"), Some(json!("ok")));
        assert_eq!(default_value("text", "'foo'::text"), Some(json!("foo")));
        assert_eq!(default_value("timestamp with time zone", "now()"), Some(json!("now()")));
        assert_eq!(default_value("date", "'1900-01-01'::date"), Some(json!("1900-01-01")));
        assert_eq!(default_value("boolean", "false"), Some(json!(false)));
        assert_eq!(default_value("numeric", "42.2"), Some(json!(42.2)));
        assert_eq!(default_value("integer", "nextval('t_id_seq'::regclass)"), None);
        assert_eq!(default_value("jsonb", "'{}'::jsonb"), None);
    }
}
