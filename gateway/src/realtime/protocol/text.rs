//! Text frames: vsn 1.0.0 objects `{topic, event, payload, ref[, join_ref]}` and vsn 2.0.0 arrays
//! `[join_ref, ref, topic, event, payload]`. The server never sends `join_ref` in vsn 1 and always sends `ref`
//! (null when none), which Python's models require.

use super::{Envelope, Inbound, Payload, Vsn};
use serde_json::Value;
use std::fmt::Write;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    #[error("invalid JSON: {0}")]
    Json(String),
    #[error("expected V2 array, got: {0}")]
    NotV2Array(String),
    #[error("missing or invalid key {0}")]
    MissingKey(&'static str),
}

/// Decodes a client text frame for the socket's version.
pub fn decode_text(vsn: Vsn, text: &str) -> Result<Inbound, TextError> {
    let value: Value = serde_json::from_str(text).map_err(|e| TextError::Json(e.to_string()))?;
    match vsn {
        Vsn::V1 => decode_object(value),
        Vsn::V2 => decode_array(value),
    }
}

fn optional_ref(value: Option<&Value>) -> Result<Option<String>, TextError> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        // Phoenix accepts integers as refs too; keep their text
        Some(Value::Number(n)) => Ok(Some(n.to_string())),
        Some(_) => Err(TextError::MissingKey("ref")),
    }
}

fn decode_object(value: Value) -> Result<Inbound, TextError> {
    let Value::Object(mut map) = value else { return Err(TextError::MissingKey("topic")) };
    if !map.contains_key("ref") {
        return Err(TextError::MissingKey("ref"));
    }
    let topic = match map.remove("topic") {
        Some(Value::String(s)) => s,
        _ => return Err(TextError::MissingKey("topic")),
    };
    let event = match map.remove("event") {
        Some(Value::String(s)) => s,
        _ => return Err(TextError::MissingKey("event")),
    };
    let payload = map.remove("payload").ok_or(TextError::MissingKey("payload"))?;
    Ok(Inbound {
        join_ref: optional_ref(map.get("join_ref"))?,
        reference: optional_ref(map.get("ref"))?,
        topic,
        event,
        payload: Payload::Json(payload),
    })
}

fn decode_array(value: Value) -> Result<Inbound, TextError> {
    let Value::Array(mut items) = value else { return Err(TextError::NotV2Array(value.to_string())) };
    if items.len() < 5 {
        return Err(TextError::NotV2Array(Value::Array(items).to_string()));
    }
    items.truncate(5);
    let payload = items.pop().unwrap_or(Value::Null);
    let (Value::String(event), Value::String(topic)) =
        (items.pop().unwrap_or(Value::Null), items.pop().unwrap_or(Value::Null))
    else {
        return Err(TextError::MissingKey("topic"));
    };
    Ok(Inbound {
        join_ref: optional_ref(items.first())?,
        reference: optional_ref(items.get(1))?,
        topic,
        event,
        payload: Payload::Json(payload),
    })
}

/// Encodes a server message; `payload_json` is the payload already serialised.
pub fn encode_text(vsn: Vsn, envelope: Envelope<'_>, payload_json: &str) -> String {
    let mut out = String::with_capacity(payload_json.len() + envelope.topic.len() + 64);
    let string = |s: &str| Value::String(s.to_string()).to_string();
    let opt = |s: Option<&str>| s.map(string).unwrap_or_else(|| "null".into());
    match vsn {
        Vsn::V1 => {
            let _ = write!(
                out,
                r#"{{"topic":{},"event":{},"payload":{},"ref":{}}}"#,
                string(envelope.topic),
                string(envelope.event),
                payload_json,
                opt(envelope.reference)
            );
        }
        Vsn::V2 => {
            let _ = write!(
                out,
                "[{},{},{},{},{}]",
                opt(envelope.join_ref),
                opt(envelope.reference),
                string(envelope.topic),
                string(envelope.event),
                payload_json
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn v2_arrays_round_trip_with_and_without_refs() {
        let env = Envelope { join_ref: Some("0"), reference: Some("1"), topic: "t", event: "e" };
        assert_eq!(encode_text(Vsn::V2, env, r#"{"foo":1}"#), r#"["0","1","t","e",{"foo":1}]"#);
        assert_eq!(encode_text(Vsn::V2, Envelope::push("t", "e"), r#"{"foo":1}"#), r#"[null,null,"t","e",{"foo":1}]"#);
        let m = decode_text(Vsn::V2, r#"["0","1","t","e",{"foo":1}]"#).unwrap();
        assert_eq!((m.join_ref.as_deref(), m.reference.as_deref(), m.topic.as_str()), (Some("0"), Some("1"), "t"));
        assert_eq!(m.payload, Payload::Json(json!({"foo":1})));
        let m = decode_text(Vsn::V2, r#"[null,null,"t","e",{"foo":1},"extra"]"#).unwrap();
        assert_eq!((m.join_ref, m.reference, m.event.as_str()), (None, None, "e"));
    }

    #[test]
    fn v2_refuses_objects_and_short_arrays() {
        assert!(matches!(decode_text(Vsn::V2, r#"{"topic":"t"}"#), Err(TextError::NotV2Array(_))));
        assert!(matches!(decode_text(Vsn::V2, r#"["1","2","t","e"]"#), Err(TextError::NotV2Array(_))));
        assert!(matches!(decode_text(Vsn::V2, "nope"), Err(TextError::Json(_))));
    }

    #[test]
    fn v1_objects_as_js_and_python_send_them() {
        // supabase-py: join_ref always null, heartbeat ref null
        let py = r#"{"event":"heartbeat","payload":{},"topic":"phoenix","ref":null,"join_ref":null}"#;
        let m = decode_text(Vsn::V1, py).unwrap();
        assert_eq!((m.topic.as_str(), m.event.as_str(), m.reference), ("phoenix", "heartbeat", None));
        let js = r#"{"topic":"realtime:r","event":"phx_join","payload":{"config":{}},"ref":"6","join_ref":"6"}"#;
        let m = decode_text(Vsn::V1, js).unwrap();
        assert_eq!((m.join_ref.as_deref(), m.reference.as_deref()), (Some("6"), Some("6")));
        // `ref` must be present (Phoenix's from_map!)
        assert_eq!(
            decode_text(Vsn::V1, r#"{"topic":"t","event":"e","payload":{}}"#),
            Err(TextError::MissingKey("ref"))
        );
    }

    #[test]
    fn v1_server_frames_never_carry_join_ref_and_always_ref() {
        let env = Envelope { join_ref: Some("9"), reference: Some("8"), topic: "phoenix", event: "phx_reply" };
        assert_eq!(
            encode_text(Vsn::V1, env, r#"{"status":"ok","response":{}}"#),
            r#"{"topic":"phoenix","event":"phx_reply","payload":{"status":"ok","response":{}},"ref":"8"}"#
        );
        assert_eq!(
            encode_text(Vsn::V1, Envelope::push("realtime:r", "broadcast"), "{}"),
            r#"{"topic":"realtime:r","event":"broadcast","payload":{},"ref":null}"#
        );
    }

    #[test]
    fn vsn_negotiation_matches_phoenix_requirements() {
        assert_eq!(Vsn::parse(None), Some(Vsn::V1));
        assert_eq!(Vsn::parse(Some("1.0.0")), Some(Vsn::V1));
        assert_eq!(Vsn::parse(Some("2.0.0")), Some(Vsn::V2));
        assert_eq!(Vsn::parse(Some("2.0.3")), Some(Vsn::V2));
        assert_eq!(Vsn::parse(Some("3.0.0")), None);
        assert_eq!(Vsn::parse(Some("2.1.0")), None);
        assert_eq!(Vsn::parse(Some("x")), None);
    }
}
