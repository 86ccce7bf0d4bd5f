//! One statement of a pipeline (its SQL and text parameters) and the Bind message that carries them.

use super::error::PgError;
use bytes::BytesMut;

/// One statement of a pipeline: SQL text and its parameters in text form (`None` = NULL).
pub struct Step<'a> {
    pub sql: &'a str,
    pub params: Vec<Option<&'a str>>,
}

impl<'a> Step<'a> {
    pub fn new(sql: &'a str) -> Self {
        Step { sql, params: vec![] }
    }

    pub fn with_params(sql: &'a str, params: Vec<Option<&'a str>>) -> Self {
        Step { sql, params }
    }
}

/// Bind of a step's text parameters to statement `name` (the unnamed portal; every parameter and result column in
/// text format), written straight into `buf`: the room is made once and the lengths and values copied into it (a
/// `put_*` per field, as the generic encoder does, cost more than the copying).
pub(super) fn bind(name: &str, step: &Step<'_>, buf: &mut BytesMut) -> Result<(), PgError> {
    let too_long = || PgError::Protocol("cannot encode parameters: message too long".into());
    let values: usize = step.params.iter().map(|p| 4 + p.map_or(0, str::len)).sum();
    // after the tag: length (4), portal "" (1), name and its nul, format codes (2), count (2), values, result codes (2)
    let len = 4 + 1 + name.len() + 1 + 2 + 2 + values + 2;
    let len32 = i32::try_from(len).map_err(|_| too_long())?;
    let count = i16::try_from(step.params.len()).map_err(|_| too_long())?;
    let start = buf.len();
    buf.resize(start + 1 + len, 0);
    let out = &mut buf[start..];
    out[0] = b'B';
    out[1..5].copy_from_slice(&len32.to_be_bytes());
    // out[5] is the portal's nul
    let mut at = 6;
    out[at..at + name.len()].copy_from_slice(name.as_bytes());
    // then the name's nul and no format codes (zeros)
    at += name.len() + 3;
    out[at..at + 2].copy_from_slice(&count.to_be_bytes());
    at += 2;
    for param in &step.params {
        match param {
            // each value is shorter than the message, whose length fits in an i32
            Some(v) => {
                out[at..at + 4].copy_from_slice(&(v.len() as i32).to_be_bytes());
                out[at + 4..at + 4 + v.len()].copy_from_slice(v.as_bytes());
                at += 4 + v.len();
            }
            None => {
                out[at..at + 4].copy_from_slice(&(-1i32).to_be_bytes());
                at += 4;
            }
        }
    }
    // the last two bytes, no result format codes, stay zero
    debug_assert_eq!(at + 2, out.len());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use postgres_protocol::message::frontend;
    use postgres_protocol::IsNull;

    /// The Bind postgres-protocol's encoder writes for the same step.
    fn reference(name: &str, step: &Step<'_>) -> BytesMut {
        let mut buf = BytesMut::new();
        let put = |value: &Option<&str>, out: &mut BytesMut| match value {
            Some(v) => {
                out.extend_from_slice(v.as_bytes());
                Ok(IsNull::No)
            }
            None => Ok(IsNull::Yes),
        };
        let ok = frontend::bind("", name, std::iter::empty(), step.params.iter(), put, std::iter::empty(), &mut buf);
        assert!(ok.is_ok());
        buf
    }

    #[test]
    fn bind_is_the_message_postgres_protocol_writes() {
        let steps =
            [Step::new("select 1"), Step::with_params("x", vec![Some("a"), None, Some(""), Some("{\"k\": \"é\"}")])];
        for name in ["", "p12"] {
            for step in &steps {
                let mut buf = BytesMut::new();
                bind(name, step, &mut buf).unwrap();
                assert_eq!(buf, reference(name, step));
            }
        }
    }
}
