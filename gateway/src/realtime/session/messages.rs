//! A joined channel's messages: broadcasts (within the payload limit, acknowledged when asked), presence track
//! and untrack (rate-limited), and `access_token` refreshes re-checked off the socket's task.

use super::{Event, Session};
use crate::realtime::admission::Admitted;
use crate::realtime::channel_policies::{self, Policies};
use crate::realtime::message::Broadcast;
use crate::realtime::protocol::{Inbound, Payload};
use serde_json::{json, Value};

impl Session {
    pub(super) fn on_broadcast(&mut self, m: Inbound) {
        let Some(ch) = self.channels.get(&m.topic) else { return };
        if !ch.policies.write_broadcast {
            return; // Realtime drops it without a reply
        }
        let message = match m.payload {
            Payload::Json(ref v) => Broadcast::Text(v.to_string().into()),
            Payload::UserBroadcast { ref event, ref body, .. } => {
                Broadcast::User { event: event.as_str().into(), meta: None, body: body.clone() }
            }
        };
        if message.size() > self.rt.config.max_payload_bytes {
            if ch.config.ack {
                self.reply(&m, ch.join_ref.as_deref(), "error", json!("payload_size_exceeded"));
            }
            return;
        }
        let exclude = (!ch.config.self_broadcast).then_some(ch.member_id);
        self.rt.hub.broadcast(&ch.key, &message, exclude);
        self.rt.cluster.publish_broadcast(&ch.key, &message);
        if ch.config.ack {
            self.reply(&m, ch.join_ref.as_deref(), "ok", json!({}));
        }
    }

    pub(super) fn on_presence(&mut self, m: Inbound) {
        let config = &self.rt.config;
        let Some(ch) = self.channels.get_mut(&m.topic) else { return };
        if !ch.presence_calls.allow(config.presence_max_calls, config.presence_window) {
            return self.shut_channel(&m.topic, "Client presence rate limit exceeded");
        }
        let Payload::Json(payload) = &m.payload else { return };
        let event = payload.get("event").and_then(Value::as_str).unwrap_or("").to_ascii_lowercase();
        let inner = payload.get("payload").cloned().unwrap_or_else(|| json!({}));
        let (join_ref, key, member) = (ch.join_ref.clone(), ch.key.clone(), ch.member_id);
        let (may_write, presence_key) = (ch.policies.write_presence, ch.config.presence_key.clone());
        let diff = match event.as_str() {
            "track" => {
                let Value::Object(meta) = inner else {
                    return self.reply(
                        &m,
                        join_ref.as_deref(),
                        "error",
                        json!({ "reason": "Presence track payload must be a map" }),
                    );
                };
                if !may_write {
                    return self.reply(&m, join_ref.as_deref(), "error", json!({}));
                }
                if Value::Object(meta.clone()).to_string().len() > self.rt.config.max_payload_bytes {
                    return self.shut_channel(&m.topic, "Track message size exceeded");
                }
                self.rt.hub.track(&key, member, &presence_key, meta)
            }
            "untrack" => self.rt.hub.untrack(&key, member),
            _ => return self.reply(&m, join_ref.as_deref(), "error", json!({})),
        };
        self.rt.cluster.publish_presence(&key, diff);
        self.reply(&m, join_ref.as_deref(), "ok", json!({}));
    }

    pub(super) fn on_access_token(&mut self, m: Inbound) {
        let Some(ch) = self.channels.get(&m.topic) else { return };
        let Payload::Json(payload) = &m.payload else { return };
        let Some(token) = payload.get("access_token").and_then(Value::as_str) else { return };
        if token.starts_with("sb_") || token == ch.caller.token {
            return;
        }
        let (rt, events, headers) = (self.rt.clone(), self.events.clone(), self.headers_json.clone());
        let (token, topic, join_ref) = (token.to_string(), m.topic.clone(), ch.join_ref.clone());
        let (private, presence, sub_topic) = (ch.config.private, ch.config.presence_enabled, ch.key.sub_topic.clone());
        tokio::spawn(async move {
            let result = match rt.verify(&token) {
                Err(e) => Err(e.message()),
                Ok(caller) if !private => Ok(Admitted { caller, policies: Policies::PUBLIC }),
                Ok(caller) => {
                    match channel_policies::authorize(&rt.pool, &sub_topic, &caller, &headers, presence).await {
                        Ok(policies) => Ok(Admitted { caller, policies }),
                        Err(channel_policies::AuthorizationError::Unavailable) => {
                            Err("Realtime was unable to connect to the project database".into())
                        }
                        Err(_) => Ok(Admitted { caller, policies: Policies::default() }),
                    }
                }
            };
            let _ = events.send(Box::new(Event::Reauthorized { topic, join_ref, result }));
        });
    }

    pub(super) fn finish_reauthorize(
        &mut self,
        topic: &str,
        join_ref: Option<String>,
        result: Result<Admitted, String>,
    ) {
        let Some(ch) = self.channels.get_mut(topic).filter(|c| c.join_ref == join_ref) else { return };
        let admitted = match result {
            Ok(a) => a,
            Err(message) => return self.shut_channel(topic, &message),
        };
        if ch.policies.can_read() && !admitted.policies.can_read() {
            let message =
                format!("You no longer have permission to read from this Channel topic: {}", ch.key.sub_topic);
            return self.shut_channel(topic, &message);
        }
        ch.policies = admitted.policies;
        ch.caller = admitted.caller.clone();
        self.rt.hub.set_reads(&ch.key, ch.member_id, ch.policies.read_broadcast, ch.policies.read_presence);
        if let Some(id) = ch.changes {
            self.rt.changes.reauthorize(id, admitted.caller);
        }
    }
}
