//! One socket's state machine: heartbeats, joins (checked off the socket's task, so a slow or refused join never
//! delays heartbeats), leaves, broadcasts, presence, `access_token` refreshes and token expiry. A channel's frames
//! take effect in the order they arrived: while a join is checked, later frames for its topic wait behind it (a
//! leave, another join), as Phoenix handles a socket's frames one after another. Every frame it sends goes through
//! the socket's queue, in order with what the hub and the change stream queue there.

mod held;
mod join;
mod messages;

use super::admission::{Admitted, JoinConfig, Refusal};
use super::channel_policies::Policies;
use super::credentials::{self, Credentials};
use super::frames;
use super::hub::RoomKey;
use super::limits::Window;
use super::outbound::{Frame, SocketTx};
use super::protocol::{Inbound, Vsn};
use super::RealtimeState;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::mpsc;

/// Results of work done off the socket's task (boxed on the channel: an idle socket's channel block stays small).
pub enum Event {
    /// The checks of join `attempt` on `topic` are done.
    Joined {
        topic: String,
        attempt: u64,
        result: Result<Admitted, Refusal>,
    },
    Reauthorized {
        topic: String,
        join_ref: Option<String>,
        result: Result<Admitted, String>,
    },
}

/// A join being checked, and the frames for its topic that arrived since, to apply in order once it is answered.
struct Joining {
    attempt: u64,
    join_ref: Option<String>,
    reference: Option<String>,
    config: JoinConfig,
    queued: Vec<Inbound>,
    queued_bytes: usize,
}

struct Channel {
    join_ref: Option<String>,
    topic: Arc<str>,
    key: RoomKey,
    member_id: u64,
    config: JoinConfig,
    caller: Credentials,
    policies: Policies,
    presence_calls: Window,
    changes: Option<u64>,
}

pub struct Session {
    rt: Arc<RealtimeState>,
    vsn: Vsn,
    caller: Credentials,
    headers_json: Arc<str>,
    out: SocketTx,
    events: mpsc::UnboundedSender<Box<Event>>,
    channels: HashMap<String, Channel>,
    joining: HashMap<String, Joining>,
    /// Counts the joins this socket started (each join's result names its attempt).
    attempts: u64,
    /// What waits in the joins' queues, in frames and bytes.
    held: held::Held,
    /// Set when the socket must close (code, reason).
    pub closing: Option<(u16, &'static str)>,
}

impl Session {
    pub fn new(
        rt: Arc<RealtimeState>,
        vsn: Vsn,
        caller: Credentials,
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
            attempts: 0,
            held: held::Held::default(),
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
        if let Some(joining) = self.joining.get_mut(&m.topic) {
            let bytes = held::weight(&m);
            self.held.add(bytes);
            joining.queued_bytes += bytes;
            joining.queued.push(m);
            return;
        }
        if m.event == "phx_join" {
            return self.start_join(m);
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

    /// Applies an event from work done off the task.
    pub fn on_event(&mut self, event: Event) {
        match event {
            Event::Joined { topic, attempt, result } => self.finish_join(topic, attempt, result),
            Event::Reauthorized { topic, join_ref, result } => self.finish_reauthorize(&topic, join_ref, result),
        }
    }

    /// Whether the socket should stop reading until a join is answered: its queued frames reached their budget
    /// (a client cannot pile up frames behind a slow join without end; Phoenix's socket reads nothing during a join).
    pub fn backlogged(&self) -> bool {
        self.held.full()
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
            self.shut_channel(&topic, &credentials::TokenError::Expired { seconds_ago: ago }.message());
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
        self.held = held::Held::default();
    }
}
