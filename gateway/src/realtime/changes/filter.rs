//! The `filter` of a postgres_changes binding, as Realtime parses it: conditions separated by top-level commas
//! (ANDed), each `<column>=[not.]<op>.<value>`; `in` takes `(a,b,…)` (at most 100 values); a value may be
//! double-quoted (`\` escapes inside). Evaluation compares PostgreSQL's own rendering of both sides (see
//! `Condition::matches`): the change's values and the filter's values both come back from `to_jsonb` of the
//! column's type, so numbers compare as numbers, text and timestamps as PostgreSQL prints them.

use serde_json::Value;
use std::cmp::Ordering;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Eq,
    Neq,
    Lt,
    Lte,
    Gt,
    Gte,
    In,
}

impl Op {
    fn parse(s: &str) -> Option<Op> {
        Some(match s {
            "eq" => Op::Eq,
            "neq" => Op::Neq,
            "lt" => Op::Lt,
            "lte" => Op::Lte,
            "gt" => Op::Gt,
            "gte" => Op::Gte,
            "in" => Op::In,
            _ => return None,
        })
    }
}

/// One condition with its values as text (typed later by PostgreSQL).
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    pub column: String,
    pub op: Op,
    pub negate: bool,
    pub values: Vec<String>,
}

pub const MAX_IN_VALUES: usize = 100;

/// Parses a filter string; an empty or blank filter has no conditions.
pub fn parse(filter: &str) -> Result<Vec<Condition>, String> {
    let filter = filter.trim();
    if filter.is_empty() {
        return Ok(vec![]);
    }
    split_top_level(filter, ',')?
        .into_iter()
        .map(|segment| {
            if segment.trim().is_empty() {
                return Err("filter must not contain empty segments (check for extra commas)".to_string());
            }
            parse_condition(segment.trim())
        })
        .collect()
}

fn parse_condition(segment: &str) -> Result<Condition, String> {
    let invalid = || format!(r#"["{segment}"]"#);
    let (column, rest) = segment.split_once('=').ok_or_else(invalid)?;
    let (negate, rest) = match rest.strip_prefix("not.") {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let (op, value) = rest.split_once('.').ok_or_else(invalid)?;
    let op = Op::parse(op).ok_or_else(|| format!(r#"["{column}", "{op}"]"#))?;
    let column = column.trim();
    if column.is_empty() {
        return Err(invalid());
    }
    let values = if op == Op::In {
        let inner = value.strip_prefix('(').and_then(|v| v.strip_suffix(')')).ok_or_else(invalid)?;
        let items = split_top_level(inner, ',')?.into_iter().map(|v| unquote(v.trim())).collect::<Vec<_>>();
        if items.len() > MAX_IN_VALUES {
            return Err(format!("too many values for `in` filter. Maximum {MAX_IN_VALUES}"));
        }
        items
    } else {
        vec![unquote(value)]
    };
    Ok(Condition { column: column.to_string(), op, negate, values })
}

/// Splits on `sep` outside parentheses and double-quoted values.
fn split_top_level(s: &str, sep: char) -> Result<Vec<&str>, String> {
    let (mut parts, mut depth, mut quoted, mut escaped, mut start) = (vec![], 0i32, false, false, 0);
    for (i, c) in s.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '(' if !quoted => depth += 1,
            ')' if !quoted => depth -= 1,
            c if c == sep && !quoted && depth == 0 => {
                parts.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    if quoted || depth != 0 {
        return Err(format!(r#"["{s}"]"#));
    }
    parts.push(&s[start..]);
    Ok(parts)
}

fn unquote(v: &str) -> String {
    let Some(inner) = v.strip_prefix('"').and_then(|v| v.strip_suffix('"')) else { return v.to_string() };
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        out.push(if c == '\\' { chars.next().unwrap_or('\\') } else { c });
    }
    out
}

/// A condition whose values PostgreSQL has typed (rendered through `to_jsonb` of the column's type).
#[derive(Debug, Clone, PartialEq)]
pub struct TypedCondition {
    pub column: String,
    pub op: Op,
    pub negate: bool,
    pub values: Vec<Value>,
}

impl TypedCondition {
    /// Whether the record passes: a missing or null column never matches (as a NULL comparison in SQL).
    pub fn matches(&self, record: &serde_json::Map<String, Value>) -> bool {
        let Some(actual) = record.get(&self.column).filter(|v| !v.is_null()) else { return false };
        let hit = match self.op {
            Op::In => self.values.iter().any(|v| compare(actual, v) == Some(Ordering::Equal)),
            op => {
                let Some(ord) = self.values.first().and_then(|v| compare(actual, v)) else { return false };
                match op {
                    Op::Eq => ord == Ordering::Equal,
                    Op::Neq => ord != Ordering::Equal,
                    Op::Lt => ord == Ordering::Less,
                    Op::Lte => ord != Ordering::Greater,
                    Op::Gt => ord == Ordering::Greater,
                    Op::Gte => ord != Ordering::Less,
                    Op::In => unreachable!(),
                }
            }
        };
        hit != self.negate
    }
}

/// Orders two values PostgreSQL rendered for the same column type; `None` when they cannot be compared.
fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => Some(x.cmp(&y)),
            _ => x.as_f64()?.partial_cmp(&y.as_f64()?),
        },
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::Null, _) | (_, Value::Null) => None,
        (x, y) if x == y => Some(Ordering::Equal),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cond(column: &str, op: Op, negate: bool, values: &[&str]) -> Condition {
        Condition { column: column.into(), op, negate, values: values.iter().map(|v| v.to_string()).collect() }
    }

    #[test]
    fn parses_each_operator() {
        for (text, op) in
            [("eq", Op::Eq), ("neq", Op::Neq), ("lt", Op::Lt), ("lte", Op::Lte), ("gt", Op::Gt), ("gte", Op::Gte)]
        {
            assert_eq!(parse(&format!("id={text}.1")).unwrap(), vec![cond("id", op, false, &["1"])]);
        }
        assert_eq!(
            parse("status=in.(open,\"a,b\",  c)").unwrap(),
            vec![cond("status", Op::In, false, &["open", "a,b", "c"])]
        );
        assert_eq!(parse("  ").unwrap(), vec![]);
    }

    #[test]
    fn parses_negation_quotes_and_and_combinations() {
        assert_eq!(parse("id=not.eq.5").unwrap(), vec![cond("id", Op::Eq, true, &["5"])]);
        assert_eq!(parse(r#"name=eq."x, \"y\"""#).unwrap(), vec![cond("name", Op::Eq, false, &[r#"x, "y""#])]);
        assert_eq!(
            parse("a=eq.1,b=gt.2").unwrap(),
            vec![cond("a", Op::Eq, false, &["1"]), cond("b", Op::Gt, false, &["2"])]
        );
        assert_eq!(parse("value=eq.a.b").unwrap(), vec![cond("value", Op::Eq, false, &["a.b"])]);
    }

    #[test]
    fn refuses_what_realtime_refuses() {
        assert_eq!(parse("foo=hey.1").unwrap_err(), r#"["foo", "hey"]"#);
        assert!(parse("a=eq.1,,b=eq.2").unwrap_err().contains("empty segments"));
        assert!(parse("id").is_err());
        assert!(parse("id=eq").is_err());
        assert!(parse("id=in.1,2").is_err());
        let many = (0..101).map(|i| i.to_string()).collect::<Vec<_>>().join(",");
        assert_eq!(parse(&format!("id=in.({many})")).unwrap_err(), "too many values for `in` filter. Maximum 100");
    }

    #[test]
    fn typed_conditions_compare_like_the_column_type() {
        let record = json!({"id": 10, "name": "b", "done": false, "at": "2025-01-02T00:00:00+00:00", "none": null});
        let record = record.as_object().unwrap();
        let c =
            |column: &str, op, negate, values: Vec<Value>| TypedCondition { column: column.into(), op, negate, values };
        assert!(c("id", Op::Gt, false, vec![json!(9)]).matches(record));
        assert!(!c("id", Op::Gt, false, vec![json!(10)]).matches(record), "numbers compare as numbers, not text");
        assert!(c("id", Op::Lte, false, vec![json!(10.0)]).matches(record));
        assert!(c("name", Op::In, false, vec![json!("a"), json!("b")]).matches(record));
        assert!(!c("name", Op::In, true, vec![json!("a"), json!("b")]).matches(record));
        assert!(c("done", Op::Eq, false, vec![json!(false)]).matches(record));
        assert!(c("at", Op::Lt, false, vec![json!("2025-02-01T00:00:00+00:00")]).matches(record));
        assert!(!c("none", Op::Neq, false, vec![json!(1)]).matches(record), "NULL never matches");
        assert!(!c("missing", Op::Eq, false, vec![json!(1)]).matches(record));
    }
}
