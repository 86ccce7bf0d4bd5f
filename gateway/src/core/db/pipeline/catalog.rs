//! A connection's prepared statements (SQL text → name) and the encoding of a batch against them: Parse at first
//! use under a fresh name, Bind and Execute per step, one Sync. With batches of several requests queued on one
//! connection, a statement whose Parse is still in flight in another batch is not assumed prepared (that batch may
//! fail before its Parse runs): it is parsed unnamed.

use super::error::PgError;
use super::step::{bind, Step};
use bytes::BytesMut;
use postgres_protocol::message::frontend;
use rustc_hash::{FxHashMap, FxHashSet};

/// Bound on statements prepared per connection; past it, statements are parsed unnamed each time.
const MAX_PREPARED: usize = 500;

/// What a connection has prepared, and the names it hands out.
#[derive(Debug, Default)]
pub(super) struct Catalog {
    /// SQL text → prepared statement name (FxHash: the texts are long, and SipHash over them showed in profiles).
    prepared: FxHashMap<String, String>,
    next_name: u64,
}

impl Catalog {
    pub fn len(&self) -> usize {
        self.prepared.len()
    }

    /// Records a statement the server confirmed (ParseComplete).
    pub fn confirm(&mut self, sql: String, name: String) {
        self.prepared.insert(sql, name);
    }

    /// Parse (for statements not prepared yet), Bind and Execute for each step, then one Sync, into `buf`. Returns
    /// the batch's Parses, in order. A statement in `pending` (being parsed by another batch in flight) is parsed
    /// unnamed; those this batch names are added to `pending`.
    pub fn encode(
        &mut self,
        steps: &[Step<'_>],
        buf: &mut BytesMut,
        pending: &mut FxHashSet<String>,
    ) -> Result<Parsing, PgError> {
        let mut parsing = Parsing::default();
        for step in steps {
            // the usual case, a statement prepared before, borrows its name: no copy per step
            if let Some(name) = self.prepared.get(step.sql) {
                bind(name, step, buf)?;
            } else if let Some(name) = parsing.named(step.sql) {
                bind(name, step, buf)?;
            } else if !pending.contains(step.sql) && self.prepared.len() + pending.len() < MAX_PREPARED {
                self.next_name += 1;
                let name = format!("p{}", self.next_name);
                frontend::parse(&name, step.sql, std::iter::empty(), buf)?;
                bind(&name, step, buf)?;
                pending.insert(step.sql.to_string());
                parsing.parses.push(Some((step.sql.to_string(), name)));
            } else {
                frontend::parse("", step.sql, std::iter::empty(), buf)?;
                bind("", step, buf)?;
                parsing.parses.push(None);
            }
            frontend::execute("", 0, buf)?;
        }
        frontend::sync(buf);
        Ok(parsing)
    }
}

/// Every Parse one batch sends, in order, and how many of them the server has confirmed so far: each ParseComplete
/// answers the next Parse, named or not. A named one is (sql, name); an unnamed one (`None`) prepares nothing that
/// outlives the batch, but its ParseComplete still comes and must not be taken for the next named one's.
#[derive(Debug, Default)]
pub(super) struct Parsing {
    parses: Vec<Option<(String, String)>>,
    confirmed: usize,
}

impl Parsing {
    /// The name this batch gives `sql`, if it parses it under one.
    fn named(&self, sql: &str) -> Option<&str> {
        self.parses.iter().flatten().find(|(s, _)| s == sql).map(|(_, name)| name.as_str())
    }

    /// What the server's next ParseComplete confirms: the named statement (sql, name) now prepared, or `None` for an
    /// unnamed Parse.
    pub fn confirm_next(&mut self) -> Result<Option<(String, String)>, PgError> {
        let next = self.parses.get_mut(self.confirmed).map(Option::take);
        let next = next.ok_or_else(|| PgError::Protocol("unexpected ParseComplete".into()))?;
        self.confirmed += 1;
        Ok(next)
    }

    /// The SQL of the named statements not confirmed (the batch ended before their Parse ran).
    pub fn unconfirmed(&self) -> impl Iterator<Item = &str> {
        self.parses[self.confirmed..].iter().flatten().map(|(sql, _)| sql.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statement names a batch's Parse messages carry, in order ("" for unnamed).
    fn parse_names(buf: &[u8]) -> Vec<String> {
        let mut names = vec![];
        let mut at = 0;
        while at < buf.len() {
            let len = u32::from_be_bytes([buf[at + 1], buf[at + 2], buf[at + 3], buf[at + 4]]) as usize;
            if buf[at] == b'P' {
                let body = &buf[at + 5..at + 1 + len];
                let end = body.iter().position(|&b| b == 0).unwrap();
                names.push(String::from_utf8(body[..end].to_vec()).unwrap());
            }
            at += 1 + len;
        }
        names
    }

    #[test]
    fn a_new_statement_is_named_once_per_batch() {
        let (mut catalog, mut pending) = (Catalog::default(), FxHashSet::default());
        let mut buf = BytesMut::new();
        let steps = [Step::new("select 1"), Step::new("select 1")];
        let parsing = catalog.encode(&steps, &mut buf, &mut pending).unwrap();
        assert_eq!(parsing.parses, [Some(("select 1".to_string(), "p1".to_string()))]);
        assert_eq!(parse_names(&buf), ["p1"]);
        assert!(pending.contains("select 1"));
    }

    #[test]
    fn a_statement_parsed_by_another_batch_in_flight_is_parsed_unnamed() {
        let (mut catalog, mut pending) = (Catalog::default(), FxHashSet::default());
        let (mut first, mut second) = (BytesMut::new(), BytesMut::new());
        catalog.encode(&[Step::new("select 1")], &mut first, &mut pending).unwrap();
        let parsing = catalog.encode(&[Step::new("select 1")], &mut second, &mut pending).unwrap();
        assert_eq!(parsing.parses, [None]);
        assert_eq!(parse_names(&second), [""]);
    }

    /// Each ParseComplete answers the next Parse, named or not: an unnamed Parse's must not confirm the named one
    /// after it (nor be refused as unexpected, which failed a request joining a batch that names the same statement).
    #[test]
    fn an_unnamed_parse_takes_its_own_parse_complete() {
        let (mut catalog, mut pending) = (Catalog::default(), FxHashSet::default());
        pending.insert("select 1".to_string()); // named by another batch in flight
        let mut buf = BytesMut::new();
        let steps = [Step::new("select 1"), Step::new("select 2")];
        let mut parsing = catalog.encode(&steps, &mut buf, &mut pending).unwrap();
        assert_eq!(parse_names(&buf), ["", "p1"]);
        assert_eq!(parsing.unconfirmed().collect::<Vec<_>>(), ["select 2"]);
        assert_eq!(parsing.confirm_next().unwrap(), None, "the unnamed Parse");
        assert_eq!(parsing.confirm_next().unwrap(), Some(("select 2".to_string(), "p1".to_string())));
        assert_eq!(parsing.unconfirmed().count(), 0);
        assert!(parsing.confirm_next().is_err(), "no third Parse was sent");
    }

    #[test]
    fn a_confirmed_statement_is_bound_by_name_without_parse() {
        let (mut catalog, mut pending) = (Catalog::default(), FxHashSet::default());
        catalog.confirm("select 1".into(), "p7".into());
        let mut buf = BytesMut::new();
        assert!(catalog.encode(&[Step::new("select 1")], &mut buf, &mut pending).unwrap().parses.is_empty());
        assert!(parse_names(&buf).is_empty());
        assert_eq!(buf[0], b'B');
    }
}
