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

mod logic;
mod operator;
mod order;
mod select;

use super::cursor::{Cursor, PResult};
use super::types::*;
use crate::rest::error::Error;
pub use logic::{logic_key, parse_logic};
pub use operator::parse_op_expr;
pub use order::parse_order;
pub use select::parse_select;

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
mod tests;
