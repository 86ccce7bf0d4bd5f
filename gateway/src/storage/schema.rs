//! Storage's request schemas, applied the way Fastify applies them (ajv with `coerceTypes: "array"`): a number or
//! boolean sent as a string is coerced (`"60"` → 60, `"true"` → true), `null` becomes the type's zero value, a lone
//! value becomes a one-item array and a one-item array a lone value; then types, bounds, enums and required
//! properties are checked. A failure is Fastify's 400 with ajv's wording (`body/expiresIn must be integer`).
//! Pure, unit-tested; the routes declare their schemas as constants.

use super::error::StorageError;
use serde_json::{Number, Value};

/// A value's expected type.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    Str,
    Int,
    Num,
    Bool,
    /// An array whose items have this schema.
    Array(&'static Schema),
    /// An object with these properties (others are kept, unchecked, as ajv does without `additionalProperties`).
    Object(&'static [Prop]),
    /// Storage's `file_size_limit`: an integer ≥ 0 or a size such as `20MB` (`anyOf`).
    SizeLimit,
}

/// One schema: a type and its constraints.
#[derive(Debug, Clone, Copy)]
pub struct Schema {
    pub kind: Kind,
    pub nullable: bool,
    pub minimum: Option<f64>,
    pub maximum: Option<f64>,
    pub one_of: &'static [&'static str],
    pub min_items: Option<usize>,
    pub max_items: Option<usize>,
    pub required: &'static [&'static str],
    /// At least one of these properties (`anyOf: [{required: [a]}, {required: [b]}, …]`).
    pub any_required: &'static [&'static str],
}

/// A named property of an object schema.
#[derive(Debug, Clone, Copy)]
pub struct Prop {
    pub name: &'static str,
    pub schema: Schema,
}

impl Schema {
    const fn of(kind: Kind) -> Schema {
        Schema {
            kind,
            nullable: false,
            minimum: None,
            maximum: None,
            one_of: &[],
            min_items: None,
            max_items: None,
            required: &[],
            any_required: &[],
        }
    }
    pub const fn string() -> Schema {
        Schema::of(Kind::Str)
    }
    pub const fn integer() -> Schema {
        Schema::of(Kind::Int)
    }
    pub const fn number() -> Schema {
        Schema::of(Kind::Num)
    }
    pub const fn boolean() -> Schema {
        Schema::of(Kind::Bool)
    }
    pub const fn size_limit() -> Schema {
        Schema::of(Kind::SizeLimit)
    }
    pub const fn array(items: &'static Schema) -> Schema {
        Schema::of(Kind::Array(items))
    }
    pub const fn object(props: &'static [Prop]) -> Schema {
        Schema::of(Kind::Object(props))
    }
    pub const fn min(mut self, n: f64) -> Schema {
        self.minimum = Some(n);
        self
    }
    pub const fn max(mut self, n: f64) -> Schema {
        self.maximum = Some(n);
        self
    }
    pub const fn values(mut self, allowed: &'static [&'static str]) -> Schema {
        self.one_of = allowed;
        self
    }
    pub const fn items(mut self, min: Option<usize>, max: Option<usize>) -> Schema {
        self.min_items = min;
        self.max_items = max;
        self
    }
    pub const fn nullable(mut self) -> Schema {
        self.nullable = true;
        self
    }
    pub const fn required(mut self, names: &'static [&'static str]) -> Schema {
        self.required = names;
        self
    }
    pub const fn any_of_required(mut self, names: &'static [&'static str]) -> Schema {
        self.any_required = names;
        self
    }
}

impl Prop {
    pub const fn new(name: &'static str, schema: Schema) -> Prop {
        Prop { name, schema }
    }
}

fn fail(path: &str, message: impl std::fmt::Display) -> StorageError {
    StorageError::Validation(format!("{path} {message}"))
}

/// Coerces and checks `value` (the request's `body` or `querystring`, named by `path`) against `schema`.
pub fn check(value: &mut Value, schema: &Schema, path: &str) -> Result<(), StorageError> {
    coerce(value, schema, path)
}

fn coerce(value: &mut Value, schema: &Schema, path: &str) -> Result<(), StorageError> {
    if value.is_null() && schema.nullable {
        return Ok(());
    }
    match schema.kind {
        Kind::Object(props) => check_object(value, schema, props, path),
        Kind::Array(items) => check_array(value, schema, items, path),
        Kind::SizeLimit => check_size_limit(value, path),
        scalar => {
            unwrap_single(value);
            *value =
                coerce_scalar(value, scalar).ok_or_else(|| fail(path, format!("must be {}", type_name(scalar))))?;
            check_bounds(value, schema, path)
        }
    }
}

/// `coerceTypes: "array"`: a one-item array stands for its item where a scalar is expected.
fn unwrap_single(value: &mut Value) {
    if let Value::Array(items) = value {
        if items.len() == 1 {
            *value = items.remove(0);
        }
    }
}

fn type_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Str => "string",
        Kind::Int => "integer",
        Kind::Num => "number",
        Kind::Bool => "boolean",
        Kind::Array(_) => "array",
        Kind::Object(_) => "object",
        Kind::SizeLimit => "integer",
    }
}

/// JavaScript's `+text` for the decimal forms clients send (`"60"`, `" 1.5 "`, `"1e3"`); `None` when not a number.
fn js_number(text: &str) -> Option<f64> {
    let t = text.trim();
    let plain = !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || "+-.eE".contains(c));
    plain.then(|| t.parse::<f64>().ok()).flatten().filter(|n| n.is_finite())
}

fn number_value(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9.007_199_254_740_992e15 {
        Value::Number(Number::from(n as i64))
    } else {
        Number::from_f64(n).map(Value::Number).unwrap_or(Value::Null)
    }
}

/// ajv's coercion rules to one scalar type; `None` when the value cannot be that type.
fn coerce_scalar(value: &Value, kind: Kind) -> Option<Value> {
    match (kind, value) {
        (Kind::Str, Value::String(_)) => Some(value.clone()),
        (Kind::Str, Value::Number(n)) => Some(Value::String(n.to_string())),
        (Kind::Str, Value::Bool(b)) => Some(Value::String(b.to_string())),
        (Kind::Str, Value::Null) => Some(Value::String(String::new())),
        (Kind::Bool, Value::Bool(_)) => Some(value.clone()),
        (Kind::Bool, Value::String(s)) if s == "true" || s == "false" => Some(Value::Bool(s == "true")),
        (Kind::Bool, Value::Number(n)) if n.as_f64() == Some(0.0) || n.as_f64() == Some(1.0) => {
            Some(Value::Bool(n.as_f64() == Some(1.0)))
        }
        (Kind::Bool, Value::Null) => Some(Value::Bool(false)),
        (Kind::Num | Kind::Int, _) => {
            let n = match value {
                Value::Number(n) => n.as_f64()?,
                Value::String(s) => js_number(s)?,
                Value::Bool(b) => f64::from(u8::from(*b)),
                Value::Null => 0.0,
                _ => return None,
            };
            (matches!(kind, Kind::Num) || n.fract() == 0.0).then(|| number_value(n))
        }
        _ => None,
    }
}

fn check_bounds(value: &Value, schema: &Schema, path: &str) -> Result<(), StorageError> {
    if let Some(n) = value.as_f64() {
        if let Some(min) = schema.minimum.filter(|m| n < *m) {
            return Err(fail(path, format!("must be >= {min}")));
        }
        if let Some(max) = schema.maximum.filter(|m| n > *m) {
            return Err(fail(path, format!("must be <= {max}")));
        }
    }
    if let Value::String(s) = value {
        if !schema.one_of.is_empty() && !schema.one_of.contains(&s.as_str()) {
            return Err(fail(path, "must be equal to one of the allowed values"));
        }
    }
    Ok(())
}

fn check_array(value: &mut Value, schema: &Schema, items: &Schema, path: &str) -> Result<(), StorageError> {
    if !value.is_array() {
        *value = Value::Array(vec![value.take()]);
    }
    let Value::Array(list) = value else { return Err(fail(path, "must be array")) };
    for (i, item) in list.iter_mut().enumerate() {
        coerce(item, items, &format!("{path}/{i}"))?;
    }
    if let Some(min) = schema.min_items.filter(|m| list.len() < *m) {
        return Err(fail(path, format!("must NOT have fewer than {min} items")));
    }
    if let Some(max) = schema.max_items.filter(|m| list.len() > *m) {
        return Err(fail(path, format!("must NOT have more than {max} items")));
    }
    Ok(())
}

fn check_object(value: &mut Value, schema: &Schema, props: &[Prop], path: &str) -> Result<(), StorageError> {
    let Value::Object(map) = value else { return Err(fail(path, "must be object")) };
    if let Some(missing) = schema.required.iter().find(|name| !map.contains_key(**name)) {
        return Err(fail(path, format!("must have required property '{missing}'")));
    }
    if !schema.any_required.is_empty() && !schema.any_required.iter().any(|name| map.contains_key(*name)) {
        let each: Vec<String> =
            schema.any_required.iter().map(|n| format!("{path} must have required property '{n}'")).collect();
        return Err(StorageError::Validation(format!("{}, {path} must match a schema in anyOf", each.join(", "))));
    }
    for prop in props {
        if let Some(v) = map.get_mut(prop.name) {
            coerce(v, &prop.schema, &format!("{path}/{}", prop.name))?;
        }
    }
    Ok(())
}

/// `anyOf: [{type: integer, minimum: 0, nullable}, {type: string, pattern: <size>, nullable}]`: the integer branch
/// coerces first (`"1000"` → 1000), so only non-numeric strings reach the pattern. A failure lists each branch's
/// error, as ajv does (`"20 MB"`: must be integer, must match pattern, must match a schema in anyOf).
fn check_size_limit(value: &mut Value, path: &str) -> Result<(), StorageError> {
    unwrap_single(value);
    if value.is_null() {
        return Ok(());
    }
    let int = coerce_scalar(value, Kind::Int);
    let int_error = match int.as_ref().and_then(Value::as_f64) {
        Some(n) if n >= 0.0 => {
            *value = int.unwrap_or_default();
            return Ok(());
        }
        Some(_) => "must be >= 0",
        None => "must be integer",
    };
    let string_error = match coerce_scalar(value, Kind::Str) {
        Some(Value::String(s)) if is_size(&s) => {
            *value = Value::String(s);
            return Ok(());
        }
        Some(_) => format!("must match pattern \"{SIZE_PATTERN}\""),
        None => "must be string".to_string(),
    };
    Err(StorageError::Validation(format!(
        "{path} {int_error}, {path} {string_error}, {path} must match a schema in anyOf"
    )))
}

/// Storage's `fileSizeLimitSchema` pattern, as ajv quotes it in its message; [`is_size`] matches it.
const SIZE_PATTERN: &str = r"^[0-9]+(?:\.[0-9]+)?(?:[gG][bB]|[mM][bB]|[kK][bB]|[bB])$";

fn is_size(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    let Some(number) = ["gb", "mb", "kb", "b"].iter().find_map(|u| lower.strip_suffix(u)) else { return false };
    let (int, frac) = number.split_once('.').unwrap_or((number, "0"));
    let digits = |p: &str| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit());
    digits(int) && digits(frac)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ITEM: Schema = Schema::string();
    const BODY: Schema = Schema::object(&[
        Prop::new("expiresIn", Schema::integer().min(1.0)),
        Prop::new("flag", Schema::boolean()),
        Prop::new("name", Schema::string()),
        Prop::new("paths", Schema::array(&ITEM).items(Some(1), Some(2))),
        Prop::new("order", Schema::string().values(&["asc", "desc"])),
        Prop::new("limit", Schema::size_limit()),
    ])
    .required(&["expiresIn"]);

    fn run(mut v: Value) -> Result<Value, String> {
        check(&mut v, &BODY, "body").map(|_| v).map_err(|e| e.body()["message"].as_str().unwrap().to_string())
    }

    #[test]
    fn coerces_strings_numbers_booleans_and_nulls_like_ajv() {
        let v = run(json!({"expiresIn": "60", "flag": "true", "name": 5, "paths": "a.txt"})).unwrap();
        assert_eq!(v, json!({"expiresIn": 60, "flag": true, "name": "5", "paths": ["a.txt"]}));
        let v = run(json!({"expiresIn": [" 61 "], "flag": 0, "name": null, "order": ["desc"]})).unwrap();
        assert_eq!(v, json!({"expiresIn": 61, "flag": false, "name": "", "order": "desc"}));
        assert_eq!(run(json!({"expiresIn": 1.0e3, "limit": "20MB"})).unwrap()["limit"], "20MB");
        assert_eq!(run(json!({"expiresIn": 1, "limit": "1000"})).unwrap()["limit"], 1000);
    }

    #[test]
    fn refuses_with_fastify_wording() {
        assert_eq!(run(json!({})).unwrap_err(), "body must have required property 'expiresIn'");
        assert_eq!(run(json!({"expiresIn": "60.5"})).unwrap_err(), "body/expiresIn must be integer");
        assert_eq!(run(json!({"expiresIn": "abc"})).unwrap_err(), "body/expiresIn must be integer");
        assert_eq!(run(json!({"expiresIn": null})).unwrap_err(), "body/expiresIn must be >= 1");
        assert_eq!(run(json!({"expiresIn": 1, "flag": "yes"})).unwrap_err(), "body/flag must be boolean");
        assert_eq!(
            run(json!({"expiresIn": 1, "order": "DESC"})).unwrap_err(),
            "body/order must be equal to one of the allowed values"
        );
        assert_eq!(
            run(json!({"expiresIn": 1, "paths": []})).unwrap_err(),
            "body/paths must NOT have fewer than 1 items"
        );
        assert_eq!(
            run(json!({"expiresIn": 1, "paths": ["a", "b", "c"]})).unwrap_err(),
            "body/paths must NOT have more than 2 items"
        );
        // ajv's words per branch (checked against ajv 8 with Fastify's options)
        let pattern = r#"must match pattern "^[0-9]+(?:\.[0-9]+)?(?:[gG][bB]|[mM][bB]|[kK][bB]|[bB])$""#;
        let any_of = |int: &str, string: &str| {
            format!("body/limit {int}, body/limit {string}, body/limit must match a schema in anyOf")
        };
        assert_eq!(run(json!({"expiresIn": 1, "limit": "20 MB"})).unwrap_err(), any_of("must be integer", pattern));
        assert_eq!(run(json!({"expiresIn": 1, "limit": -1})).unwrap_err(), any_of("must be >= 0", pattern));
        assert_eq!(run(json!({"expiresIn": 1, "limit": 1.5})).unwrap_err(), any_of("must be integer", pattern));
        assert_eq!(run(json!({"expiresIn": 1, "limit": {}})).unwrap_err(), any_of("must be integer", "must be string"));
        assert_eq!(run(json!([1])).unwrap_err(), "body must be object");
    }

    #[test]
    fn query_strings_become_objects_of_strings() {}
}
