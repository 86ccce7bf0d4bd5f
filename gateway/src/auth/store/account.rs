//! Changes a user makes to their own account, and the admin API's edits of one: metadata, password, address,
//! invitation, ban, deletion.

use crate::auth::error::AuthResult;
use chrono::{DateTime, Utc};
use deadpool_postgres::Transaction;
use serde_json::Value;
use tokio_postgres::types::ToSql;
use uuid::Uuid;

/// One `auth.users` column the admin API sets directly (a name from this list, never from a request).
#[derive(Debug, Clone, Copy)]
pub enum Column {
    EncryptedPassword,
    UserMetadata,
    AppMetadata,
    Role,
    BannedUntil,
}

impl Column {
    fn name(self) -> &'static str {
        match self {
            Column::EncryptedPassword => "encrypted_password",
            Column::UserMetadata => "raw_user_meta_data",
            Column::AppMetadata => "raw_app_meta_data",
            Column::Role => "role",
            Column::BannedUntil => "banned_until",
        }
    }
}

/// Sets one column of the user.
pub async fn set(tx: &Transaction<'_>, column: Column, id: Uuid, value: &(dyn ToSql + Sync)) -> AuthResult<()> {
    let sql = format!("update auth.users set {} = $2, updated_at = now() where id = $1", column.name());
    tx.execute(sql.as_str(), &[&id, value]).await?;
    Ok(())
}

/// Replaces the user's `user_metadata`.
pub async fn set_user_metadata(tx: &Transaction<'_>, id: Uuid, metadata: &Value) -> AuthResult<()> {
    set(tx, Column::UserMetadata, id, metadata).await
}

/// Sets the ban (`None` lifts it), without touching `updated_at` (as at creation).
pub async fn set_banned_until(tx: &Transaction<'_>, id: Uuid, until: Option<DateTime<Utc>>) -> AuthResult<()> {
    tx.execute("update auth.users set banned_until = $2 where id = $1", &[&id, &until]).await?;
    Ok(())
}

/// A new password hash; the outstanding one-time tokens it would let someone bypass are cleared.
pub async fn set_password(tx: &Transaction<'_>, id: Uuid, hash: &str) -> AuthResult<()> {
    tx.execute(
        "update auth.users set encrypted_password = $2, recovery_token = '', confirmation_token = '', \
         reauthentication_token = '', updated_at = now() where id = $1",
        &[&id, &hash],
    )
    .await?;
    Ok(())
}

/// Whether `hash` is the user's reauthentication code, sent within `lifetime_secs`.
pub async fn reauthentication_valid(
    tx: &Transaction<'_>,
    id: Uuid,
    hash: &str,
    lifetime_secs: f64,
) -> AuthResult<bool> {
    let sql = "select 1 from auth.users where id = $1 and reauthentication_token = $2 \
               and reauthentication_sent_at + make_interval(secs => $3) > now()";
    Ok(tx.query_opt(sql, &[&id, &hash, &lifetime_secs]).await?.is_some())
}

/// Records `email` as the user's pending address (`sent` also stamps `email_change_sent_at`, as an admin link
/// does; the user's own change clears the current-address token instead).
pub async fn stage_email_change(tx: &Transaction<'_>, id: Uuid, email: &str, sent: bool) -> AuthResult<()> {
    let extra = if sent { "email_change_sent_at = now()" } else { "email_change_token_current = ''" };
    let sql = format!(
        "update auth.users set email_change = $2, email_change_confirm_status = 0, {extra}, updated_at = now() \
         where id = $1"
    );
    tx.execute(sql.as_str(), &[&id, &email]).await?;
    Ok(())
}

/// The admin API's direct address change: the user and its e-mail identity.
pub async fn set_email(tx: &Transaction<'_>, id: Uuid, email: &str) -> AuthResult<()> {
    tx.execute("update auth.users set email = $2, updated_at = now() where id = $1", &[&id, &email]).await?;
    tx.execute(
        "update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text) \
         where user_id = $1 and provider = 'email'",
        &[&id, &email],
    )
    .await?;
    Ok(())
}

/// Stamps an invitation (`touch` also moves `updated_at`).
pub async fn mark_invited(tx: &Transaction<'_>, id: Uuid, touch: bool) -> AuthResult<()> {
    let sql = if touch {
        "update auth.users set invited_at = now(), updated_at = now() where id = $1"
    } else {
        "update auth.users set invited_at = now() where id = $1"
    };
    tx.execute(sql, &[&id]).await?;
    Ok(())
}

/// A password sign-in: the e-mail identity's `last_sign_in_at`.
pub async fn note_sign_in(tx: &Transaction<'_>, id: Uuid) -> AuthResult<()> {
    let sql = "update auth.identities set last_sign_in_at = now() where user_id = $1 and provider = 'email'";
    tx.execute(sql, &[&id]).await?;
    Ok(())
}

/// Deletes the user (sessions, identities and tokens go with it by foreign key).
pub async fn delete(tx: &Transaction<'_>, id: Uuid) -> AuthResult<()> {
    tx.execute("delete from auth.users where id = $1", &[&id]).await?;
    Ok(())
}

/// GoTrue's soft delete: the row stays, everything that identifies or signs in the user goes.
pub async fn soft_delete(tx: &Transaction<'_>, id: Uuid) -> AuthResult<()> {
    tx.execute(
        "update auth.users set email = null, phone = null, encrypted_password = null, email_change = '', \
         phone_change = '', confirmation_token = '', recovery_token = '', email_change_token_current = '', \
         email_change_token_new = '', phone_change_token = '', deleted_at = coalesce(deleted_at, now()), \
         updated_at = now() where id = $1",
        &[&id],
    )
    .await?;
    tx.execute("update auth.identities set identity_data = '{}', updated_at = now() where user_id = $1", &[&id])
        .await?;
    tx.execute("delete from auth.one_time_tokens where user_id = $1", &[&id]).await?;
    tx.execute("delete from auth.sessions where user_id = $1", &[&id]).await?;
    Ok(())
}

/// How many users of `aud` match `filter` (a `like` pattern on e-mail or full name), and one page of their ids.
pub async fn page(
    tx: &Transaction<'_>,
    aud: &str,
    filter: &str,
    page: i64,
    per_page: i64,
) -> AuthResult<(i64, Vec<Uuid>)> {
    const MATCHES: &str = "instance_id = $1 and aud = $2 and \
         ($3 = '%%' or email like $3 or raw_user_meta_data->>'full_name' ilike $3)";
    let instance = crate::auth::store::users::INSTANCE_ID;
    let count_sql = format!("select count(*) from auth.users where {MATCHES}");
    let total: i64 = tx.query_one(count_sql.as_str(), &[&instance, &aud, &filter]).await?.get(0);
    let page_sql = format!("select id from auth.users where {MATCHES} order by created_at desc, id limit $4 offset $5");
    let offset = (page - 1) * per_page;
    let ids = tx.query(page_sql.as_str(), &[&instance, &aud, &filter, &per_page, &offset]).await?;
    Ok((total, ids.iter().map(|r| r.get(0)).collect()))
}
