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
    /// the statements this batch parses under a name, in Parse order. A statement in `pending` (being parsed by
    /// another batch in flight) is parsed unnamed; those this batch names are added to `pending`.
    pub fn encode(
        &mut self,
        steps: &[Step<'_>],
        buf: &mut BytesMut,
        pending: &mut FxHashSet<String>,
    ) -> Result<Parsing, PgError> {
        let mut parsing: Vec<(String, String)> = vec![];
        for step in steps {
            // the usual case, a statement prepared before, borrows its name: no copy per step
            if let Some(name) = self.prepared.get(step.sql) {
                bind(name, step, buf)?;
            } else if let Some(i) = parsing.iter().position(|(sql, _)| sql == step.sql) {
                bind(&parsing[i].1, step, buf)?;
            } else if !pending.contains(step.sql) && self.prepared.len() + pending.len() < MAX_PREPARED {
                self.next_name += 1;
                let name = format!("p{}", self.next_name);
                frontend::parse(&name, step.sql, std::iter::empty(), buf)?;
                bind(&name, step, buf)?;
                pending.insert(step.sql.to_string());
                parsing.push((step.sql.to_string(), name));
            } else {
                frontend::parse("", step.sql, std::iter::empty(), buf)?;
                bind("", step, buf)?;
            }
            frontend::execute("", 0, buf)?;
        }
        frontend::sync(buf);
        Ok(Parsing { named: parsing, confirmed: 0 })
    }
}

/// The statements one batch parses under a name (sql, name), in Parse order, and how many of them the server has
/// confirmed so far (each ParseComplete confirms the next).
#[derive(Debug, Default)]
pub(super) struct Parsing {
    named: Vec<(String, String)>,
    confirmed: usize,
}

impl Parsing {
    /// The statement the server's next ParseComplete confirms (sql, name).
    pub fn confirm_next(&mut self) -> Result<(String, String), PgError> {
        let next = self.named.get_mut(self.confirmed).map(std::mem::take);
        let next = next.ok_or_else(|| PgError::Protocol("unexpected ParseComplete".into()))?;
        self.confirmed += 1;
        Ok(next)
    }

    /// The SQL of the statements not confirmed (the batch ended before their Parse ran).
    pub fn unconfirmed(&self) -> impl Iterator<Item = &str> {
        self.named[self.confirmed..].iter().map(|(sql, _)| sql.as_str())
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
        assert_eq!(parsing.named, [("select 1".to_string(), "p1".to_string())]);
        assert_eq!(parse_names(&buf), ["p1"]);
        assert!(pending.contains("select 1"));
    }

    #[test]
    fn a_statement_parsed_by_another_batch_in_flight_is_parsed_unnamed() {
        let (mut catalog, mut pending) = (Catalog::default(), FxHashSet::default());
        let (mut first, mut second) = (BytesMut::new(), BytesMut::new());
        catalog.encode(&[Step::new("select 1")], &mut first, &mut pending).unwrap();
        let parsing = catalog.encode(&[Step::new("select 1")], &mut second, &mut pending).unwrap();
        assert!(parsing.named.is_empty());
        assert_eq!(parse_names(&second), [""]);
    }

    #[test]
    fn a_confirmed_statement_is_bound_by_name_without_parse() {
        let (mut catalog, mut pending) = (Catalog::default(), FxHashSet::default());
        catalog.confirm("select 1".into(), "p7".into());
        let mut buf = BytesMut::new();
        assert!(catalog.encode(&[Step::new("select 1")], &mut buf, &mut pending).unwrap().named.is_empty());
        assert!(parse_names(&buf).is_empty());
        assert_eq!(buf[0], b'B');
    }
}
