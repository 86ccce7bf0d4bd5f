//! Who makes a request and what SQL is told about it: the verified identity with the request's context, built
//! the one way every API builds it. APIs that identify per route extract it with their own rules and words
//! (Storage's `storage::caller::Requester`); the data API builds the same context on its hot path
//! (`rest::handler`).

use super::context::{Request, RequestContext, DEFAULT_SEARCH_PATH};
use super::identity::{Identity, Rejection, Verified};
use super::state::Core;
use serde_json::{Map, Value};
use std::sync::Arc;

/// A verified caller and the context its request gives SQL.
#[derive(Debug, Clone)]
pub struct Caller {
    pub verified: Arc<Verified>,
    pub context: RequestContext,
}

impl Caller {
    /// The caller `request`'s credentials identify, with the request's context.
    pub fn identify(core: &Core, request: &Request<'_>) -> Result<Caller, Rejection> {
        let verified = core.identify(request.headers)?;
        Ok(Caller::acting_as(core, verified, request))
    }

    /// `verified` making `request` (also an API acting as a role of its own choosing, e.g. Storage's service
    /// role).
    pub fn acting_as(core: &Core, verified: Arc<Verified>, request: &Request<'_>) -> Caller {
        let context = core.context(&verified, request, DEFAULT_SEARCH_PATH.to_string());
        Caller { verified, context }
    }

    /// A caller of `role` with exactly these claims (`role` is added), as a token would carry them.
    pub fn with_claims(core: &Core, role: &str, mut claims: Map<String, Value>, request: &Request<'_>) -> Caller {
        claims.insert("role".into(), Value::String(role.to_string()));
        let verified = Verified::new(Identity { role: role.to_string(), claims, has_token: true });
        Caller::acting_as(core, verified, request)
    }

    /// The role the request runs as.
    pub fn role(&self) -> &str {
        &self.verified.identity.role
    }

    /// The `sub` claim, if any.
    pub fn sub(&self) -> Option<&str> {
        self.verified.identity.claims.get("sub").and_then(Value::as_str)
    }
}
