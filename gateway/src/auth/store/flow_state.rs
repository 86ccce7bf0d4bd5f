//! `auth.flow_state`: PKCE flows waiting for their code exchange.

use crate::auth::domain::pkce::Challenge;
use crate::auth::error::AuthResult;
use chrono::{DateTime, Utc};
use deadpool_postgres::Transaction;
use uuid::Uuid;

/// Records a flow for `user_id` (one per user and method: a newer one replaces the older).
pub async fn create(tx: &Transaction<'_>, user_id: Uuid, challenge: &Challenge, method: &str) -> AuthResult<()> {
    tx.execute("delete from auth.flow_state where user_id = $1 and authentication_method = $2", &[&user_id, &method])
        .await?;
    tx.execute(
        "insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type, \
         created_at, updated_at, authentication_method) \
         values ($1, $2, $3, $4::text::auth.code_challenge_method, $5, 'email', now(), now(), $6)",
        &[&Uuid::new_v4(), &user_id, &Uuid::new_v4().to_string(), &challenge.method, &challenge.challenge, &method],
    )
    .await?;
    Ok(())
}

/// Marks the user's flow as ready for exchange and returns its auth code.
pub async fn issue_code(tx: &Transaction<'_>, user_id: Uuid, method: &str) -> AuthResult<Option<String>> {
    let row = tx
        .query_opt(
            "update auth.flow_state set auth_code_issued_at = now(), updated_at = now() \
             where user_id = $1 and authentication_method = $2 returning auth_code",
            &[&user_id, &method],
        )
        .await?;
    Ok(row.map(|r| r.get(0)))
}

/// A flow found by its auth code.
pub struct Flow {
    pub id: Uuid,
    pub user_id: Option<Uuid>,
    pub challenge: String,
    pub method: String,
    pub authentication_method: String,
    pub started: DateTime<Utc>,
}

pub async fn by_code(tx: &Transaction<'_>, code: &str) -> AuthResult<Option<Flow>> {
    let row = tx
        .query_opt(
            "select id, user_id, code_challenge, code_challenge_method::text, authentication_method, \
             coalesce(auth_code_issued_at, created_at, now()) from auth.flow_state where auth_code = $1 for update",
            &[&code],
        )
        .await?;
    Ok(row.map(|r| Flow {
        id: r.get(0),
        user_id: r.get(1),
        challenge: r.get(2),
        method: r.get(3),
        authentication_method: r.get(4),
        started: r.get(5),
    }))
}

pub async fn delete(tx: &Transaction<'_>, id: Uuid) -> AuthResult<()> {
    tx.execute("delete from auth.flow_state where id = $1", &[&id]).await?;
    Ok(())
}
