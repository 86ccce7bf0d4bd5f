//! A broadcast as it travels between sockets and instances, and how it is framed for each subscriber: text for
//! vsn 1, kind 4 or text for vsn 2 — following Realtime's delivery matrix (binary bodies never reach vsn 1).

use super::outbound::Frame;
use super::protocol::{encode_text, encode_user_broadcast, Body, Envelope, Vsn};
use serde_json::Value;
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq)]
pub enum Broadcast {
    /// A text broadcast: the whole payload object as the sender sent it (`{type, event, payload, …}`).
    Text(Arc<str>),
    /// A user broadcast: a kind-3 frame, the single REST endpoint or `realtime.send`, with its metadata object.
    User { event: Arc<str>, meta: Option<Arc<str>>, body: Body },
}

impl Broadcast {
    /// The frame for a subscriber of `topic` speaking `vsn`; `None` when it cannot receive it.
    pub fn frame(&self, vsn: Vsn, topic: &str) -> Option<Frame> {
        match (self, vsn) {
            (Broadcast::Text(payload), _) => Some(text(vsn, topic, payload)),
            (Broadcast::User { event, meta, body }, Vsn::V2) => {
                encode_user_broadcast(topic, event, meta.as_deref(), body).ok().map(Frame::Binary)
            }
            (Broadcast::User { body: Body::Binary(_), .. }, Vsn::V1) => None,
            (Broadcast::User { event, meta, body: Body::Json(json) }, Vsn::V1) => {
                let json = std::str::from_utf8(json).ok()?;
                let mut payload = format!(r#"{{"type":"broadcast","event":{},"payload":{json}"#, quote(event));
                if let Some(meta) = meta {
                    payload.push_str(&format!(r#","meta":{meta}"#));
                }
                payload.push('}');
                Some(text(vsn, topic, &payload))
            }
        }
    }

    /// Bytes the payload weighs, for the size limit.
    pub fn size(&self) -> usize {
        match self {
            Broadcast::Text(p) => p.len(),
            Broadcast::User { body: Body::Json(b) | Body::Binary(b), .. } => b.len(),
        }
    }
}

fn text(vsn: Vsn, topic: &str, payload: &str) -> Frame {
    Frame::Text(encode_text(vsn, Envelope::push(topic, "broadcast"), payload).into())
}

fn quote(s: &str) -> String {
    Value::String(s.to_string()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;

    fn text_of(frame: Option<Frame>) -> String {
        match frame {
            Some(Frame::Text(t)) => t.to_string(),
            other => panic!("expected text, got {other:?}"),
        }
    }

    #[test]
    fn user_broadcasts_are_kind_4_for_v2_and_converted_text_for_v1() {
        let b =
            Broadcast::User { event: "msg".into(), meta: None, body: Body::Json(Bytes::from_static(br#"{"a":1}"#)) };
        assert!(matches!(b.frame(Vsn::V2, "realtime:r"), Some(Frame::Binary(f)) if f[0] == 4));
        assert_eq!(
            text_of(b.frame(Vsn::V1, "realtime:r")),
            r#"{"topic":"realtime:r","event":"broadcast","payload":{"type":"broadcast","event":"msg","payload":{"a":1}},"ref":null}"#
        );
        let with_id = Broadcast::User {
            event: "e".into(),
            meta: Some(r#"{"id":"x"}"#.into()),
            body: Body::Json(Bytes::from_static(br#"{"id":"x"}"#)),
        };
        assert!(text_of(with_id.frame(Vsn::V1, "realtime:r")).contains(r#""meta":{"id":"x"}"#));
        let binary = Broadcast::User { event: "e".into(), meta: None, body: Body::Binary(Bytes::from_static(&[1])) };
        assert!(binary.frame(Vsn::V1, "realtime:r").is_none());
    }

    #[test]
    fn text_broadcasts_keep_the_senders_whole_payload() {
        let b = Broadcast::Text(r#"{"type":"broadcast","event":"e","payload":{"x":1},"extra":true}"#.into());
        assert_eq!(
            text_of(b.frame(Vsn::V2, "realtime:r")),
            r#"[null,null,"realtime:r","broadcast",{"type":"broadcast","event":"e","payload":{"x":1},"extra":true}]"#
        );
    }
}
