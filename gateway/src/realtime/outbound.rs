//! What travels to one socket: frames already encoded (shared between every subscriber they go to), and the
//! order to close. Each socket has a bounded queue; one that cannot keep up is closed rather than buffered
//! without end.

use axum::extract::ws::Utf8Bytes;
use bytes::Bytes;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::mpsc;

#[derive(Debug, Clone)]
pub enum Frame {
    Text(Utf8Bytes),
    Binary(Bytes),
    /// Close the socket with this code and reason.
    Close(u16, &'static str),
}

/// The sending half of a socket's queue.
#[derive(Debug, Clone)]
pub struct SocketTx {
    pub socket_id: u64,
    tx: mpsc::Sender<Frame>,
    overflowed: Arc<AtomicBool>,
}

/// The receiving half, owned by the socket's task.
pub struct SocketRx {
    rx: mpsc::Receiver<Frame>,
    overflowed: Arc<AtomicBool>,
}

impl SocketTx {
    pub fn new(socket_id: u64, capacity: usize) -> (SocketTx, SocketRx) {
        let (tx, rx) = mpsc::channel(capacity.max(1));
        let overflowed = Arc::new(AtomicBool::new(false));
        (SocketTx { socket_id, tx, overflowed: overflowed.clone() }, SocketRx { rx, overflowed })
    }

    /// Queues a frame; when the queue is full the socket is marked too slow and its task closes it.
    pub fn send(&self, frame: Frame) {
        if let Err(mpsc::error::TrySendError::Full(_)) = self.tx.try_send(frame) {
            if !self.overflowed.swap(true, Ordering::Relaxed) {
                tracing::warn!(socket = self.socket_id, "realtime socket too slow for its subscriptions: closing it");
            }
        }
    }

    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}

impl SocketRx {
    pub async fn recv(&mut self) -> Option<Frame> {
        self.rx.recv().await
    }

    pub fn try_recv(&mut self) -> Option<Frame> {
        self.rx.try_recv().ok()
    }

    /// Whether frames were dropped because the queue was full.
    pub fn overflowed(&self) -> bool {
        self.overflowed.load(Ordering::Relaxed)
    }
}
