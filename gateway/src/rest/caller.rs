//! Who asks the data API and what SQL is told: a refused caller in PostgREST's words (`error::jwt`, and a role
//! the gateway never switches to as PostgreSQL reports `SET ROLE`), and the core's request context on the
//! request's schema with the time zone it prefers.

use super::error::Error;
use super::request::ApiRequest;
use super::schema_cache::SchemaCache;
use super::Rest;
use crate::core::context::{self, RequestContext};
use crate::core::identity::{Rejection, Verified};
use axum::http::{HeaderMap, Uri};

/// A rejected caller in PostgREST's terms: token errors as PGRST301/303, a role the gateway never switches to
/// as PostgreSQL would report `SET ROLE` (22023 unknown role → 401, 42501 not granted → 403).
pub fn identity_error(e: &Rejection, headers: &HeaderMap, cache: &SchemaCache) -> Error {
    match e {
        Rejection::RoleNotAllowed(role) if !cache.roles.contains(role) => Error::Db {
            code: "22023".into(),
            message: format!("role \"{role}\" does not exist"),
            details: None,
            hint: None,
            authenticated: true,
        },
        Rejection::RoleNotAllowed(role) => Error::Db {
            code: "42501".into(),
            message: format!("permission denied to set role \"{role}\""),
            details: None,
            hint: None,
            authenticated: true,
        },
        other => Error::Jwt(super::error::jwt::describe(other, crate::core::identity::bearer_token(headers))),
    }
}

/// What the preamble tells SQL about this request: the one request context, on the request's schema, with the
/// `Prefer: timezone` PostgreSQL knows.
pub fn request_context(
    rest: &Rest,
    verified: &Verified,
    req: &ApiRequest,
    uri: &Uri,
    headers: &HeaderMap,
    cache: &SchemaCache,
) -> RequestContext {
    let path = uri.path();
    let request =
        context::Request { method: req.method.as_str(), path: path.strip_prefix("/rest/v1").unwrap_or(path), headers };
    let search_path = rest.config.search_path(&req.schema);
    let mut context = rest.core.context(verified, &request, search_path);
    if let Some(tz) = applied_timezone(req, cache) {
        context.role_settings.push(("timezone".into(), tz.to_string()));
    }
    context
}

/// `Prefer: timezone=…` when PostgreSQL knows the zone (otherwise ignored, as PostgREST does).
pub(super) fn applied_timezone<'a>(req: &'a ApiRequest, cache: &SchemaCache) -> Option<&'a str> {
    req.prefs.timezone.as_deref().filter(|tz| cache.timezones.contains(*tz))
}
