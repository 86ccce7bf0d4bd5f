//! The character cursor the query-string parsers share: tokens of PostgREST's grammar (names, quoted names,
//! JSON paths, casts) and PGRST100 errors in parsec's shape (`"failed to parse …" (line 1, column n)`).

use super::types::*;
use crate::rest::error::Error;

/// A cursor over the characters of one parameter.
pub(super) struct Cursor<'a> {
    pub(super) chars: Vec<char>,
    pub(super) pos: usize,
    pub(super) what: &'a str,
    pub(super) input: &'a str,
    /// Characters PostgREST's parser saw before this input (the `or` of `or=(…)`), for error columns.
    pub(super) offset: usize,
}

pub(super) type PResult<T> = Result<T, Error>;

impl<'a> Cursor<'a> {
    pub(super) fn new(what: &'a str, input: &'a str) -> Self {
        Cursor { chars: input.chars().collect(), pos: 0, what, input, offset: 0 }
    }

    pub(super) fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    pub(super) fn peek_at(&self, n: usize) -> Option<char> {
        self.chars.get(self.pos + n).copied()
    }

    pub(super) fn at_end(&self) -> bool {
        self.pos >= self.chars.len()
    }

    pub(super) fn starts_with(&self, s: &str) -> bool {
        s.chars().enumerate().all(|(i, c)| self.peek_at(i) == Some(c))
    }

    pub(super) fn eat(&mut self, s: &str) -> bool {
        if self.starts_with(s) {
            self.pos += s.chars().count();
            true
        } else {
            false
        }
    }

    pub(super) fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
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
                self.pos + 1 + self.offset
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
                    out.push(self.chars[self.pos + 1]);
                    self.pos += 2;
                }
                Some('"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(c) => {
                    out.push(c);
                    self.pos += 1;
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
                Some(c) if Self::is_ident_char(c) => self.pos += 1,
                Some('-') if self.peek_at(1) != Some('>') && self.pos > start => self.pos += 1,
                _ => break,
            }
        }
        let mut n: String = self.chars[start..self.pos].iter().collect();
        if n.starts_with(' ') || n.ends_with(' ') {
            n = n.trim().to_string();
        }
        if n.is_empty() || n.ends_with('-') {
            self.pos = start;
            return self.fail("field name (* or [a..z0..9_$])");
        }
        Ok(n)
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
                    self.pos += 1;
                }
                let k: String = self.chars[start..self.pos].iter().collect();
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
        let c: String = self.chars[start..self.pos].iter().collect::<String>().trim().to_string();
        if c.is_empty() {
            return self.fail("cast type");
        }
        Ok(Some(c))
    }
}
