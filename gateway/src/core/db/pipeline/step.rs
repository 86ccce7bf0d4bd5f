//! One statement of a pipeline (its SQL and text parameters) and the Bind message that carries them.

use super::error::PgError;
use bytes::BytesMut;
use postgres_protocol::message::frontend;
use postgres_protocol::IsNull;

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

/// Bind of a step's text parameters to statement `name` (the unnamed portal).
pub(super) fn bind(name: &str, step: &Step<'_>, buf: &mut BytesMut) -> Result<(), PgError> {
    frontend::bind(
        "",
        name,
        std::iter::empty(),
        step.params.iter(),
        |value, out| match value {
            Some(v) => {
                out.extend_from_slice(v.as_bytes());
                Ok(IsNull::No)
            }
            None => Ok(IsNull::Yes),
        },
        std::iter::empty(),
        buf,
    )
    .map_err(|e| PgError::Protocol(format!("cannot encode parameters: {}", bind_error(e))))
}

fn bind_error(e: frontend::BindError) -> String {
    match e {
        frontend::BindError::Conversion(e) => e.to_string(),
        frontend::BindError::Serialization(e) => e.to_string(),
    }
}
