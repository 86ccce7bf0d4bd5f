//! `order=`: terms on fields or on to-one embeds' fields, with direction and nulls placement (the grammar is in the
//! parent module).

use super::super::cursor::{Cursor, PResult};
use super::super::types::*;

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
        let (direction, nulls) = modifiers(&mut c)?;
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

/// A term's `.asc`/`.desc` and `.nullsfirst`/`.nullslast`, in that order.
fn modifiers(c: &mut Cursor) -> PResult<(Option<Direction>, Option<Nulls>)> {
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
    Ok((direction, nulls))
}
