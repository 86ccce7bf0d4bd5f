//! `auth.sessions`, `auth.refresh_tokens` and `auth.mfa_amr_claims`: creating a session, rotating its refresh
//! token (GoTrue's rules: parent-of-active and reuse-interval exceptions, otherwise the session is revoked), logout.

use crate::auth::domain::claims::AmrEntry;
use crate::auth::domain::tokens::new_refresh_token;
use crate::auth::error::AuthResult;
use crate::auth::store::users::INSTANCE_ID;
use chrono::{DateTime, Utc};
use deadpool_postgres::Transaction;
use std::time::Duration;
use uuid::Uuid;

/// Where a request came from, recorded on the session.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    pub ip: Option<std::net::IpAddr>,
    pub user_agent: Option<String>,
}

/// Creates a session with its first refresh token and the amr entry; returns (session id, refresh token).
pub async fn create(tx: &Transaction<'_>, user_id: Uuid, method: &str, origin: &Origin) -> AuthResult<(Uuid, String)> {
    let session_id = Uuid::new_v4();
    tx.execute(
        "insert into auth.sessions (id, user_id, created_at, updated_at, aal, refreshed_at, user_agent, ip) \
         values ($1, $2, now(), now(), 'aal1', now(), $3, $4)",
        &[&session_id, &user_id, &origin.user_agent, &origin.ip],
    )
    .await?;
    add_amr(tx, session_id, method).await?;
    let token = insert_token(tx, user_id, session_id, None).await?;
    tx.execute("update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1", &[&user_id]).await?;
    Ok((session_id, token))
}

/// Adds (or refreshes) an authentication method of the session.
pub async fn add_amr(tx: &Transaction<'_>, session_id: Uuid, method: &str) -> AuthResult<()> {
    tx.execute(
        "insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method, id) \
         values ($1, now(), now(), $2, $3) on conflict (session_id, authentication_method) \
         do update set updated_at = now()",
        &[&session_id, &method, &Uuid::new_v4()],
    )
    .await?;
    Ok(())
}

async fn insert_token(
    tx: &Transaction<'_>,
    user_id: Uuid,
    session_id: Uuid,
    parent: Option<&str>,
) -> AuthResult<String> {
    let token = new_refresh_token();
    tx.execute(
        "insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id) \
         values ($1, $2, $3, false, now(), now(), $4, $5)",
        &[&INSTANCE_ID, &token, &user_id.to_string(), &parent, &session_id],
    )
    .await?;
    Ok(token)
}

/// The `amr` claim: the session's methods, newest first.
pub async fn amr(tx: &Transaction<'_>, session_id: Uuid) -> AuthResult<Vec<AmrEntry>> {
    let rows = tx
        .query(
            "select authentication_method, extract(epoch from updated_at)::bigint from auth.mfa_amr_claims \
             where session_id = $1 order by updated_at desc",
            &[&session_id],
        )
        .await?;
    Ok(rows.iter().map(|r| AmrEntry { method: r.get(0), timestamp: r.get(1) }).collect())
}

/// Whether the session exists for this user.
pub async fn exists(tx: &Transaction<'_>, session_id: Uuid, user_id: Uuid) -> AuthResult<bool> {
    Ok(tx
        .query_opt("select 1 from auth.sessions where id = $1 and user_id = $2", &[&session_id, &user_id])
        .await?
        .is_some())
}

/// What happened to a refresh token presented for rotation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refresh {
    /// Rotated (or the active token re-issued): the user, session and the token to hand out.
    Issued {
        user_id: Uuid,
        session_id: Uuid,
        token: String,
    },
    NotFound,
    /// Reused outside the reuse interval: the session has been revoked.
    AlreadyUsed,
    /// A token without a session (legacy rows).
    NoSession,
}

/// Rotates `token` (row-locked, so concurrent refreshes serialise).
pub async fn rotate(tx: &Transaction<'_>, token: &str, reuse_interval: Duration) -> AuthResult<Refresh> {
    let Some(row) = tx
        .query_opt(
            "select id, user_id, revoked, updated_at, session_id from auth.refresh_tokens where token = $1 for update",
            &[&token],
        )
        .await?
    else {
        return Ok(Refresh::NotFound);
    };
    let (id, user_id, revoked, updated_at, session_id): (
        i64,
        String,
        Option<bool>,
        Option<DateTime<Utc>>,
        Option<Uuid>,
    ) = (row.get(0), row.get(1), row.get(2), row.get(3), row.get(4));
    let Some(session_id) = session_id else { return Ok(Refresh::NoSession) };
    let Ok(user_id) = Uuid::parse_str(&user_id) else { return Ok(Refresh::NotFound) };
    tx.execute("select 1 from auth.sessions where id = $1 for update", &[&session_id]).await?;
    if revoked.unwrap_or(false) {
        let within = updated_at
            .is_some_and(|t| Utc::now().signed_duration_since(t).to_std().unwrap_or_default() < reuse_interval);
        if let Some(answer) = reused(tx, token, user_id, session_id, within).await? {
            return Ok(answer);
        }
    }
    tx.execute(
        "update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1 and revoked = false",
        &[&id],
    )
    .await?;
    let token = insert_token(tx, user_id, session_id, Some(token)).await?;
    tx.execute("update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1", &[&session_id])
        .await?;
    Ok(Refresh::Issued { user_id, session_id, token })
}

/// A revoked token presented again: the active token when it is this token's child (the client lost the answer
/// of its last refresh), nothing (rotate again) within the reuse interval, else the whole family is treated as
/// stolen and the session ends.
async fn reused(
    tx: &Transaction<'_>,
    token: &str,
    user_id: Uuid,
    session_id: Uuid,
    within_interval: bool,
) -> AuthResult<Option<Refresh>> {
    let active = tx
        .query_opt(
            "select token, parent from auth.refresh_tokens where session_id = $1 and revoked = false \
             order by id desc limit 1",
            &[&session_id],
        )
        .await?;
    if let Some(active) = active.filter(|a| a.get::<_, Option<String>>(1).as_deref() == Some(token)) {
        return Ok(Some(Refresh::Issued { user_id, session_id, token: active.get(0) }));
    }
    if within_interval {
        return Ok(None);
    }
    tx.execute("delete from auth.sessions where id = $1", &[&session_id]).await?;
    Ok(Some(Refresh::AlreadyUsed))
}

/// Logout scopes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Global,
    Local,
    Others,
}

pub async fn logout(tx: &Transaction<'_>, user_id: Uuid, session_id: Option<Uuid>, scope: Scope) -> AuthResult<()> {
    match (scope, session_id) {
        (Scope::Local, Some(s)) => tx.execute("delete from auth.sessions where id = $1", &[&s]).await?,
        (Scope::Others, Some(s)) => {
            tx.execute("delete from auth.sessions where user_id = $1 and id <> $2", &[&user_id, &s]).await?
        }
        _ => tx.execute("delete from auth.sessions where user_id = $1", &[&user_id]).await?,
    };
    Ok(())
}
