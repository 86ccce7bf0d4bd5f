//! The auth tables: every query the auth endpoints run, inside transactions that switch to the NOLOGIN role
//! `supabase_auth_admin` (which owns `auth.*`). API requests can never switch to that role (see `identity`).

pub mod account;
pub mod flow_state;
pub mod new_user;
pub mod rate_tokens;
pub mod sessions;
pub mod users;
pub mod verification;

use crate::auth::error::AuthResult;
use deadpool_postgres::{Object, Transaction};

/// Begins a transaction working as `supabase_auth_admin`.
pub async fn begin(client: &mut Object) -> AuthResult<Transaction<'_>> {
    let tx = client.transaction().await?;
    tx.batch_execute("set local role supabase_auth_admin").await?;
    Ok(tx)
}
