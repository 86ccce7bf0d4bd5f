//! The server messages a session sends, framed for its protocol version: replies, channel pushes, `system`
//! messages and `phx_close`, with the ref rules the clients check (replies carry the request's ref and the
//! channel's join ref; pushes a null ref; `phx_close` ref = join ref).

use super::outbound::Frame;
use super::protocol::{encode_text, Envelope, Vsn};
use serde_json::{json, Value};

pub fn reply(
    vsn: Vsn,
    join_ref: Option<&str>,
    reference: Option<&str>,
    topic: &str,
    status: &str,
    response: &Value,
) -> Frame {
    let payload = json!({ "status": status, "response": response }).to_string();
    let envelope = Envelope { join_ref, reference, topic, event: "phx_reply" };
    Frame::Text(encode_text(vsn, envelope, &payload).into())
}

pub fn push(vsn: Vsn, join_ref: Option<&str>, topic: &str, event: &str, payload: &Value) -> Frame {
    let envelope = Envelope { join_ref, reference: None, topic, event };
    Frame::Text(encode_text(vsn, envelope, &payload.to_string()).into())
}

pub fn close(vsn: Vsn, join_ref: Option<&str>, topic: &str) -> Frame {
    let envelope = Envelope { join_ref, reference: join_ref, topic, event: "phx_close" };
    Frame::Text(encode_text(vsn, envelope, "{}").into())
}

/// `{"extension","status","message","channel"}` — all four keys, which Python requires.
pub fn system_payload(extension: &str, ok: bool, message: &str, sub_topic: &str) -> Value {
    json!({ "extension": extension, "status": if ok { "ok" } else { "error" }, "message": message, "channel": sub_topic })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(f: Frame) -> String {
        match f {
            Frame::Text(t) => t.to_string(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn frames_follow_the_ref_rules() {
        assert_eq!(
            text(reply(Vsn::V2, Some("9"), Some("10"), "realtime:r", "ok", &json!({}))),
            r#"["9","10","realtime:r","phx_reply",{"response":{},"status":"ok"}]"#
        );
        assert_eq!(text(close(Vsn::V2, Some("6"), "realtime:r")), r#"["6","6","realtime:r","phx_close",{}]"#);
        assert_eq!(
            text(push(Vsn::V1, Some("6"), "realtime:r", "presence_state", &json!({}))),
            r#"{"topic":"realtime:r","event":"presence_state","payload":{},"ref":null}"#
        );
        let s = system_payload("postgres_changes", true, "Subscribed to PostgreSQL", "r");
        assert_eq!(s.as_object().unwrap().len(), 4);
    }
}
