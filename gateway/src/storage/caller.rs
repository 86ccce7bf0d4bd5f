//! A Storage route's caller: the core's [`Caller`] (verified identity and the request's context), with Storage's
//! rule that a request needs a token, extracted with the request but answered where the handler asks for it — a
//! route's own checks (names, query, body) come first, as Storage orders them. Also the callers Storage acts as
//! itself: its superuser, and the role that minted a signed upload URL.

use super::error::{Result, StorageError};
pub use crate::core::caller::Caller;
use crate::core::context::Request;
use crate::core::identity::Verified;
use crate::core::Core;
use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use serde_json::{Map, Value};
use std::convert::Infallible;

/// The caller of a Storage route, or Storage's answer to a refused one.
pub struct Requester(Result<Caller>);

impl<S> FromRequestParts<S> for Requester
where
    Core: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> std::result::Result<Self, Infallible> {
        let caller = Caller::identify(&Core::from_ref(state), &Request::of(parts)).map_err(StorageError::from);
        // Like Storage, these routes need a token (supabase-js always sends one: the anon key at least).
        let with_token = caller.and_then(|c| match c.verified.identity.has_token {
            true => Ok(c),
            false => Err(StorageError::AccessDenied("Invalid Compact JWS".into())),
        });
        Ok(Requester(with_token))
    }
}

impl Requester {
    /// The verified caller, or why it was refused.
    pub fn caller(self) -> Result<Caller> {
        self.0
    }
}

/// The object owner a caller stands for.
pub trait Owner {
    /// The `sub` claim when it is a UUID (the object's `owner`).
    fn owner(&self) -> Option<uuid::Uuid>;
    /// The `sub` claim as given (the object's `owner_id`).
    fn owner_id(&self) -> Option<String>;
}

impl Owner for Caller {
    fn owner(&self) -> Option<uuid::Uuid> {
        self.sub().and_then(|s| uuid::Uuid::parse_str(s).ok())
    }

    fn owner_id(&self) -> Option<String> {
        self.sub().map(str::to_string)
    }
}

/// Storage's superuser: service_role, which bypasses row-level security.
pub fn service(core: &Core, request: &Request<'_>) -> Caller {
    Caller::acting_as(core, Verified::tokenless("service_role"), request)
}

/// The caller a signed upload URL stands for: the role that minted it (with its `sub` as owner), so row-level
/// security and the triggers on `storage.objects` (e.g. rate limits on anonymous uploads) see the same caller as a
/// direct upload. Tokens without `owner_role` (minted before it existed) keep Storage's rule: service_role.
pub fn minted_by(core: &Core, request: &Request<'_>, role: Option<&str>, owner: Option<&str>) -> Caller {
    let Some(role) = role.filter(|r| core.config.allowed_roles.iter().any(|a| a == r)) else {
        return with_owner(service(core, request), owner);
    };
    let mut claims = Map::new();
    if let Some(o) = owner {
        claims.insert("sub".into(), Value::String(o.to_string()));
    }
    Caller::with_claims(core, role, claims, request)
}

/// Names `owner` as the service caller's `sub` (a signed upload's owner) while its context keeps service_role's
/// claims, as Storage does.
fn with_owner(mut caller: Caller, owner: Option<&str>) -> Caller {
    if let Some(o) = owner {
        let mut identity = caller.verified.identity.clone();
        identity.claims.insert("sub".into(), Value::String(o.to_string()));
        caller.verified = Verified::new(identity);
    }
    caller
}
