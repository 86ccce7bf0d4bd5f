//! Conditions as SQL: filters with their operators (simple, quantified, `in`, `is`, full-text), logic trees and
//! embed null checks, every value bound as a parameter.

use super::read::field_sql;
use crate::rest::fragment::{array_literal, quote_ident, SqlBuilder};
use crate::rest::plan::types::*;
use crate::rest::request::types::*;

/// A condition with every value bound as a parameter.
pub fn cond_sql(b: &mut SqlBuilder, qual: &str, cond: &Cond) -> String {
    match cond {
        Cond::Filter { filter, column_type } => {
            let expr = op_sql(b, qual, filter, column_type.as_deref());
            if filter.expr.negated {
                ["NOT ", &expr].concat()
            } else {
                expr
            }
        }
        Cond::Logic { negated, or, children } => {
            let mut joined = String::from(if *negated { "NOT (" } else { "(" });
            for (i, c) in children.iter().enumerate() {
                if i > 0 {
                    joined.push_str(if *or { " OR " } else { " AND " });
                }
                joined.push_str(&cond_sql(b, qual, c));
            }
            joined.push(')');
            joined
        }
        Cond::EmbedNull { lateral_alias, to_one, is_null } => {
            let lat = quote_ident(lateral_alias);
            let target = if *to_one { lat.clone() } else { format!("{lat}.{lat}") };
            if *is_null {
                format!("{target} IS NULL")
            } else {
                format!("{target} IS NOT NULL")
            }
        }
    }
}

fn op_sql(b: &mut SqlBuilder, qual: &str, filter: &Filter, column_type: Option<&str>) -> String {
    let mut lhs = field_sql(b, qual, &filter.field);
    match &filter.expr.operation {
        Operation::Simple { op, quantifier, value } => {
            let value = match op {
                SimpleOp::Like | SimpleOp::Ilike => value.replace('*', "%"),
                _ => value.clone(),
            };
            match quantifier {
                None => {
                    // pushed rather than `format!`: the usual filter of every request
                    lhs.push(' ');
                    lhs.push_str(op.sql());
                    lhs.push(' ');
                    b.push_param(&mut lhs, value);
                    lhs
                }
                Some(q) => {
                    let items = list_items(&value);
                    let kw = if *q == Quantifier::Any { "ANY" } else { "ALL" };
                    format!("{lhs} {} {kw}({})", op.sql(), b.param(array_literal(&items)))
                }
            }
        }
        Operation::In(items) => {
            lhs.push_str(" = ANY(");
            b.push_param(&mut lhs, array_literal(items));
            lhs.push(')');
            lhs
        }
        Operation::Is(v) => format!(
            "{lhs} IS {}",
            match v {
                IsValue::Null => "NULL",
                IsValue::NotNull => "NOT NULL",
                IsValue::True => "TRUE",
                IsValue::False => "FALSE",
                IsValue::Unknown => "UNKNOWN",
            }
        ),
        Operation::Fts { op, language, value } => {
            let lang = language.as_ref().map(|l| format!("{}::regconfig, ", b.param(l.clone())));
            let lang = lang.unwrap_or_default();
            let vector = match column_type {
                Some("tsvector") => lhs,
                Some(_) => format!("to_tsvector({lang}{lhs})"),
                None => lhs,
            };
            format!("{vector} @@ {}({lang}{})", op.function(), b.param(value.clone()))
        }
    }
}

/// `{a,b}` or `(a,b)` → elements (quotes honoured); anything else is one element.
fn list_items(value: &str) -> Vec<String> {
    let v = value.trim();
    let inner = v
        .strip_prefix('{')
        .and_then(|s| s.strip_suffix('}'))
        .or_else(|| v.strip_prefix('(').and_then(|s| s.strip_suffix(')')));
    let Some(inner) = inner else { return vec![v.to_string()] };
    let mut items = vec![];
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if quoted => {
                if let Some(n) = chars.next() {
                    cur.push(n)
                }
            }
            '"' => quoted = !quoted,
            ',' if !quoted => items.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    if !inner.is_empty() {
        items.push(cur);
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_items_split_braces_and_quotes() {
        assert_eq!(list_items("{%a,\"b,c\"}"), vec!["%a", "b,c"]);
        assert_eq!(list_items("(1,2)"), vec!["1", "2"]);
        assert_eq!(list_items("{}"), Vec::<String>::new());
    }
}
