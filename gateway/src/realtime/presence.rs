//! Presence state of one room: who tracked what under which key, each meta with its `phx_ref`, and the
//! `presence_state` / `presence_diff` payloads Phoenix.Presence sends. Entries belong to a channel join (the
//! owner), on this instance or another one, so a leave, a closed socket or a lost instance removes exactly theirs.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use uuid::Uuid;

/// The channel join a presence belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Owner {
    pub node: Uuid,
    pub member: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub key: String,
    pub phx_ref: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phx_ref_prev: Option<String>,
    pub meta: Map<String, Value>,
    pub owner: Owner,
}

impl Entry {
    fn meta_json(&self) -> Value {
        let mut m = self.meta.clone();
        m.insert("phx_ref".into(), Value::String(self.phx_ref.clone()));
        if let Some(prev) = &self.phx_ref_prev {
            m.insert("phx_ref_prev".into(), Value::String(prev.clone()));
        }
        Value::Object(m)
    }
}

/// Joins and leaves of one change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Diff {
    pub joins: Vec<Entry>,
    pub leaves: Vec<Entry>,
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        self.joins.is_empty() && self.leaves.is_empty()
    }

    /// `{"joins": {key: {"metas": […]}}, "leaves": {…}}`.
    pub fn to_json(&self) -> Value {
        serde_json::json!({ "joins": group(&self.joins), "leaves": group(&self.leaves) })
    }
}

fn group<'a>(entries: impl IntoIterator<Item = &'a Entry>) -> Value {
    let mut out = Map::new();
    for e in entries {
        let slot = out.entry(e.key.clone()).or_insert_with(|| serde_json::json!({ "metas": [] }));
        if let Some(Value::Array(metas)) = slot.get_mut("metas") {
            metas.push(e.meta_json());
        }
    }
    Value::Object(out)
}

/// A fresh opaque `phx_ref` (Phoenix.Tracker uses base64 of random bytes).
pub fn new_ref() -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD_NO_PAD.encode(rand::random::<[u8; 8]>())
}

#[derive(Debug, Default)]
pub struct RoomPresence {
    entries: Vec<Entry>,
}

impl RoomPresence {
    /// `presence_state`: every key with its metas.
    pub fn state(&self) -> Value {
        group(&self.entries)
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Tracks (or re-tracks) the owner's presence; an identical payload changes nothing.
    pub fn track(&mut self, owner: Owner, key: &str, meta: Map<String, Value>) -> Diff {
        let mut diff = Diff::default();
        let prev = self.entries.iter().position(|e| e.owner == owner);
        if let Some(i) = prev {
            if self.entries[i].meta == meta && self.entries[i].key == key {
                return diff;
            }
            diff.leaves.push(self.entries.remove(i));
        }
        let entry = Entry {
            key: key.to_string(),
            phx_ref: new_ref(),
            phx_ref_prev: diff.leaves.first().map(|e| e.phx_ref.clone()),
            meta,
            owner,
        };
        self.entries.push(entry.clone());
        diff.joins.push(entry);
        diff
    }

    /// Removes the owner's presence.
    pub fn untrack(&mut self, owner: Owner) -> Diff {
        self.remove_where(|e| e.owner == owner)
    }

    /// Removes every presence of an instance (it stopped or was lost).
    pub fn drop_node(&mut self, node: Uuid) -> Diff {
        self.remove_where(|e| e.owner.node == node)
    }

    fn remove_where(&mut self, mut gone: impl FnMut(&Entry) -> bool) -> Diff {
        let mut diff = Diff::default();
        self.entries.retain(|e| {
            let remove = gone(e);
            if remove {
                diff.leaves.push(e.clone());
            }
            !remove
        });
        diff
    }

    /// Applies a diff made elsewhere (another instance).
    pub fn apply(&mut self, diff: &Diff) {
        for leave in &diff.leaves {
            self.entries.retain(|e| !(e.owner == leave.owner && e.phx_ref == leave.phx_ref));
        }
        for join in &diff.joins {
            self.entries.retain(|e| e.owner != join.owner);
            self.entries.push(join.clone());
        }
    }

    /// This instance's own entries (to share with an instance that starts).
    pub fn of_node(&self, node: Uuid) -> Vec<Entry> {
        self.entries.iter().filter(|e| e.owner.node == node).cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn meta(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn track_retrack_and_untrack_produce_phoenix_diffs() {
        let owner = Owner { node: Uuid::nil(), member: 1 };
        let mut room = RoomPresence::default();
        let d = room.track(owner, "u1", meta(json!({"online_at": "x"})));
        assert_eq!((d.joins.len(), d.leaves.len()), (1, 0));
        let r1 = d.joins[0].phx_ref.clone();
        assert_eq!(room.state(), json!({"u1": {"metas": [{"online_at": "x", "phx_ref": r1}]}}));
        assert!(room.track(owner, "u1", meta(json!({"online_at": "x"}))).is_empty(), "identical re-track is a no-op");
        let d = room.track(owner, "u1", meta(json!({"online_at": "y"})));
        assert_eq!(d.leaves[0].phx_ref, r1);
        assert_eq!(d.joins[0].phx_ref_prev.as_deref(), Some(r1.as_str()));
        let j = d.to_json();
        assert_eq!(j["leaves"]["u1"]["metas"][0]["online_at"], "x");
        assert_eq!(j["joins"]["u1"]["metas"][0]["phx_ref_prev"], r1.as_str());
        let d = room.untrack(owner);
        assert_eq!(d.leaves.len(), 1);
        assert_eq!(room.state(), json!({}));
    }

    #[test]
    fn several_owners_share_a_key_and_remote_diffs_apply() {
        let (a, b) = (Owner { node: Uuid::nil(), member: 1 }, Owner { node: Uuid::from_u128(7), member: 1 });
        let mut here = RoomPresence::default();
        here.track(a, "k", meta(json!({"tab": 1})));
        let mut there = RoomPresence::default();
        let remote = there.track(b, "k", meta(json!({"tab": 2})));
        here.apply(&remote);
        assert_eq!(here.state()["k"]["metas"].as_array().unwrap().len(), 2);
        assert_eq!(here.of_node(Uuid::nil()).len(), 1);
        let lost = here.drop_node(Uuid::from_u128(7));
        assert_eq!(lost.leaves[0].meta, meta(json!({"tab": 2})));
        assert_eq!(here.state()["k"]["metas"].as_array().unwrap().len(), 1);
    }
}
