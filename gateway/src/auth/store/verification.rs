//! What redeeming a mailed token writes: a recovery or magic-link token used once, the two steps of an e-mail
//! change.

use crate::auth::error::AuthResult;
use deadpool_postgres::Transaction;
use uuid::Uuid;

/// Whether `hash` is the user's sign-up confirmation token (rather than a recovery or magic-link one).
pub async fn is_confirmation(tx: &Transaction<'_>, id: Uuid, hash: &str) -> AuthResult<bool> {
    let sql = "select 1 from auth.users where id = $1 and confirmation_token = $2";
    Ok(tx.query_opt(sql, &[&id, &hash]).await?.is_some())
}

/// Spends the user's recovery token.
pub async fn spend_recovery(tx: &Transaction<'_>, id: Uuid) -> AuthResult<()> {
    tx.execute("update auth.users set recovery_token = '', updated_at = now() where id = $1", &[&id]).await?;
    tx.execute("delete from auth.one_time_tokens where user_id = $1 and token_type = 'recovery_token'", &[&id]).await?;
    Ok(())
}

/// The first of the two secure e-mail change tokens: spent, and the change half confirmed.
pub async fn half_confirm_email_change(tx: &Transaction<'_>, id: Uuid, new_address_token: bool) -> AuthResult<()> {
    let column = if new_address_token { "email_change_token_new" } else { "email_change_token_current" };
    let sql = format!(
        "update auth.users set {column} = '', email_change_confirm_status = 1, updated_at = now() where id = $1"
    );
    tx.execute(sql.as_str(), &[&id]).await?;
    Ok(())
}

/// The e-mail change completed: the new address on the user, its metadata and its e-mail identity.
pub async fn swap_email(tx: &Transaction<'_>, id: Uuid, new_email: &str) -> AuthResult<()> {
    tx.execute(
        "update auth.users set email = $2::text, email_change = '', email_change_token_new = '', \
         email_change_token_current = '', email_change_confirm_status = 0, \
         email_confirmed_at = coalesce(email_confirmed_at, now()), \
         raw_user_meta_data = coalesce(raw_user_meta_data, '{}') || jsonb_build_object('email', $2::text), \
         updated_at = now() where id = $1",
        &[&id, &new_email],
    )
    .await?;
    tx.execute(
        "update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), \
         updated_at = now() where user_id = $1 and provider = 'email'",
        &[&id, &new_email],
    )
    .await?;
    tx.execute(
        "delete from auth.one_time_tokens where user_id = $1 and token_type in \
         ('email_change_token_new', 'email_change_token_current')",
        &[&id],
    )
    .await?;
    Ok(())
}
