//! Request bodies refused for their size: what is left is read and discarded (bounded in bytes and time) before
//! the answer goes out, so a client still sending receives the 413 rather than a reset connection.

use futures::StreamExt;

/// Bytes read from a refused body before giving up (the connection is then closed instead).
const DRAIN_CAP: usize = 64 * 1024 * 1024;

/// Reads and discards the rest of a body stream.
pub async fn drain_stream(stream: &mut axum::body::BodyDataStream) {
    let discard = async {
        let mut read = 0usize;
        while let Some(Ok(chunk)) = stream.next().await {
            read += chunk.len();
            if read > DRAIN_CAP {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(30), discard).await;
}

/// Reads and discards a whole body.
pub async fn drain(body: axum::body::Body) {
    drain_stream(&mut body.into_data_stream()).await;
}

/// The `Content-Length` a request declares, if any.
pub fn declared_length(headers: &axum::http::HeaderMap) -> Option<usize> {
    headers.get(axum::http::header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse().ok())
}
