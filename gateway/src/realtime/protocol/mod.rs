//! Phoenix framing as Supabase Realtime speaks it: vsn 1.0.0 JSON objects, vsn 2.0.0 JSON arrays and the binary
//! user-broadcast frames (kind 3 in, kind 4 out). Pure: bytes in, values out, and back.

mod binary;
mod text;

pub use binary::{decode_user_push, encode_user_broadcast, BinaryError};
pub use text::{decode_text, encode_text, TextError};

use bytes::Bytes;
use serde_json::Value;

/// The protocol version a socket negotiated with `?vsn=`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Vsn {
    /// `1.0.0` (also when `vsn` is absent): JSON objects, no binary frames.
    V1,
    /// `2.0.0`: JSON arrays plus binary user broadcasts.
    V2,
}

impl Vsn {
    /// Phoenix matches `~> 1.0.0` and `~> 2.0.0`; anything else is refused at the upgrade.
    pub fn parse(value: Option<&str>) -> Option<Vsn> {
        let Some(value) = value else { return Some(Vsn::V1) };
        let mut parts = value.split('.');
        let (major, minor) = (parts.next()?, parts.next()?);
        let patch = parts.next().unwrap_or("0");
        if parts.next().is_some() || patch.parse::<u32>().is_err() || minor != "0" {
            return None;
        }
        match major {
            "1" => Some(Vsn::V1),
            "2" => Some(Vsn::V2),
            _ => None,
        }
    }
}

/// A user broadcast's body: JSON text passed through unchanged, or raw bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    Json(Bytes),
    Binary(Bytes),
}

/// What a client frame carries after decoding.
#[derive(Debug, Clone, PartialEq)]
pub enum Payload {
    /// A JSON text frame's payload.
    Json(Value),
    /// A kind-3 binary frame: the user event, its metadata object (empty when none) and body.
    UserBroadcast { event: String, meta: serde_json::Map<String, Value>, body: Body },
}

/// One message from a client.
#[derive(Debug, Clone, PartialEq)]
pub struct Inbound {
    pub join_ref: Option<String>,
    pub reference: Option<String>,
    pub topic: String,
    pub event: String,
    pub payload: Payload,
}

/// The refs, topic and event a server message is framed with.
#[derive(Debug, Clone, Copy)]
pub struct Envelope<'a> {
    pub join_ref: Option<&'a str>,
    pub reference: Option<&'a str>,
    pub topic: &'a str,
    pub event: &'a str,
}

impl<'a> Envelope<'a> {
    /// A push that carries no refs (broadcasts, presence diffs, changes).
    pub fn push(topic: &'a str, event: &'a str) -> Self {
        Envelope { join_ref: None, reference: None, topic, event }
    }
}
