//! Parses PostgREST's query-string grammar (values already form-decoded: `+` → space, `%xx` → bytes):
//!
//! ```text
//! select     := item ("," item)*
//! item       := "*"
//!             | [alias ":"] "count()" ["::" cast]
//!             | [alias ":"] field ["::" cast] ["." agg "()" ["::" cast]]          agg := sum|avg|min|max|count
//!             | [alias ":"] name hint* "(" [select] ")"                         embed
//!             | "..." name hint* "(" [select] ")"                               spread
//! hint       := "!" ("inner" | "left" | name)
//! field      := name jsonpath
//! name       := '"' (char | '\"' | '\\')* '"' | ident ("-" ident)*           ident := [letters digits _ $ space]+
//! jsonpath   := (("->" | "->>") (["-"] digits | '"' … '"' | [^(-:.,>)]+))*
//! cast       := [A-Za-z0-9_ $]+
//!
//! filter key := (name ".")* field                                              embed path, then the field
//! filter val := ["not."] op "." value
//! op         := eq|neq|gt|gte|lt|lte|like|ilike|match|imatch|isdistinct|cs|cd|ov|sl|sr|nxr|nxl|adj ["(any)"|"(all)"]
//!             | in "." "(" [listval ("," listval)*] ")"                          listval := '"' … '"' | [^,)]*
//!             | is "." (null|not_null|true|false|unknown)
//!             | (fts|plfts|phfts|wfts) ["(" lang ")"]
//! logic key  := (name ".")* ["not."] ("and" | "or")
//! logic val  := "(" cond ("," cond)* ")"
//! cond       := ["not."] ("and"|"or") "(" cond ("," cond)* ")" | field "." ["not."] op "." logicval
//! logicval   := '"' … '"' | "{" … "}" | "(" … ")" (for in) | [^,)]*
//!
//! order      := term ("," term)*
//! term       := [name "("] field [")"] ["." ("asc"|"desc")] ["." ("nullsfirst"|"nullslast")]
//! ```
//! Errors follow PostgREST's PGRST100 shape: a message naming what failed, details saying what was expected.

use super::cursor::{Cursor, PResult};
use super::types::*;
use crate::rest::error::Error;

/// Parses `select=`.
pub fn parse_select(input: &str) -> PResult<Vec<SelectItem>> {
    let mut c = Cursor::new("select", input);
    let items = select_list(&mut c)?;
    c.skip_ws();
    if !c.at_end() {
        return c.fail("\",\" or end of input");
    }
    Ok(items)
}

fn select_list(c: &mut Cursor) -> PResult<Vec<SelectItem>> {
    let mut items = vec![select_item(c)?];
    loop {
        c.skip_ws();
        if c.eat(",") {
            items.push(select_item(c)?);
        } else {
            return Ok(items);
        }
    }
}

fn select_item(c: &mut Cursor) -> PResult<SelectItem> {
    c.skip_ws();
    if c.eat("*") {
        return Ok(SelectItem::Star);
    }
    if c.eat("...") {
        let name = c.name()?;
        let (hint, join) = embed_hints(c)?;
        let select = embed_body(c)?;
        return Ok(SelectItem::Embed(Embed { name, alias: None, hint, join, spread: true, select }));
    }
    let first = c.name()?;
    // alias: a single ':' (not '::')
    let (alias, name) = if c.peek() == Some(':') && c.peek_at(1) != Some(':') {
        c.pos += 1;
        c.skip_ws();
        if c.eat("...") {
            return c.fail("field name");
        }
        (Some(first), c.name()?)
    } else {
        (None, first)
    };
    if name == "count" && c.starts_with("()") {
        c.pos += 2;
        let cast = c.cast()?;
        return Ok(SelectItem::CountAll { alias, cast });
    }
    if c.peek() == Some('!') || c.peek() == Some('(') {
        let (hint, join) = embed_hints(c)?;
        let select = embed_body(c)?;
        return Ok(SelectItem::Embed(Embed { name, alias, hint, join, spread: false, select }));
    }
    let json_path = c.json_path()?;
    let field = Field { name, json_path };
    let cast = c.cast()?;
    let mut aggregate = None;
    let mut aggregate_cast = None;
    if c.peek() == Some('.') {
        c.pos += 1;
        let agg = [
            ("sum()", Aggregate::Sum),
            ("avg()", Aggregate::Avg),
            ("min()", Aggregate::Min),
            ("max()", Aggregate::Max),
            ("count()", Aggregate::Count),
        ]
        .into_iter()
        .find(|(s, _)| c.starts_with(s));
        match agg {
            Some((s, a)) => {
                c.pos += s.len();
                aggregate = Some(a);
                aggregate_cast = c.cast()?;
            }
            None => return c.fail("aggregate function (sum(), avg(), min(), max(), count())"),
        }
    }
    Ok(SelectItem::Field { field, alias, cast, aggregate, aggregate_cast })
}

fn embed_hints(c: &mut Cursor) -> PResult<(Option<String>, Option<JoinType>)> {
    let mut hint = None;
    let mut join = None;
    for _ in 0..2 {
        if !c.eat("!") {
            break;
        }
        let h = c.name()?;
        match h.as_str() {
            "inner" if join.is_none() => join = Some(JoinType::Inner),
            "left" if join.is_none() => join = Some(JoinType::Left),
            _ if hint.is_none() => hint = Some(h),
            _ => return c.fail("\"(\""),
        }
    }
    Ok((hint, join))
}

fn embed_body(c: &mut Cursor) -> PResult<Vec<SelectItem>> {
    c.expect("(")?;
    c.skip_ws();
    if c.eat(")") {
        return Ok(vec![]);
    }
    let items = select_list(c)?;
    c.skip_ws();
    c.expect(")")?;
    Ok(items)
}

/// Parses a filter key into its embed path and field (`a.b.col->x`).
pub fn parse_filter_key(input: &str) -> PResult<(EmbedPath, Field)> {
    let mut c = Cursor::new("filter", input);
    let mut path = vec![];
    loop {
        let name = c.name()?;
        if c.eat(".") {
            path.push(name);
            continue;
        }
        let json_path = c.json_path()?;
        if !c.at_end() {
            return c.fail("\"->\", \".\" or end of input");
        }
        return Ok((path, Field { name, json_path }));
    }
}

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
    c.chars[start..c.pos].iter().collect()
}

/// `in_logic` stops values at `,` / `)` (inside `or=(…)`); otherwise the value is the rest of the input.
fn op_expr(c: &mut Cursor, in_logic: bool) -> PResult<OpExpr> {
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
        let start = c.pos;
        let v = op_name_underscore(c).to_ascii_lowercase();
        Operation::Is(match v.as_str() {
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
    } else if let Some(op) = match name.as_str() {
        "fts" => Some(FtsOp::Fts),
        "plfts" => Some(FtsOp::Plfts),
        "phfts" => Some(FtsOp::Phfts),
        "wfts" => Some(FtsOp::Wfts),
        _ => None,
    } {
        let language = if c.eat("(") {
            let start = c.pos;
            while c.peek().is_some_and(|ch| ch != ')') {
                c.pos += 1;
            }
            let l: String = c.chars[start..c.pos].iter().collect();
            c.expect(")")?;
            Some(l)
        } else {
            None
        };
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

fn op_name_underscore(c: &mut Cursor) -> String {
    let start = c.pos;
    while c.peek().is_some_and(|ch| ch.is_ascii_alphabetic() || ch == '_') {
        c.pos += 1;
    }
    c.chars[start..c.pos].iter().collect()
}

/// A value: the rest of the input, or inside a logic tree a quoted value, a `{…}` literal, or text up to `,`/`)`.
fn value(c: &mut Cursor, in_logic: bool) -> PResult<String> {
    if !in_logic {
        let v: String = c.chars[c.pos..].iter().collect();
        c.pos = c.chars.len();
        return Ok(v);
    }
    if c.peek() == Some('"') {
        return c.quoted();
    }
    let start = c.pos;
    if c.peek() == Some('{') {
        let mut depth = 0;
        while let Some(ch) = c.peek() {
            c.pos += 1;
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
        return Ok(c.chars[start..c.pos].iter().collect());
    }
    while c.peek().is_some_and(|ch| ch != ',' && ch != ')') {
        c.pos += 1;
    }
    Ok(c.chars[start..c.pos].iter().collect())
}

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
                c.pos += 1;
            }
            items.push(c.chars[start..c.pos].iter().collect::<String>().trim().to_string());
        }
        if c.eat(",") {
            continue;
        }
        c.expect(")")?;
        return Ok(items);
    }
}

/// Parses a logic key: `[path.]["not."](or|and)` → (path, negated, is_or); `None` if not a logic key.
pub fn logic_key(key: &str) -> Option<(EmbedPath, bool, bool)> {
    let parts: Vec<&str> = key.split('.').collect();
    let (last, rest) = parts.split_last()?;
    let is_or = match *last {
        "or" => true,
        "and" => false,
        _ => return None,
    };
    let (negated, path) = match rest.split_last() {
        Some((&"not", p)) => (true, p),
        _ => (false, rest),
    };
    Some((path.iter().map(|s| s.to_string()).collect(), negated, is_or))
}

/// Parses a logic tree value `(cond,cond)` for a key already split by [`logic_key`].
pub fn parse_logic(negated: bool, is_or: bool, input: &str) -> PResult<LogicTree> {
    let mut c = Cursor::new("logic tree", input);
    c.offset = if is_or { 2 } else { 3 } + if negated { 4 } else { 0 };
    let children = logic_children(&mut c)?;
    c.skip_ws();
    if !c.at_end() {
        return c.fail("end of input");
    }
    Ok(LogicTree::Expr { negated, or: is_or, children })
}

fn logic_children(c: &mut Cursor) -> PResult<Vec<LogicTree>> {
    c.skip_ws();
    c.expect("(")?;
    let mut children = vec![];
    loop {
        c.skip_ws();
        children.push(logic_cond(c)?);
        c.skip_ws();
        if c.eat(",") {
            continue;
        }
        c.expect(")")?;
        return Ok(children);
    }
}

fn logic_cond(c: &mut Cursor) -> PResult<LogicTree> {
    let save = c.pos;
    let negated = c.eat("not.");
    for (kw, is_or) in [("or(", true), ("and(", false)] {
        if c.starts_with(kw) {
            c.pos += kw.len() - 1;
            let children = logic_children(c)?;
            return Ok(LogicTree::Expr { negated, or: is_or, children });
        }
    }
    c.pos = save;
    if !c.peek().is_some_and(|ch| ch == '"' || Cursor::is_ident_char(ch)) {
        return c.fail("field name (* or [a..z0..9_$]), negation operator (not) or logic operator (and, or)");
    }
    let field = c.field()?;
    c.expect(".")?;
    let expr = op_expr(c, true)?;
    Ok(LogicTree::Stmt(Filter { field, expr }))
}

/// Parses `order=`.
pub fn parse_order(input: &str) -> PResult<Vec<OrderTerm>> {
    let mut c = Cursor::new("order", input);
    let mut terms = vec![];
    loop {
        c.skip_ws();
        let first = c.name()?;
        let (relation, field) = if c.eat("(") {
            let f = c.field()?;
            c.expect(")")?;
            (Some(first), f)
        } else {
            (None, Field { name: first, json_path: c.json_path()? })
        };
        let mut direction = None;
        let mut nulls = None;
        while c.eat(".") {
            if direction.is_none() && nulls.is_none() && c.eat("asc") {
                direction = Some(Direction::Asc);
            } else if direction.is_none() && nulls.is_none() && c.eat("desc") {
                direction = Some(Direction::Desc);
            } else if nulls.is_none() && c.eat("nullsfirst") {
                nulls = Some(Nulls::First);
            } else if nulls.is_none() && c.eat("nullslast") {
                nulls = Some(Nulls::Last);
            } else {
                return c.fail("\"asc\", \"desc\", \"nullsfirst\" or \"nullslast\"");
            }
        }
        terms.push(OrderTerm { relation, field, direction, nulls });
        c.skip_ws();
        if c.eat(",") {
            continue;
        }
        if !c.at_end() {
            return c.fail_quoted("\",\" or end of input", '\'');
        }
        return Ok(terms);
    }
}

/// Parses a comma-separated list of (possibly quoted) column names (`columns=`, `on_conflict=`).
pub fn parse_columns(what: &str, input: &str) -> PResult<Vec<String>> {
    let mut c = Cursor::new(what, input);
    let mut cols = vec![];
    loop {
        cols.push(c.name()?);
        if c.eat(",") {
            continue;
        }
        if !c.at_end() {
            return c.fail("\",\" or end of input");
        }
        return Ok(cols);
    }
}

/// Parses a non-negative integer parameter (`limit`, `offset`).
pub fn parse_integer(what: &str, input: &str) -> PResult<i64> {
    input.trim().parse::<i64>().map_err(|_| Error::Parse {
        message: format!("\"failed to parse {what} parameter ({input})\" (line 1, column 1)"),
        details: "unexpected input expecting digit".into(),
    })
}

#[cfg(test)]
#[path = "query_params_tests.rs"]
mod tests;
