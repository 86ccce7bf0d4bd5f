//! PostgreSQL's cancel request: a separate connection to the same server carrying the backend's process id and
//! secret key (from BackendKeyData at start-up), which interrupts whatever statement that backend is running.

use super::conn::Stream;
use bytes::BytesMut;
use postgres_protocol::message::frontend;
use std::net::SocketAddr;
use std::path::PathBuf;

/// Where the connection's server listens, as it was reached.
#[derive(Debug, Clone)]
pub(super) enum Peer {
    Tcp(SocketAddr),
    Unix(PathBuf),
}

/// What a cancel request for one backend needs.
#[derive(Debug, Clone)]
pub(super) struct CancelKey {
    pub peer: Peer,
    pub process_id: i32,
    pub secret_key: i32,
}

impl CancelKey {
    /// Sends the cancel request and waits until the server closes the cancel connection, which it does after
    /// signalling the backend: a cancel that arrives once the backend is idle is ignored by PostgreSQL, so a
    /// caller that then reads the batch's ReadyForQuery knows the signal cannot hit a later statement.
    pub async fn send(&self) -> std::io::Result<()> {
        let mut buf = BytesMut::new();
        frontend::cancel_request(self.process_id, self.secret_key, &mut buf);
        let mut stream = match &self.peer {
            Peer::Tcp(addr) => Stream::Tcp(tokio::net::TcpStream::connect(addr).await?),
            Peer::Unix(path) => Stream::Unix(tokio::net::UnixStream::connect(path).await?),
        };
        stream.write_all(&buf).await?;
        buf.clear();
        while stream.read_buf(&mut buf).await? > 0 {}
        Ok(())
    }
}
