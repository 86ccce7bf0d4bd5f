//! Tokens whose session or user no longer exists: ended sessions (sign-out, a new password, a reused refresh
//! token) and deleted users, as PostgreSQL records them (`gateway.revocations`, written by triggers on
//! `auth.sessions` and `auth.users`). Every gateway on the database holds the recent ones in memory, fed by
//! `NOTIFY gateway_revocations` and reloaded whole whenever its listener (re)connects ([`listener`]), so a request
//! costs a hash lookup and no query. An entry is held for as long as a token issued before it can live (the
//! access tokens' lifetime and the leeway); a session's tokens are refused whatever their age, a user's only when
//! issued (`iat`) at or before the deletion (an id the admin API reuses later is a new user).

pub mod listener;

use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::RwLock;
use uuid::Uuid;

/// What was revoked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Session,
    User,
}

impl Kind {
    /// The word `gateway.revocations.kind` uses.
    pub fn parse(word: &str) -> Option<Kind> {
        match word {
            "session" => Some(Kind::Session),
            "user" => Some(Kind::User),
            _ => None,
        }
    }
}

/// One revocation: what, which, and when (Unix seconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Revoked {
    pub kind: Kind,
    pub id: Uuid,
    pub at: i64,
}

#[derive(Default)]
struct Entries {
    by_id: HashMap<(Kind, Uuid), i64>,
    /// When the held entries were last pruned.
    pruned_at: i64,
}

/// The revocations a gateway holds.
pub struct Revocations {
    entries: RwLock<Entries>,
    /// False while nothing is held: the common case costs one atomic load.
    any: AtomicBool,
    /// How long an entry is held, in seconds.
    hold_secs: i64,
}

impl Revocations {
    /// Entries held `hold_secs` after their revocation.
    pub fn new(hold_secs: i64) -> Self {
        Revocations { entries: RwLock::default(), any: AtomicBool::new(false), hold_secs: hold_secs.max(1) }
    }

    /// How long entries are held.
    pub fn hold_secs(&self) -> i64 {
        self.hold_secs
    }

    /// Records revocations (a later time for the same id wins), and drops entries past their hold now and then.
    pub fn add(&self, revoked: impl IntoIterator<Item = Revoked>, now: i64) {
        let Ok(mut entries) = self.entries.write() else { return };
        for r in revoked {
            let at = entries.by_id.entry((r.kind, r.id)).or_insert(r.at);
            *at = (*at).max(r.at);
        }
        if now - entries.pruned_at >= 60 {
            let horizon = now - self.hold_secs;
            entries.by_id.retain(|_, at| *at >= horizon);
            entries.pruned_at = now;
        }
        self.any.store(!entries.by_id.is_empty(), Ordering::Release);
    }

    /// Replaces everything held by `revoked` (a reload after the listener reconnected).
    pub fn replace(&self, revoked: impl IntoIterator<Item = Revoked>, now: i64) {
        if let Ok(mut entries) = self.entries.write() {
            entries.by_id.clear();
            entries.pruned_at = 0;
        }
        self.add(revoked, now);
    }

    /// Whether a token with these claims belongs to an ended session or a deleted user.
    pub fn refuses(&self, claims: &Map<String, Value>) -> bool {
        if !self.any.load(Ordering::Acquire) {
            return false;
        }
        let id = |name: &str| claims.get(name).and_then(Value::as_str).and_then(|s| Uuid::parse_str(s).ok());
        let Ok(entries) = self.entries.read() else { return true };
        if id("session_id").is_some_and(|s| entries.by_id.contains_key(&(Kind::Session, s))) {
            return true;
        }
        let issued = claims.get("iat").and_then(Value::as_f64).map(|t| t as i64);
        match id("sub").and_then(|u| entries.by_id.get(&(Kind::User, u))) {
            Some(deleted_at) => issued.is_none_or(|iat| iat <= *deleted_at),
            None => false,
        }
    }

    /// How many revocations are held.
    pub fn len(&self) -> usize {
        self.entries.read().map(|e| e.by_id.len()).unwrap_or(0)
    }

    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn claims(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn ended_sessions_and_deleted_users_are_refused() {
        let set = Revocations::new(3600);
        let (session, user, other) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
        let token = |s: Uuid, u: Uuid, iat: i64| claims(json!({"sub": u, "session_id": s, "iat": iat}));
        assert!(!set.refuses(&token(session, user, 100)), "nothing held");
        set.add([Revoked { kind: Kind::Session, id: session, at: 1000 }], 1000);
        assert!(set.refuses(&token(session, other, 5000)), "a session's tokens, whatever their age");
        assert!(!set.refuses(&token(Uuid::new_v4(), other, 900)));
        set.add([Revoked { kind: Kind::User, id: user, at: 2000 }], 2000);
        assert!(set.refuses(&token(Uuid::new_v4(), user, 1999)));
        assert!(set.refuses(&token(Uuid::new_v4(), user, 2000)), "issued in the second of the deletion");
        assert!(!set.refuses(&token(Uuid::new_v4(), user, 2001)), "a later user with the same id");
        assert!(set.refuses(&claims(json!({"sub": user}))), "no iat: refused");
        assert!(!set.refuses(&claims(json!({"role": "anon"}))));
    }

    #[test]
    fn entries_are_held_for_the_tokens_lifetime_and_replaced_on_reload() {
        let set = Revocations::new(100);
        let old = Uuid::new_v4();
        set.add([Revoked { kind: Kind::Session, id: old, at: 1000 }], 1000);
        set.add([Revoked { kind: Kind::Session, id: Uuid::new_v4(), at: 1150 }], 1150);
        assert_eq!(set.len(), 1, "the first is past its hold");
        assert!(!set.refuses(&claims(json!({"session_id": old}))));
        set.replace([], 1200);
        assert!(set.is_empty());
        assert!(!set.refuses(&claims(json!({"session_id": Uuid::new_v4()}))));
    }
}
