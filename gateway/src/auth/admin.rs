//! The admin gate, a route layer of the admin API (`/admin/…`, `/invite`): only a valid token whose role is one of
//! `GOTRUE_JWT_ADMIN_ROLES` passes (`session::require_admin`), before the route reads anything else, as GoTrue's
//! admin middleware.

use super::session::require_admin;
use super::Auth;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

pub async fn require(State(auth): State<Auth>, req: Request, next: Next) -> Response {
    match require_admin(&auth, req.headers()) {
        Ok(_) => next.run(req).await,
        Err(refused) => refused.into_response(),
    }
}
