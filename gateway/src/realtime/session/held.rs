//! The budget of frames waiting behind joins: how much a socket holds, and when it must stop reading. The frame
//! just read is always held (nothing is dropped, order is kept), so a socket holds at most the budget plus one frame.

use crate::realtime::protocol::{Body, Inbound, Payload};

/// Frames a socket may hold behind its joins before it stops reading.
pub const MAX_FRAMES: usize = 64;
/// Bytes (payloads and envelopes, as encoded) a socket may hold behind its joins before it stops reading.
pub const MAX_BYTES: usize = 1 << 20;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Held {
    frames: usize,
    bytes: usize,
}

impl Held {
    pub fn add(&mut self, bytes: usize) {
        self.frames += 1;
        self.bytes += bytes;
    }

    /// Releases a queue of `frames` frames weighing `bytes`.
    pub fn release(&mut self, frames: usize, bytes: usize) {
        self.frames = self.frames.saturating_sub(frames);
        self.bytes = self.bytes.saturating_sub(bytes);
    }

    pub fn full(&self) -> bool {
        self.frames >= MAX_FRAMES || self.bytes >= MAX_BYTES
    }
}

/// Counts the bytes serde_json writes, without keeping them.
struct Count(usize);

impl std::io::Write for Count {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A frame's size as the client encoded it, near enough: its envelope and payload.
pub fn weight(m: &Inbound) -> usize {
    let refs = m.join_ref.as_ref().map_or(0, String::len) + m.reference.as_ref().map_or(0, String::len);
    let payload = match &m.payload {
        Payload::Json(v) => {
            let mut count = Count(0);
            let _ = serde_json::to_writer(&mut count, v);
            count.0
        }
        Payload::UserBroadcast { event, meta, body } => {
            let body = match body {
                Body::Json(b) | Body::Binary(b) => b.len(),
            };
            event.len() + meta.len() * 16 + body
        }
    };
    m.topic.len() + m.event.len() + refs + payload
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn inbound(payload: serde_json::Value) -> Inbound {
        Inbound {
            join_ref: Some("1".into()),
            reference: Some("2".into()),
            topic: "realtime:room".into(),
            event: "broadcast".into(),
            payload: Payload::Json(payload),
        }
    }

    #[test]
    fn weighs_the_envelope_and_the_encoded_payload() {
        let m = inbound(json!({"a": "bcd"}));
        assert_eq!(weight(&m), "realtime:room".len() + "broadcast".len() + 2 + r#"{"a":"bcd"}"#.len());
        let big = inbound(json!({"text": "x".repeat(100_000)}));
        assert!(weight(&big) > 100_000);
    }

    #[test]
    fn fills_at_either_budget_and_empties_on_release() {
        let mut held = Held::default();
        for _ in 0..MAX_FRAMES - 1 {
            held.add(10);
        }
        assert!(!held.full());
        held.add(10);
        assert!(held.full(), "frames");
        held.release(MAX_FRAMES, MAX_FRAMES * 10);
        assert_eq!(held, Held::default());
        held.add(MAX_BYTES);
        assert!(held.full(), "bytes: one large frame is held, then reading stops");
        held.release(1, MAX_BYTES);
        held.release(1, 1);
        assert_eq!(held, Held::default(), "never below empty");
    }
}
