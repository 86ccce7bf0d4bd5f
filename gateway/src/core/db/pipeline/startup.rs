//! Opening a connection: TCP or Unix socket from a parsed connection string, the startup message, and
//! authentication (trust, cleartext, MD5, SCRAM-SHA-256) until the server is ready for queries.

use super::cancel::{CancelKey, Peer};
use super::conn::{PgConn, Stream};
use super::error::{DbError, PgError};
use bytes::BytesMut;
use postgres_protocol::authentication::sasl::{ChannelBinding, ScramSha256, SCRAM_SHA_256};
use postgres_protocol::message::backend::Message;
use postgres_protocol::message::frontend;
use std::time::Duration;
use tokio_postgres::config::{Host, SslMode};
use tokio_postgres::Config;

/// Connects to the first host that answers.
pub async fn connect(config: &Config) -> Result<PgConn, PgError> {
    connect_with(config, &[]).await
}

/// A logical replication connection (`replication=database`): it runs replication commands and simple queries.
pub async fn connect_replication(config: &Config) -> Result<PgConn, PgError> {
    connect_with(config, &[("replication", "database")]).await
}

/// Connects with extra start-up parameters.
async fn connect_with(config: &Config, extra: &[(&str, &str)]) -> Result<PgConn, PgError> {
    if config.get_ssl_mode() == SslMode::Require {
        return Err(PgError::Protocol("sslmode=require is not supported by the request pool".into()));
    }
    let hosts = config.get_hosts();
    if hosts.is_empty() {
        return Err(PgError::Protocol("the connection string names no host".into()));
    }
    let ports = config.get_ports();
    let mut last = None;
    for (i, host) in hosts.iter().enumerate() {
        let port = ports.get(i).or_else(|| ports.first()).copied().unwrap_or(5432);
        let attempt = async {
            let (stream, peer) = match host {
                Host::Tcp(name) => {
                    let s = tokio::net::TcpStream::connect((name.as_str(), port)).await?;
                    s.set_nodelay(true)?;
                    let peer = Peer::Tcp(s.peer_addr()?);
                    (Stream::Tcp(s), peer)
                }
                Host::Unix(dir) => {
                    let path = dir.join(format!(".s.PGSQL.{port}"));
                    (Stream::Unix(tokio::net::UnixStream::connect(&path).await?), Peer::Unix(path))
                }
            };
            start(stream, peer, config, extra).await
        };
        let result = match config.get_connect_timeout() {
            Some(t) => tokio::time::timeout(*t, attempt).await.unwrap_or_else(|_| Err(timeout())),
            None => tokio::time::timeout(Duration::from_secs(30), attempt).await.unwrap_or_else(|_| Err(timeout())),
        };
        match result {
            Ok(conn) => return Ok(conn),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(timeout))
}

fn timeout() -> PgError {
    PgError::Io(std::io::ErrorKind::TimedOut.into())
}

async fn start(stream: Stream, peer: Peer, config: &Config, extra: &[(&str, &str)]) -> Result<PgConn, PgError> {
    let user = config.get_user().ok_or_else(|| PgError::Protocol("the connection string names no user".into()))?;
    // Request transactions of reads run without BEGIN (in the implicit transaction a pipeline's Sync ends), so the
    // session defaults must be PostgREST's explicit `BEGIN ISOLATION LEVEL READ COMMITTED READ WRITE`; sent at
    // start-up, they take precedence over database and role defaults.
    let mut params = vec![
        ("client_encoding", "UTF8"),
        ("user", user),
        ("default_transaction_isolation", "read committed"),
        ("default_transaction_read_only", "off"),
    ];
    if let Some(db) = config.get_dbname() {
        params.push(("database", db));
    }
    if let Some(app) = config.get_application_name() {
        params.push(("application_name", app));
    }
    if let Some(options) = config.get_options() {
        params.push(("options", options));
    }
    params.extend_from_slice(extra);
    let mut conn = PgConn::new(stream, BytesMut::with_capacity(8192));
    let mut buf = BytesMut::new();
    frontend::startup_message(params.iter().copied(), &mut buf)?;
    conn.send(&buf).await?;
    authenticate(&mut conn, user, config.get_password()).await?;
    loop {
        match conn.read_message().await? {
            Message::ReadyForQuery(_) => return Ok(conn),
            Message::ErrorResponse(body) => return Err(PgError::Db(DbError::from_fields(body.fields())?)),
            Message::BackendKeyData(body) => conn.set_cancel_key(CancelKey {
                peer: peer.clone(),
                process_id: body.process_id(),
                secret_key: body.secret_key(),
            }),
            _ => {} // ParameterStatus, NoticeResponse
        }
    }
}

/// Answers the server's authentication requests (cleartext, MD5, SCRAM-SHA-256) until it is satisfied.
async fn authenticate(conn: &mut PgConn, user: &str, password: Option<&[u8]>) -> Result<(), PgError> {
    let need_password = || password.ok_or_else(|| PgError::Protocol("the server asks for a password".into()));
    let mut buf = BytesMut::new();
    loop {
        buf.clear();
        match conn.read_message().await? {
            Message::AuthenticationOk => return Ok(()),
            Message::AuthenticationCleartextPassword => {
                frontend::password_message(need_password()?, &mut buf)?;
                conn.send(&buf).await?;
            }
            Message::AuthenticationMd5Password(body) => {
                let hash = postgres_protocol::authentication::md5_hash(user.as_bytes(), need_password()?, body.salt());
                frontend::password_message(hash.as_bytes(), &mut buf)?;
                conn.send(&buf).await?;
            }
            Message::AuthenticationSasl(body) => scram(conn, &body, need_password()?).await?,
            Message::ErrorResponse(body) => return Err(PgError::Db(DbError::from_fields(body.fields())?)),
            _ => return Err(PgError::Protocol("unsupported authentication method".into())),
        }
    }
}

/// SCRAM-SHA-256 (the only SASL mechanism offered here), without channel binding.
async fn scram(
    conn: &mut PgConn,
    offer: &postgres_protocol::message::backend::AuthenticationSaslBody,
    password: &[u8],
) -> Result<(), PgError> {
    use fallible_iterator::FallibleIterator;
    let mut offers_scram = false;
    let mut mechanisms = offer.mechanisms();
    while let Some(m) = mechanisms.next()? {
        offers_scram |= m == SCRAM_SHA_256;
    }
    if !offers_scram {
        return Err(PgError::Protocol("the server offers no supported SASL mechanism".into()));
    }
    let mut scram = ScramSha256::new(password, ChannelBinding::unsupported());
    let mut buf = BytesMut::new();
    frontend::sasl_initial_response(SCRAM_SHA_256, scram.message(), &mut buf)?;
    conn.send(&buf).await?;
    let Message::AuthenticationSaslContinue(body) = expect_auth(conn).await? else {
        return Err(PgError::Protocol("expected SASL continue".into()));
    };
    scram.update(body.data())?;
    buf.clear();
    frontend::sasl_response(scram.message(), &mut buf)?;
    conn.send(&buf).await?;
    let Message::AuthenticationSaslFinal(body) = expect_auth(conn).await? else {
        return Err(PgError::Protocol("expected SASL final".into()));
    };
    scram.finish(body.data())?;
    Ok(())
}

async fn expect_auth(conn: &mut PgConn) -> Result<Message, PgError> {
    match conn.read_message().await? {
        Message::ErrorResponse(body) => Err(PgError::Db(DbError::from_fields(body.fields())?)),
        other => Ok(other),
    }
}
