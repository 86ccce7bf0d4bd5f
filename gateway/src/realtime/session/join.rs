//! Joining a channel: checked off the socket's task (topic, channel and join limits, then the token and, for a
//! private channel, the RLS policies), then answered — entered (a member of the room, postgres_changes subscribed)
//! or refused — and the topic's frames that arrived meanwhile applied in their order (a leave, another join).

use super::{Channel, Event, Joining, Session};
use crate::realtime::admission::{self, Admitted, JoinConfig, Refusal};
use crate::realtime::changes::Target;
use crate::realtime::channel_policies::Policies;
use crate::realtime::frames;
use crate::realtime::hub::{Member, RoomKey};
use crate::realtime::limits::Window;
use crate::realtime::protocol::{Inbound, Payload};
use serde_json::json;
use std::sync::Arc;

impl Session {
    pub(super) fn start_join(&mut self, m: Inbound) {
        let Some(sub_topic) = m.topic.strip_prefix("realtime:").map(str::to_string) else {
            return self.reply(&m, m.join_ref.as_deref(), "error", json!({ "reason": "unmatched topic" }));
        };
        if self.channels.contains_key(&m.topic) {
            self.remove_channel(&m.topic.clone(), true);
        }
        let Payload::Json(payload) = &m.payload else { return };
        let config = JoinConfig::parse(payload);
        let refusal = if sub_topic.is_empty() {
            Some(Refusal::new("TopicNameRequired: You must provide a topic name"))
        } else if self.channels.len() + self.joining.len() >= self.rt.config.max_channels_per_client {
            Some(Refusal::new("ChannelRateLimitReached: Too many channels"))
        } else if !self.rt.joins.take() {
            Some(Refusal { reason: "ClientJoinRateLimitReached: Too many joins per second".into(), close_socket: true })
        } else {
            None
        };
        self.attempts += 1;
        let attempt = self.attempts;
        let (join_ref, reference, queued) = (m.join_ref, m.reference, vec![]);
        let joining = Joining { attempt, join_ref, reference, config: config.clone(), queued, queued_bytes: 0 };
        self.joining.insert(m.topic.clone(), joining);
        let (rt, events, caller, headers) =
            (self.rt.clone(), self.events.clone(), self.caller.clone(), self.headers_json.clone());
        let topic = m.topic;
        tokio::spawn(async move {
            let result = match refusal {
                Some(r) => Err(r),
                None => admission::admit(&rt, &sub_topic, &config, &caller, &headers).await,
            };
            if result.is_err() {
                tokio::time::sleep(rt.config.channel_error_backoff).await;
            }
            let _ = events.send(Box::new(Event::Joined { topic, attempt, result }));
        });
    }

    /// Answers join `attempt` of `topic`, then applies the frames that waited behind it, in order.
    pub(super) fn finish_join(&mut self, topic: String, attempt: u64, result: Result<Admitted, Refusal>) {
        if self.joining.get(&topic).is_none_or(|j| j.attempt != attempt) {
            return; // the socket closed its channels meanwhile
        }
        let Some(mut joining) = self.joining.remove(&topic) else { return };
        self.held.release(joining.queued.len(), joining.queued_bytes);
        let queued = std::mem::take(&mut joining.queued);
        match result {
            Ok(admitted) => self.enter(topic, joining, admitted),
            Err(refusal) => self.refuse(&topic, joining.join_ref.as_deref(), joining.reference.as_deref(), refusal),
        }
        for m in queued {
            if self.closing.is_some() {
                break;
            }
            self.on_message(m);
        }
    }

    /// An admitted join: the room, its reply, the presence state, the changes subscription, the channel.
    fn enter(&mut self, topic: String, joining: Joining, admitted: Admitted) {
        let Joining { join_ref, reference, mut config, .. } = joining;
        if config.presence_key.is_empty() {
            config.presence_key = uuid::Uuid::new_v4().to_string();
        }
        let topic_arc: Arc<str> = topic.as_str().into();
        let key = RoomKey { private: config.private, sub_topic: topic["realtime:".len()..].into() };
        let member_id = self.rt.next_id();
        let policies = admitted.policies;
        self.join_room(&key, member_id, &topic_arc, &policies);
        let response = json!({ "postgres_changes": config.postgres_changes_reply() });
        self.send(frames::reply(self.vsn, join_ref.as_deref(), reference.as_deref(), &topic, "ok", &response));
        if config.presence_enabled && policies.read_presence {
            let state = self.rt.hub.presence_state(&key);
            self.send(frames::push(self.vsn, join_ref.as_deref(), &topic, "presence_state", &state));
        }
        let changes = self.subscribe(&topic_arc, &join_ref, &config, &admitted);
        let caller = admitted.caller;
        let presence_calls = Window::default();
        let channel =
            Channel { join_ref, topic: topic_arc, key, member_id, config, caller, policies, presence_calls, changes };
        self.channels.insert(topic, channel);
    }

    /// A refused join: its error reply, and a closed socket when the client joins too fast.
    fn refuse(&mut self, topic: &str, join_ref: Option<&str>, reference: Option<&str>, refusal: Refusal) {
        let reason = json!({ "reason": refusal.reason });
        self.send(frames::reply(self.vsn, join_ref, reference, topic, "error", &reason));
        if refusal.close_socket {
            self.closing = Some((1001, "too many joins"));
        }
    }

    /// The channel's postgres_changes subscription, if it asked for changes.
    fn subscribe(
        &self,
        topic: &Arc<str>,
        join_ref: &Option<String>,
        config: &JoinConfig,
        admitted: &Admitted,
    ) -> Option<u64> {
        (!config.postgres_changes.is_empty()).then(|| {
            let target = Target {
                socket: self.out.clone(),
                topic: topic.clone(),
                join_ref: join_ref.clone().map(Into::into),
                vsn: self.vsn,
            };
            self.rt.changes.subscribe(target, admitted.caller.clone(), &config.postgres_changes)
        })
    }

    /// Joins the room of `key` as member `member_id`, reading what the policies let it read.
    fn join_room(&self, key: &RoomKey, member_id: u64, topic: &Arc<str>, policies: &Policies) {
        let member = Member {
            id: member_id,
            socket: self.out.clone(),
            topic: topic.clone(),
            vsn: self.vsn,
            read_broadcast: policies.read_broadcast,
            read_presence: policies.read_presence,
        };
        self.rt.hub.join(key, member);
    }
}
