//! What can go wrong on a pipelined connection: the server's own error (with its SQLSTATE and texts), or the
//! connection itself (I/O, protocol), after which the connection is never reused.

use postgres_protocol::message::backend::ErrorFields;

/// A server error (`ErrorResponse`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DbError {
    pub code: String,
    pub message: String,
    pub detail: Option<String>,
    pub hint: Option<String>,
}

impl DbError {
    pub(super) fn from_fields(mut fields: ErrorFields<'_>) -> std::io::Result<Self> {
        use fallible_iterator::FallibleIterator;
        let mut e = DbError { code: String::new(), message: String::new(), detail: None, hint: None };
        while let Some(f) = fields.next()? {
            let value = String::from_utf8_lossy(f.value_bytes()).into_owned();
            match f.type_() {
                b'C' => e.code = value,
                b'M' => e.message = value,
                b'D' => e.detail = Some(value),
                b'H' => e.hint = Some(value),
                _ => {}
            }
        }
        Ok(e)
    }
}

impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PgError {
    #[error("database error: {0}")]
    Db(DbError),
    #[error("database connection error: {0}")]
    Io(#[from] std::io::Error),
    #[error("database protocol error: {0}")]
    Protocol(String),
}

impl PgError {
    pub fn as_db(&self) -> Option<&DbError> {
        match self {
            PgError::Db(e) => Some(e),
            _ => None,
        }
    }
}
