//! Logic trees: `[path.][not.](and|or)=(cond,…)`, nested (the grammar is in the parent module).

use super::super::cursor::{Cursor, PResult};
use super::super::types::*;
use super::operator::op_expr;

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
