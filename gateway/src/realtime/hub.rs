//! This instance's rooms: which channel joins listen to which topic, and the presence of each topic. A room is a
//! sub-topic plus its privacy — a public and a private channel of the same name are different rooms, as on
//! Supabase. Fan-out encodes a message once per (protocol version, join topic) and queues the shared frame on
//! every member's socket.

use super::message::Broadcast;
use super::outbound::{Frame, SocketTx};
use super::presence::{Diff, Owner, RoomPresence};
use super::protocol::{encode_text, Envelope, Vsn};
use rustc_hash::FxHashMap;
use serde_json::{Map, Value};
use std::sync::{Arc, Mutex, RwLock};
use uuid::Uuid;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RoomKey {
    pub private: bool,
    pub sub_topic: Arc<str>,
}

/// One channel join on this instance.
#[derive(Debug, Clone)]
pub struct Member {
    pub id: u64,
    pub socket: SocketTx,
    /// The topic the client joined (`realtime:<name>`), which its frames carry.
    pub topic: Arc<str>,
    pub vsn: Vsn,
    pub read_broadcast: bool,
    pub read_presence: bool,
}

#[derive(Default)]
struct Room {
    members: RwLock<Vec<Member>>,
    presence: Mutex<RoomPresence>,
}

pub struct Hub {
    node: Uuid,
    rooms: Mutex<FxHashMap<RoomKey, Arc<Room>>>,
}

impl Hub {
    pub fn new(node: Uuid) -> Self {
        Hub { node, rooms: Mutex::new(FxHashMap::default()) }
    }

    pub fn node(&self) -> Uuid {
        self.node
    }

    fn room(&self, key: &RoomKey) -> Option<Arc<Room>> {
        self.rooms.lock().ok()?.get(key).cloned()
    }

    fn room_or_new(&self, key: &RoomKey) -> Arc<Room> {
        let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        rooms.entry(key.clone()).or_default().clone()
    }

    /// Drops a room that has neither members nor presences.
    fn prune(&self, key: &RoomKey) {
        let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        let empty = rooms.get(key).is_some_and(|r| {
            r.members.read().map(|m| m.is_empty()).unwrap_or(false)
                && r.presence.lock().map(|p| p.is_empty()).unwrap_or(false)
        });
        if empty {
            rooms.remove(key);
        }
    }

    pub fn join(&self, key: &RoomKey, member: Member) {
        let room = self.room_or_new(key);
        room.members.write().unwrap_or_else(|e| e.into_inner()).push(member);
    }

    /// Removes a member and its presence; returns the presence diff to share.
    pub fn leave(&self, key: &RoomKey, member_id: u64) -> Diff {
        let Some(room) = self.room(key) else { return Diff::default() };
        room.members.write().unwrap_or_else(|e| e.into_inner()).retain(|m| m.id != member_id);
        let diff = room.presence.lock().unwrap_or_else(|e| e.into_inner()).untrack(self.owner(member_id));
        self.deliver_diff(&room, &diff);
        self.prune(key);
        diff
    }

    /// Updates what a member may read (after a token refresh).
    pub fn set_reads(&self, key: &RoomKey, member_id: u64, read_broadcast: bool, read_presence: bool) {
        let Some(room) = self.room(key) else { return };
        for m in room.members.write().unwrap_or_else(|e| e.into_inner()).iter_mut().filter(|m| m.id == member_id) {
            m.read_broadcast = read_broadcast;
            m.read_presence = read_presence;
        }
    }

    /// Delivers a broadcast to the room's members that may read it, except `exclude` (a sender without `self`).
    /// Returns how many frames were queued.
    pub fn broadcast(&self, key: &RoomKey, message: &Broadcast, exclude: Option<u64>) -> usize {
        let Some(room) = self.room(key) else { return 0 };
        let members = room.members.read().unwrap_or_else(|e| e.into_inner());
        let mut cache: Vec<(Vsn, Arc<str>, Option<Frame>)> = Vec::with_capacity(2);
        let mut sent = 0;
        for m in members.iter().filter(|m| m.read_broadcast && Some(m.id) != exclude) {
            let frame = match cache.iter().find(|(v, t, _)| *v == m.vsn && *t == m.topic) {
                Some((_, _, f)) => f.clone(),
                None => {
                    let f = message.frame(m.vsn, &m.topic);
                    cache.push((m.vsn, m.topic.clone(), f.clone()));
                    f
                }
            };
            if let Some(frame) = frame {
                m.socket.send(frame);
                sent += 1;
            }
        }
        sent
    }

    /// The owner a local member's presence is recorded under.
    pub fn owner(&self, member_id: u64) -> Owner {
        Owner { node: self.node, member: member_id }
    }

    pub fn presence_state(&self, key: &RoomKey) -> Value {
        self.room(key)
            .map(|r| r.presence.lock().unwrap_or_else(|e| e.into_inner()).state())
            .unwrap_or_else(|| Value::Object(Map::new()))
    }

    /// Tracks a local member's presence; the diff is delivered here and returned to share.
    pub fn track(&self, key: &RoomKey, member_id: u64, presence_key: &str, meta: Map<String, Value>) -> Diff {
        let room = self.room_or_new(key);
        let diff =
            room.presence.lock().unwrap_or_else(|e| e.into_inner()).track(self.owner(member_id), presence_key, meta);
        self.deliver_diff(&room, &diff);
        diff
    }

    pub fn untrack(&self, key: &RoomKey, member_id: u64) -> Diff {
        let Some(room) = self.room(key) else { return Diff::default() };
        let diff = room.presence.lock().unwrap_or_else(|e| e.into_inner()).untrack(self.owner(member_id));
        self.deliver_diff(&room, &diff);
        diff
    }

    /// Applies a diff from another instance.
    pub fn apply_remote(&self, key: &RoomKey, diff: &Diff) {
        let room = self.room_or_new(key);
        room.presence.lock().unwrap_or_else(|e| e.into_inner()).apply(diff);
        self.deliver_diff(&room, diff);
        self.prune(key);
    }

    /// Forgets every presence of a lost instance.
    pub fn drop_node(&self, node: Uuid) {
        let rooms: Vec<(RoomKey, Arc<Room>)> =
            self.rooms.lock().unwrap_or_else(|e| e.into_inner()).iter().map(|(k, r)| (k.clone(), r.clone())).collect();
        for (key, room) in rooms {
            let diff = room.presence.lock().unwrap_or_else(|e| e.into_inner()).drop_node(node);
            self.deliver_diff(&room, &diff);
            self.prune(&key);
        }
    }

    /// This instance's presences in every room (for an instance that asks).
    pub fn local_presences(&self) -> Vec<(RoomKey, Diff)> {
        let rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        rooms
            .iter()
            .filter_map(|(k, r)| {
                let joins = r.presence.lock().ok()?.of_node(self.node);
                (!joins.is_empty()).then(|| (k.clone(), Diff { joins, leaves: vec![] }))
            })
            .collect()
    }

    /// `presence_diff` to every member that may read presence.
    fn deliver_diff(&self, room: &Room, diff: &Diff) {
        if diff.is_empty() {
            return;
        }
        let payload = diff.to_json().to_string();
        let members = room.members.read().unwrap_or_else(|e| e.into_inner());
        let mut cache: Vec<(Vsn, Arc<str>, Frame)> = Vec::with_capacity(2);
        for m in members.iter().filter(|m| m.read_presence) {
            let frame = match cache.iter().find(|(v, t, _)| *v == m.vsn && *t == m.topic) {
                Some((_, _, f)) => f.clone(),
                None => {
                    let f = Frame::Text(encode_text(m.vsn, Envelope::push(&m.topic, "presence_diff"), &payload).into());
                    cache.push((m.vsn, m.topic.clone(), f.clone()));
                    f
                }
            };
            m.socket.send(frame);
        }
    }

    /// Sockets connected to this instance's rooms (for tests and metrics).
    pub fn member_count(&self) -> usize {
        let rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        rooms.values().map(|r| r.members.read().map(|m| m.len()).unwrap_or(0)).sum()
    }
}
