//! One socket's state machine: heartbeats, joins (checked off the socket's task, so a slow or refused join never
//! delays heartbeats), leaves, broadcasts, presence, `access_token` refreshes and token expiry. Every frame it
//! sends goes through the socket's queue, in order with what the hub and the change stream queue there.

use super::auth::{self, Caller};
use super::authorization::{self, Policies};
use super::changes::Target;
use super::frames;
use super::hub::{Member, RoomKey};
use super::join::{self, Admitted, JoinConfig, Refusal};
use super::limits::Window;
use super::message::Broadcast;
use super::outbound::{Frame, SocketTx};
use super::protocol::{Inbound, Payload, Vsn};
use super::RealtimeState;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::mpsc;

/// Results of work done off the socket's task (boxed on the channel: an idle socket's channel block stays small).
pub enum Event {
    Joined { topic: String, join_ref: Option<String>, reference: Option<String>, result: Result<Admitted, Refusal> },
    Reauthorized { topic: String, join_ref: Option<String>, result: Result<Admitted, String> },
}

struct Joining {
    join_ref: Option<String>,
    config: JoinConfig,
    queued: Vec<Inbound>,
}

struct Channel {
    join_ref: Option<String>,
    topic: Arc<str>,
    key: RoomKey,
    member_id: u64,
    config: JoinConfig,
    caller: Caller,
    policies: Policies,
    presence_calls: Window,
    changes: Option<u64>,
}

pub struct Session {
    rt: Arc<RealtimeState>,
    vsn: Vsn,
    caller: Caller,
    headers_json: Arc<str>,
    out: SocketTx,
    events: mpsc::UnboundedSender<Box<Event>>,
    channels: HashMap<String, Channel>,
    joining: HashMap<String, Joining>,
    /// Set when the socket must close (code, reason).
    pub closing: Option<(u16, &'static str)>,
}

impl Session {
    pub fn new(
        rt: Arc<RealtimeState>,
        vsn: Vsn,
        caller: Caller,
        headers_json: String,
        out: SocketTx,
        events: mpsc::UnboundedSender<Box<Event>>,
    ) -> Self {
        Session {
            rt,
            vsn,
            caller,
            headers_json: headers_json.into(),
            out,
            events,
            channels: HashMap::new(),
            joining: HashMap::new(),
            closing: None,
        }
    }

    fn send(&self, frame: Frame) {
        self.out.send(frame);
    }

    fn reply(&self, m: &Inbound, join_ref: Option<&str>, status: &str, response: Value) {
        self.send(frames::reply(self.vsn, join_ref, m.reference.as_deref(), &m.topic, status, &response));
    }

    /// Handles one decoded client message.
    pub fn on_message(&mut self, m: Inbound) {
        if m.topic == "phoenix" && m.event == "heartbeat" {
            return self.reply(&m, None, "ok", json!({}));
        }
        if m.event == "phx_join" {
            return self.start_join(m);
        }
        if let Some(joining) = self.joining.get_mut(&m.topic) {
            if m.event == "phx_leave" {
                self.joining.remove(&m.topic);
                return self.reply(&m, m.join_ref.as_deref(), "ok", json!({}));
            }
            joining.queued.push(m);
            return;
        }
        let Some(channel) = self.channels.get(&m.topic) else {
            return match m.event.as_str() {
                "phx_leave" => self.reply(&m, m.join_ref.as_deref(), "ok", json!({})),
                _ => self.reply(&m, m.join_ref.as_deref(), "error", json!({ "reason": "unmatched topic" })),
            };
        };
        if m.join_ref.is_some() && m.join_ref != channel.join_ref {
            return; // a stale join's message
        }
        if m.event != "phx_leave" && !self.rt.events.take() {
            return self.shut_channel(&m.topic, "Too many messages per second");
        }
        match m.event.as_str() {
            "phx_leave" => {
                let join_ref = channel.join_ref.clone();
                self.reply(&m, join_ref.as_deref(), "ok", json!({}));
                self.remove_channel(&m.topic, true);
            }
            "broadcast" => self.on_broadcast(m),
            "presence" => self.on_presence(m),
            "access_token" => self.on_access_token(m),
            _ => {}
        }
    }

    fn start_join(&mut self, m: Inbound) {
        let Some(sub_topic) = m.topic.strip_prefix("realtime:").map(str::to_string) else {
            return self.reply(&m, m.join_ref.as_deref(), "error", json!({ "reason": "unmatched topic" }));
        };
        if self.channels.contains_key(&m.topic) {
            self.remove_channel(&m.topic.clone(), true);
        }
        self.joining.remove(&m.topic);
        let Payload::Json(payload) = &m.payload else { return };
        let config = JoinConfig::parse(payload);
        let refusal = if sub_topic.is_empty() {
            Some(Refusal::new("TopicNameRequired: You must provide a topic name"))
        } else if self.channels.len() + self.joining.len() >= self.rt.settings.max_channels_per_client {
            Some(Refusal::new("ChannelRateLimitReached: Too many channels"))
        } else if !self.rt.joins.take() {
            Some(Refusal { reason: "ClientJoinRateLimitReached: Too many joins per second".into(), close_socket: true })
        } else {
            None
        };
        self.joining
            .insert(m.topic.clone(), Joining { join_ref: m.join_ref.clone(), config: config.clone(), queued: vec![] });
        let (rt, events, caller, headers) =
            (self.rt.clone(), self.events.clone(), self.caller.clone(), self.headers_json.clone());
        let (topic, join_ref, reference) = (m.topic, m.join_ref, m.reference);
        tokio::spawn(async move {
            let result = match refusal {
                Some(r) => Err(r),
                None => join::admit(&rt, &sub_topic, &config, &caller, &headers).await,
            };
            if result.is_err() {
                tokio::time::sleep(rt.settings.channel_error_backoff).await;
            }
            let _ = events.send(Box::new(Event::Joined { topic, join_ref, reference, result }));
        });
    }

    /// Applies an event from work done off the task.
    pub fn on_event(&mut self, event: Event) {
        match event {
            Event::Joined { topic, join_ref, reference, result } => {
                self.finish_join(topic, join_ref, reference, result)
            }
            Event::Reauthorized { topic, join_ref, result } => self.finish_reauthorize(&topic, join_ref, result),
        }
    }

    fn finish_join(
        &mut self,
        topic: String,
        join_ref: Option<String>,
        reference: Option<String>,
        result: Result<Admitted, Refusal>,
    ) {
        let Some(joining) = self.joining.remove(&topic).filter(|j| j.join_ref == join_ref) else { return };
        let admitted = match result {
            Ok(a) => a,
            Err(refusal) => {
                let frame = frames::reply(
                    self.vsn,
                    join_ref.as_deref(),
                    reference.as_deref(),
                    &topic,
                    "error",
                    &json!({ "reason": refusal.reason }),
                );
                self.send(frame);
                if refusal.close_socket {
                    self.closing = Some((1001, "too many joins"));
                }
                return;
            }
        };
        let mut config = joining.config;
        if config.presence_key.is_empty() {
            config.presence_key = uuid::Uuid::new_v4().to_string();
        }
        let topic_arc: Arc<str> = topic.clone().into();
        let key = RoomKey { private: config.private, sub_topic: topic["realtime:".len()..].into() };
        let member_id = self.rt.next_id();
        let policies = admitted.policies;
        self.rt.hub.join(
            &key,
            Member {
                id: member_id,
                socket: self.out.clone(),
                topic: topic_arc.clone(),
                vsn: self.vsn,
                read_broadcast: policies.read_broadcast,
                read_presence: policies.read_presence,
            },
        );
        let response = json!({ "postgres_changes": config.postgres_changes_reply() });
        self.send(frames::reply(self.vsn, join_ref.as_deref(), reference.as_deref(), &topic, "ok", &response));
        if config.presence_enabled && policies.read_presence {
            let state = self.rt.hub.presence_state(&key);
            self.send(frames::push(self.vsn, join_ref.as_deref(), &topic, "presence_state", &state));
        }
        let changes = (!config.postgres_changes.is_empty()).then(|| {
            let target = Target {
                socket: self.out.clone(),
                topic: topic_arc.clone(),
                join_ref: join_ref.clone().map(Into::into),
                vsn: self.vsn,
            };
            self.rt.changes.subscribe(target, admitted.caller.clone(), &config.postgres_changes)
        });
        let channel = Channel {
            join_ref,
            topic: topic_arc,
            key,
            member_id,
            config,
            caller: admitted.caller,
            policies,
            presence_calls: Window::default(),
            changes,
        };
        self.channels.insert(topic, channel);
        for m in joining.queued {
            self.on_message(m);
        }
    }

    fn on_broadcast(&mut self, m: Inbound) {
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
        if message.size() > self.rt.settings.max_payload_bytes {
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

    fn on_presence(&mut self, m: Inbound) {
        let settings = &self.rt.settings;
        let Some(ch) = self.channels.get_mut(&m.topic) else { return };
        if !ch.presence_calls.allow(settings.presence_max_calls, settings.presence_window) {
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
                if Value::Object(meta.clone()).to_string().len() > self.rt.settings.max_payload_bytes {
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

    fn on_access_token(&mut self, m: Inbound) {
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
            let result = match auth::verify(&token, &rt.keys.load(), &rt.config) {
                Err(e) => Err(e.message()),
                Ok(caller) if !private => Ok(Admitted { caller, policies: Policies::PUBLIC }),
                Ok(caller) => match authorization::authorize(&rt.pool, &sub_topic, &caller, &headers, presence).await {
                    Ok(policies) => Ok(Admitted { caller, policies }),
                    Err(authorization::AuthorizationError::Unavailable) => {
                        Err("Realtime was unable to connect to the project database".into())
                    }
                    Err(_) => Ok(Admitted { caller, policies: Policies::default() }),
                },
            };
            let _ = events.send(Box::new(Event::Reauthorized { topic, join_ref, result }));
        });
    }

    fn finish_reauthorize(&mut self, topic: &str, join_ref: Option<String>, result: Result<Admitted, String>) {
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

    /// The earliest expiry among the channels' tokens.
    pub fn next_expiry(&self) -> Option<i64> {
        self.channels.values().filter_map(|c| c.caller.exp).min()
    }

    /// Closes every channel whose token has expired.
    pub fn expire_tokens(&mut self) {
        let now = chrono::Utc::now().timestamp();
        let expired: Vec<(String, i64)> = self
            .channels
            .iter()
            .filter_map(|(t, c)| c.caller.exp.filter(|e| *e <= now).map(|e| (t.clone(), now - e)))
            .collect();
        for (topic, ago) in expired {
            self.shut_channel(&topic, &auth::TokenError::Expired { seconds_ago: ago }.message());
        }
    }

    /// A `system` error naming why, then `phx_close`: the channel is gone.
    fn shut_channel(&mut self, topic: &str, message: &str) {
        let Some(ch) = self.channels.get(topic) else { return };
        let payload = frames::system_payload("system", false, message, &ch.key.sub_topic);
        self.send(frames::push(self.vsn, ch.join_ref.as_deref(), topic, "system", &payload));
        self.remove_channel(topic, true);
    }

    fn remove_channel(&mut self, topic: &str, send_close: bool) {
        let Some(ch) = self.channels.remove(topic) else { return };
        let diff = self.rt.hub.leave(&ch.key, ch.member_id);
        self.rt.cluster.publish_presence(&ch.key, diff);
        if let Some(id) = ch.changes {
            self.rt.changes.unsubscribe(id);
        }
        if send_close {
            self.send(frames::close(self.vsn, ch.join_ref.as_deref(), &ch.topic));
        }
    }

    /// Leaves everything (the socket closed).
    pub fn close_all(&mut self) {
        let topics: Vec<String> = self.channels.keys().cloned().collect();
        for topic in topics {
            self.remove_channel(&topic, false);
        }
        self.joining.clear();
    }
}
