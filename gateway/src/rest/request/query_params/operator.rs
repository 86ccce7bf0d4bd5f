//! A filter's value: `[not.]op.value` with the simple operators and their `(any)`/`(all)` quantifiers, `in.(…)`,
//! `is.…` and full-text search with its language (the grammar is in the parent module).

use super::super::cursor::{Cursor, PResult};
use super::super::types::*;

/// Parses a filter value (`not.eq.5`, `in.(1,2)`, `fts(english).cat`).
pub fn parse_op_expr(input: &str) -> PResult<OpExpr> {
    let mut c = Cursor::new("filter", input);
    op_expr(&mut c, false)
}

fn op_name(c: &mut Cursor) -> String {
    let start = c.pos;
    while c.peek().is_some_and(|ch| ch.is_ascii_alphabetic()) {
        c.pos += 1;
    }
    c.since(start).to_string()
}

/// `in_logic` stops values at `,` / `)` (inside `or=(…)`); otherwise the value is the rest of the input.
pub(super) fn op_expr(c: &mut Cursor, in_logic: bool) -> PResult<OpExpr> {
    let negated = c.eat("not.");
    let op_start = c.pos;
    let name = op_name(c);
    let operation = if let Some(op) = SimpleOp::from_name(&name) {
        let quantifier = if op.quantifiable() && c.eat("(any)") {
            Some(Quantifier::Any)
        } else if op.quantifiable() && c.eat("(all)") {
            Some(Quantifier::All)
        } else {
            None
        };
        c.expect(".")?;
        Operation::Simple { op, quantifier, value: value(c, in_logic)? }
    } else if name == "in" {
        c.expect(".")?;
        Operation::In(in_list(c)?)
    } else if name == "is" {
        c.expect(".")?;
        Operation::Is(is_value(c)?)
    } else if let Some(op) = fts_op(&name) {
        let language = fts_language(c)?;
        c.expect(".")?;
        Operation::Fts { op, language, value: value(c, in_logic)? }
    } else {
        c.pos = op_start;
        return c.fail(if negated { "operator (eq, gt, ...)" } else { "\"not\" or operator (eq, gt, ...)" });
    };
    if !in_logic && !c.at_end() {
        return c.fail("end of input");
    }
    Ok(OpExpr { negated, operation })
}

/// `null`, `not_null` or a trilean, after `is.`.
fn is_value(c: &mut Cursor) -> PResult<IsValue> {
    let start = c.pos;
    let v = op_name_underscore(c).to_ascii_lowercase();
    Ok(match v.as_str() {
        "null" => IsValue::Null,
        "not_null" => IsValue::NotNull,
        "true" => IsValue::True,
        "false" => IsValue::False,
        "unknown" => IsValue::Unknown,
        _ => {
            c.pos = start;
            return c.fail("null or trilean value (unknown, true, false)");
        }
    })
}

fn fts_op(name: &str) -> Option<FtsOp> {
    match name {
        "fts" => Some(FtsOp::Fts),
        "plfts" => Some(FtsOp::Plfts),
        "phfts" => Some(FtsOp::Phfts),
        "wfts" => Some(FtsOp::Wfts),
        _ => None,
    }
}

/// A full-text operator's `(language)`, if given.
fn fts_language(c: &mut Cursor) -> PResult<Option<String>> {
    if !c.eat("(") {
        return Ok(None);
    }
    let start = c.pos;
    while c.peek().is_some_and(|ch| ch != ')') {
        c.bump();
    }
    let l = c.since(start).to_string();
    c.expect(")")?;
    Ok(Some(l))
}

fn op_name_underscore(c: &mut Cursor) -> String {
    let start = c.pos;
    while c.peek().is_some_and(|ch| ch.is_ascii_alphabetic() || ch == '_') {
        c.pos += 1;
    }
    c.since(start).to_string()
}

/// A value: the rest of the input, or inside a logic tree a quoted value, a `{…}` literal, or text up to `,`/`)`.
fn value(c: &mut Cursor, in_logic: bool) -> PResult<String> {
    if !in_logic {
        return Ok(c.take_rest().to_string());
    }
    if c.peek() == Some('"') {
        return c.quoted();
    }
    if c.peek() == Some(BRACE_OPEN) {
        return Ok(braced(c));
    }
    let start = c.pos;
    while c.peek().is_some_and(|ch| ch != ',' && ch != ')') {
        c.bump();
    }
    Ok(c.since(start).to_string())
}

/// A `{…}` value inside a logic tree (an array literal, commas and all), up to its matching close brace.
fn braced(c: &mut Cursor) -> String {
    let start = c.pos;
    let mut depth = 0;
    while let Some(ch) = c.peek() {
        c.bump();
        match ch {
            BRACE_OPEN => depth += 1,
            BRACE_CLOSE => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
    }
    c.since(start).to_string()
}

const BRACE_OPEN: char = '{';
const BRACE_CLOSE: char = '}';

/// `(a,"b,c",d)` → elements; quoted elements keep their content, others are trimmed.
fn in_list(c: &mut Cursor) -> PResult<Vec<String>> {
    c.expect("(")?;
    let mut items = vec![];
    c.skip_ws();
    if c.eat(")") {
        return Ok(items);
    }
    loop {
        c.skip_ws();
        if c.peek() == Some('"') {
            items.push(c.quoted()?);
            c.skip_ws();
        } else {
            let start = c.pos;
            while c.peek().is_some_and(|ch| ch != ',' && ch != ')') {
                c.bump();
            }
            items.push(c.since(start).trim().to_string());
        }
        if c.eat(",") {
            continue;
        }
        c.expect(")")?;
        return Ok(items);
    }
}
