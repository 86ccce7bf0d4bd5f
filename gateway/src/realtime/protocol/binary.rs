//! vsn 2.0.0 binary frames. Every size field is one byte holding a UTF-8 byte count. Kind 3 ("user broadcast
//! push", client → server): kind, join_ref, ref, topic, user event and metadata lengths, payload encoding, then
//! the fields and the payload to the end. Kind 4 ("user broadcast", server → client): kind, topic, event and
//! metadata lengths, encoding, then the fields and the payload. Encoding 0 is binary, 1 is JSON.

use super::{Body, Inbound, Payload};
use bytes::{BufMut, Bytes, BytesMut};
use serde_json::{Map, Value};

const USER_BROADCAST_PUSH: u8 = 3;
const USER_BROADCAST: u8 = 4;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BinaryError {
    #[error("unsupported binary frame kind {0}")]
    Kind(u8),
    #[error("binary frame is truncated")]
    Truncated,
    #[error("binary frame field is not UTF-8")]
    Utf8,
    #[error("binary frame metadata is not a JSON object")]
    Metadata,
    #[error("{0} length {1} exceeds maximum of 255")]
    TooLong(&'static str, usize),
}

/// Decodes a client binary frame (only kind 3 exists client → server).
pub fn decode_user_push(frame: &[u8]) -> Result<Inbound, BinaryError> {
    let (&kind, rest) = frame.split_first().ok_or(BinaryError::Truncated)?;
    if kind != USER_BROADCAST_PUSH {
        return Err(BinaryError::Kind(kind));
    }
    let header = rest.get(..6).ok_or(BinaryError::Truncated)?;
    let mut cursor = &rest[6..];
    let mut field = |len: u8| -> Result<&[u8], BinaryError> {
        let len = usize::from(len);
        let (value, tail) = (cursor.get(..len).ok_or(BinaryError::Truncated)?, &cursor[len..]);
        cursor = tail;
        Ok(value)
    };
    let text = |bytes: &[u8]| std::str::from_utf8(bytes).map(str::to_string).map_err(|_| BinaryError::Utf8);
    let join_ref = text(field(header[0])?)?;
    let reference = text(field(header[1])?)?;
    let topic = text(field(header[2])?)?;
    let event = text(field(header[3])?)?;
    let meta_bytes = field(header[4])?;
    let meta = if meta_bytes.is_empty() {
        Map::new()
    } else {
        match serde_json::from_slice::<Value>(meta_bytes) {
            Ok(Value::Object(map)) => map,
            _ => return Err(BinaryError::Metadata),
        }
    };
    let payload = Bytes::copy_from_slice(cursor);
    let body = if header[5] == 0 { Body::Binary(payload) } else { Body::Json(payload) };
    Ok(Inbound {
        join_ref: Some(join_ref).filter(|s| !s.is_empty()),
        reference: Some(reference).filter(|s| !s.is_empty()),
        topic,
        event: "broadcast".into(),
        payload: Payload::UserBroadcast { event, meta, body },
    })
}

/// Encodes a kind-4 frame for a vsn-2 subscriber. `meta` is a JSON object's text, or `None`.
pub fn encode_user_broadcast(topic: &str, event: &str, meta: Option<&str>, body: &Body) -> Result<Bytes, BinaryError> {
    let meta = meta.unwrap_or("");
    let check = |name: &'static str, s: &str| u8::try_from(s.len()).map_err(|_| BinaryError::TooLong(name, s.len()));
    let (t, e, m) = (check("topic", topic)?, check("userEvent", event)?, check("metadata", meta)?);
    let (encoding, payload) = match body {
        Body::Binary(b) => (0u8, b),
        Body::Json(b) => (1u8, b),
    };
    let mut out = BytesMut::with_capacity(5 + topic.len() + event.len() + meta.len() + payload.len());
    out.put_slice(&[USER_BROADCAST, t, e, m, encoding]);
    out.put_slice(topic.as_bytes());
    out.put_slice(event.as_bytes());
    out.put_slice(meta.as_bytes());
    out.put_slice(payload);
    Ok(out.freeze())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(header: &[u8], parts: &[&[u8]]) -> Vec<u8> {
        let mut v = header.to_vec();
        for p in parts {
            v.extend_from_slice(p);
        }
        v
    }

    #[test]
    fn decodes_the_captured_kind_3_json_frame() {
        // OBS: join_ref 9, ref 10, topic realtime:room:1, event msg, payload {"hello":"wörld"} (ö is two bytes)
        let json = "{\"hello\":\"wörld\"}".as_bytes();
        assert_eq!(json.len(), 18);
        let f = frame(&[0x03, 0x01, 0x02, 0x0f, 0x03, 0x00, 0x01], &[b"9", b"10", b"realtime:room:1", b"msg", json]);
        let m = decode_user_push(&f).unwrap();
        assert_eq!((m.join_ref.as_deref(), m.reference.as_deref()), (Some("9"), Some("10")));
        assert_eq!((m.topic.as_str(), m.event.as_str()), ("realtime:room:1", "broadcast"));
        let Payload::UserBroadcast { event, meta, body } = m.payload else { panic!() };
        assert_eq!((event.as_str(), meta.len()), ("msg", 0));
        assert_eq!(body, Body::Json(Bytes::from_static(json)));
    }

    #[test]
    fn decodes_the_captured_kind_3_binary_frame_and_metadata() {
        let f =
            frame(&[0x03, 0x01, 0x02, 0x0f, 0x03, 0x00, 0x00], &[b"9", b"11", b"realtime:room:1", b"msg", &[9, 8, 7]]);
        let Payload::UserBroadcast { body, .. } = decode_user_push(&f).unwrap().payload else { panic!() };
        assert_eq!(body, Body::Binary(Bytes::from_static(&[9, 8, 7])));
        let meta = br#"{"persist":true}"#;
        let f = frame(&[3, 1, 1, 1, 1, meta.len() as u8, 1], &[b"1", b"2", b"t", b"e", meta, b"{}"]);
        let Payload::UserBroadcast { meta, .. } = decode_user_push(&f).unwrap().payload else { panic!() };
        assert_eq!(meta.get("persist"), Some(&Value::Bool(true)));
    }

    #[test]
    fn refuses_other_kinds_truncation_and_bad_metadata() {
        assert_eq!(decode_user_push(&[4, 0, 0, 0, 1]), Err(BinaryError::Kind(4)));
        assert_eq!(decode_user_push(&[]), Err(BinaryError::Truncated));
        assert_eq!(decode_user_push(&[3, 1, 1, 5, 1, 0, 1, b'1', b'2', b't']), Err(BinaryError::Truncated));
        let f = frame(&[3, 0, 0, 1, 1, 2, 1], &[b"t", b"e", b"[]"]);
        assert_eq!(decode_user_push(&f), Err(BinaryError::Metadata));
        let f = frame(&[3, 0, 0, 1, 1, 0, 1], &[b"t", &[0xff]]);
        assert_eq!(decode_user_push(&f), Err(BinaryError::Utf8));
    }

    #[test]
    fn encodes_the_captured_kind_4_frames() {
        let f = encode_user_broadcast(
            "realtime:room:2",
            "msg",
            Some(r#"{"id":"0f0e"}"#),
            &Body::Json(Bytes::from_static(br#"{"via":"binary-json"}"#)),
        )
        .unwrap();
        let expected = frame(
            &[0x04, 0x0f, 0x03, 0x0d, 0x01],
            &[b"realtime:room:2", b"msg", br#"{"id":"0f0e"}"#, br#"{"via":"binary-json"}"#],
        );
        assert_eq!(&f[..], &expected[..]);
        let f = encode_user_broadcast("realtime:room:2", "msg", None, &Body::Binary(Bytes::from_static(&[1, 2, 3])))
            .unwrap();
        assert_eq!(&f[..], &frame(&[0x04, 0x0f, 0x03, 0x00, 0x00], &[b"realtime:room:2", b"msg", &[1, 2, 3]])[..]);
    }

    #[test]
    fn field_lengths_count_utf8_bytes_and_stop_at_255() {
        let f = encode_user_broadcast("realtime:é", "ü", None, &Body::Json(Bytes::from_static(b"{}"))).unwrap();
        assert_eq!(&f[..5], &[4, 11, 2, 0, 1]);
        let long = "x".repeat(256);
        assert_eq!(
            encode_user_broadcast(&long, "e", None, &Body::Json(Bytes::new())),
            Err(BinaryError::TooLong("topic", 256))
        );
    }
}
