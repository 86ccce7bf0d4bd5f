//! The character cursor the query-string parsers share: tokens of PostgREST's grammar (names, quoted names,
//! JSON paths, casts) and PGRST100 errors in parsec's shape (`"failed to parse …" (line 1, column n)`).

use super::types::*;
use crate::rest::error::Error;

/// A cursor over the characters of one parameter, kept as a byte offset into the input (no copy of it): every
/// delimiter of the grammar is ASCII, so an ASCII step is one byte and `bump` steps over any other character whole.
pub(super) struct Cursor<'a> {
    /// Byte offset into `input`, always on a character boundary.
    pub(super) pos: usize,
    pub(super) what: &'a str,
    pub(super) input: &'a str,
    /// Characters PostgREST's parser saw before this input (the `or` of `or=(…)`), for error columns.
    pub(super) offset: usize,
}

pub(super) type PResult<T> = Result<T, Error>;

impl<'a> Cursor<'a> {
    pub(super) fn new(what: &'a str, input: &'a str) -> Self {
        Cursor { pos: 0, what, input, offset: 0 }
    }

    fn rest(&self) -> &'a str {
        &self.input[self.pos..]
    }

    pub(super) fn peek(&self) -> Option<char> {
        match self.input.as_bytes().get(self.pos) {
            Some(&b) if b.is_ascii() => Some(b as char),
            Some(_) => self.rest().chars().next(),
            None => None,
        }
    }

    pub(super) fn peek_at(&self, n: usize) -> Option<char> {
        self.rest().chars().nth(n)
    }

    /// Steps over the character at the cursor, whatever its length in bytes.
    pub(super) fn bump(&mut self) {
        self.pos += self.peek().map_or(0, char::len_utf8);
    }

    /// The input from `start` (a byte offset taken from `pos`) to the cursor.
    pub(super) fn since(&self, start: usize) -> &'a str {
        &self.input[start..self.pos]
    }

    /// Everything after the cursor, which then stands at the end.
    pub(super) fn take_rest(&mut self) -> &'a str {
        let r = self.rest();
        self.pos = self.input.len();
        r
    }

    pub(super) fn at_end(&self) -> bool {
        self.pos >= self.input.len()
    }

    pub(super) fn starts_with(&self, s: &str) -> bool {
        self.rest().starts_with(s)
    }

    pub(super) fn eat(&mut self, s: &str) -> bool {
        if self.starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    pub(super) fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    pub(super) fn fail<T>(&self, expecting: &str) -> PResult<T> {
        self.fail_quoted(expecting, '"')
    }

    /// Parsec quotes an unexpected string token with `"` and a single character with `'`.
    pub(super) fn fail_quoted<T>(&self, expecting: &str, quote: char) -> PResult<T> {
        let unexpected = match self.peek() {
            Some(c) if quote == '"' => format!("unexpected {:?}", c.to_string()),
            Some(c) => format!("unexpected '{c}'"),
            None => "unexpected end of input".to_string(),
        };
        Err(Error::Parse {
            message: format!(
                "\"failed to parse {} ({})\" (line 1, column {})",
                self.what,
                self.input,
                self.input[..self.pos].chars().count() + 1 + self.offset
            ),
            details: format!("{unexpected} expecting {expecting}"),
        })
    }

    pub(super) fn expect(&mut self, s: &str) -> PResult<()> {
        if self.eat(s) {
            Ok(())
        } else {
            self.fail(&format!("{s:?}"))
        }
    }

    /// `"…"` with `\"` and `\\` escapes.
    pub(super) fn quoted(&mut self) -> PResult<String> {
        self.expect("\"")?;
        let mut out = String::new();
        loop {
            match self.peek() {
                None => return self.fail("closing quote"),
                Some('\\') if matches!(self.peek_at(1), Some('"') | Some('\\')) => {
                    self.pos += 1;
                    out.push(self.peek().unwrap_or('\\'));
                    self.pos += 1;
                }
                Some('"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(c) => {
                    out.push(c);
                    self.bump();
                }
            }
        }
    }

    pub(super) fn is_ident_char(c: char) -> bool {
        c.is_alphanumeric() || c == '_' || c == '$' || c == ' '
    }

    /// A quoted name or `ident ("-" ident)*`, trimmed.
    pub(super) fn name(&mut self) -> PResult<String> {
        self.skip_ws();
        if self.peek() == Some('"') {
            let n = self.quoted()?;
            self.skip_ws();
            return Ok(n);
        }
        let start = self.pos;
        loop {
            match self.peek() {
                Some(c) if Self::is_ident_char(c) => self.bump(),
                Some('-') if self.peek_at(1) != Some('>') && self.pos > start => self.pos += 1,
                _ => break,
            }
        }
        let n = self.since(start).trim_matches(' ');
        if n.is_empty() || n.ends_with('-') {
            self.pos = start;
            return self.fail("field name (* or [a..z0..9_$])");
        }
        Ok(n.to_string())
    }

    pub(super) fn json_path(&mut self) -> PResult<Vec<JsonOp>> {
        let mut path = vec![];
        loop {
            let double = if self.eat("->>") {
                true
            } else if self.eat("->") {
                false
            } else {
                return Ok(path);
            };
            let key = if self.peek() == Some('"') {
                JsonKey::Key(self.quoted()?)
            } else {
                let start = self.pos;
                if self.peek() == Some('-') {
                    self.pos += 1;
                }
                while self.peek().is_some_and(|c| !"(-:.,>)".contains(c) && !c.is_whitespace()) {
                    self.bump();
                }
                let k = self.since(start).to_string();
                if k.is_empty() || k == "-" {
                    self.pos = start;
                    return self.fail("json key");
                }
                match k.parse::<i64>() {
                    Ok(i) => JsonKey::Idx(i),
                    Err(_) if k.starts_with('-') => {
                        self.pos = start + 1;
                        return self.fail("digit");
                    }
                    Err(_) => JsonKey::Key(k),
                }
            };
            path.push(if double { JsonOp::DoubleArrow(key) } else { JsonOp::Arrow(key) });
        }
    }

    pub(super) fn field(&mut self) -> PResult<Field> {
        let name = self.name()?;
        let json_path = self.json_path()?;
        Ok(Field { name, json_path })
    }

    pub(super) fn cast(&mut self) -> PResult<Option<String>> {
        if !self.eat("::") {
            return Ok(None);
        }
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ' ' || c == '$') {
            self.pos += 1;
        }
        let c = self.since(start).trim().to_string();
        if c.is_empty() {
            return self.fail("cast type");
        }
        Ok(Some(c))
    }
}
