//! Request body limits every API applies: a body refused for its size is read and discarded (bounded in bytes and
//! time) before the answer goes out, so a client still sending receives the 413 rather than a reset connection.

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

/// A request whose declared body is over `limit` is refused: its body is drained first (so a client still sending
/// reads the refusal) and `Err` returned for the API to answer its 413; any other request is let through.
pub async fn admit(req: axum::extract::Request, limit: usize) -> Result<axum::extract::Request, TooLarge> {
    if declared_length(req.headers()).is_some_and(|n| n > limit) {
        drain(req.into_body()).await;
        return Err(TooLarge);
    }
    Ok(req)
}

/// A whole body of at most `limit` bytes: a declared length over it is refused (the body drained first), a body
/// that turns out longer stops being read at the limit.
pub async fn read_limited(
    body: axum::body::Body,
    headers: &axum::http::HeaderMap,
    limit: usize,
) -> Result<axum::body::Bytes, TooLarge> {
    if declared_length(headers).is_some_and(|n| n > limit) {
        drain(body).await;
        return Err(TooLarge);
    }
    if axum::body::HttpBody::is_end_stream(&body) {
        // a request without a body (every GET): nothing to collect
        return Ok(axum::body::Bytes::new());
    }
    axum::body::to_bytes(body, limit).await.map_err(|_| TooLarge)
}

/// A body over the limit (each API answers its own 413).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge;
