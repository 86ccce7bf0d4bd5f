//! `select=`: fields with aliases, casts and JSON paths, aggregates, `count()`, embeds and spreads with their
//! hints (the grammar is in the parent module).

use super::super::cursor::{Cursor, PResult};
use super::super::types::*;

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
        return embed(c, name, None, true);
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
        return embed(c, name, alias, false);
    }
    let json_path = c.json_path()?;
    let field = Field { name, json_path };
    let cast = c.cast()?;
    let (aggregate, aggregate_cast) = if c.peek() == Some('.') { aggregate(c)? } else { (None, None) };
    Ok(SelectItem::Field { field, alias, cast, aggregate, aggregate_cast })
}

/// `.sum()` and the others after a field, with the cast of the result.
fn aggregate(c: &mut Cursor) -> PResult<(Option<Aggregate>, Option<String>)> {
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
            Ok((Some(a), c.cast()?))
        }
        None => c.fail("aggregate function (sum(), avg(), min(), max(), count())"),
    }
}

/// An embed's hints and body after its name.
fn embed(c: &mut Cursor, name: String, alias: Option<String>, spread: bool) -> PResult<SelectItem> {
    let (hint, join) = embed_hints(c)?;
    let select = embed_body(c)?;
    Ok(SelectItem::Embed(Embed { name, alias, hint, join, spread, select }))
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
