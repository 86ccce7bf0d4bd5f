//! Realtime Authorization for private channels, as Supabase does it: policies on `realtime.messages` decide, with
//! `realtime.topic()` naming the channel and `extension` the feature. Read: probe rows are written as the table
//! owner, then selected back as the caller's role and claims — a visible row means read is allowed. Write: an
//! insert as the caller inside a savepoint — success means write is allowed, `42501` (a failed WITH CHECK) means
//! it is not. Everything is rolled back. PostgreSQL evaluates the policies; the gateway only asks.

use super::credentials::Credentials;
use deadpool_postgres::Pool;

/// What a caller may do on one private channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Policies {
    pub read_broadcast: bool,
    pub read_presence: bool,
    pub write_broadcast: bool,
    pub write_presence: bool,
}

impl Policies {
    /// A public channel: everything is allowed.
    pub const PUBLIC: Policies =
        Policies { read_broadcast: true, read_presence: true, write_broadcast: true, write_presence: true };

    pub fn can_read(&self) -> bool {
        self.read_broadcast || self.read_presence
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthorizationError {
    /// The database could not be reached.
    #[error("Realtime was unable to connect to the project database")]
    Unavailable,
    /// A policy raised an error while being evaluated.
    #[error("{0}")]
    Policy(String),
}

const SET_CONTEXT: &str = "select set_config('role', $1, true), set_config('realtime.topic', $2, true), \
    set_config('request.jwt.claims', $3, true), set_config('request.jwt.claim.sub', $4, true), \
    set_config('request.jwt.claim.role', $1, true), set_config('request.headers', $5, true)";

/// Evaluates the read and write policies of `sub_topic` for the caller (presence only when it is enabled).
pub async fn authorize(
    pool: &Pool,
    sub_topic: &str,
    caller: &Credentials,
    headers_json: &str,
    presence: bool,
) -> Result<Policies, AuthorizationError> {
    let mut client = pool.get().await.map_err(|_| AuthorizationError::Unavailable)?;
    let tx = client.transaction().await.map_err(|_| AuthorizationError::Unavailable)?;
    let extensions: Vec<&str> = if presence { vec!["broadcast", "presence"] } else { vec!["broadcast"] };
    let policy = |e: tokio_postgres::Error| match e.as_db_error() {
        Some(db) => AuthorizationError::Policy(db.message().to_string()),
        None => AuthorizationError::Unavailable,
    };
    let probes = tx
        .query("select id from realtime.authorization_probe($1, $2)", &[&sub_topic, &extensions])
        .await
        .map_err(policy)?;
    let ids: Vec<uuid::Uuid> = probes.iter().map(|r| r.get(0)).collect();
    let sub = caller.sub().unwrap_or("");
    tx.execute(SET_CONTEXT, &[&caller.role, &sub_topic, &caller.claims_json, &sub, &headers_json])
        .await
        .map_err(policy)?;
    let visible =
        tx.query("select extension from realtime.messages where id = any($1)", &[&ids]).await.map_err(policy)?;
    let readable = |ext: &str| visible.iter().any(|r| r.get::<_, &str>(0) == ext);
    let mut policies =
        Policies { read_broadcast: readable("broadcast"), read_presence: readable("presence"), ..Default::default() };
    policies.write_broadcast = can_write(&tx, sub_topic, "broadcast").await?;
    if presence {
        policies.write_presence = can_write(&tx, sub_topic, "presence").await?;
    }
    let _ = tx.rollback().await;
    Ok(policies)
}

async fn can_write(
    tx: &deadpool_postgres::Transaction<'_>,
    sub_topic: &str,
    extension: &str,
) -> Result<bool, AuthorizationError> {
    let savepoint = |e: tokio_postgres::Error| {
        tracing::warn!(error = %e, "realtime authorization savepoint failed");
        AuthorizationError::Unavailable
    };
    tx.batch_execute("savepoint realtime_write_check").await.map_err(savepoint)?;
    let result =
        tx.execute("insert into realtime.messages (topic, extension) values ($1, $2)", &[&sub_topic, &extension]).await;
    tx.batch_execute("rollback to savepoint realtime_write_check").await.map_err(savepoint)?;
    match result {
        Ok(_) => Ok(true),
        Err(e) if e.code() == Some(&tokio_postgres::error::SqlState::INSUFFICIENT_PRIVILEGE) => Ok(false),
        Err(e) => match e.as_db_error() {
            Some(db) => Err(AuthorizationError::Policy(db.message().to_string())),
            None => Err(AuthorizationError::Unavailable),
        },
    }
}
