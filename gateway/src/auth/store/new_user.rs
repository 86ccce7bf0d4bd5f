//! Creating a user: the `auth.users` row and, for an e-mail user, its `email` identity, as GoTrue writes them.

use super::users::{by_id, User, INSTANCE_ID};
use crate::auth::config::AuthConfig;
use crate::auth::domain::metadata::{within_limit, Field};
use crate::auth::error::{AuthError, AuthResult};
use deadpool_postgres::Transaction;
use serde_json::{json, Map, Value};
use uuid::Uuid;

/// What a new user starts with.
pub struct NewUser<'a> {
    /// The user's id (the admin API may choose it); a fresh one otherwise.
    pub id: Option<Uuid>,
    pub email: Option<&'a str>,
    pub password_hash: Option<&'a str>,
    pub aud: &'a str,
    pub role: &'a str,
    pub user_metadata: Value,
    pub app_metadata: Value,
    pub confirmed: bool,
    pub is_anonymous: bool,
    /// Sign-up copies the identity data into `user_metadata`; the admin API keeps the given metadata as it is.
    pub identity_in_metadata: bool,
}

impl<'a> NewUser<'a> {
    /// An unconfirmed e-mail account without a password, with Auth's audience and default role and the e-mail
    /// provider, its identity data copied into `user_metadata` (as sign-ups are).
    pub fn email_account(cfg: &'a AuthConfig, email: &'a str, user_metadata: Value) -> Self {
        NewUser {
            id: None,
            email: Some(email),
            password_hash: None,
            aud: &cfg.jwt_aud,
            role: &cfg.default_role,
            user_metadata,
            app_metadata: json!({"provider": "email", "providers": ["email"]}),
            confirmed: false,
            is_anonymous: false,
            identity_in_metadata: true,
        }
    }
}

/// Inserts the user and, for e-mail users, its `email` identity (identity_data = sub, email, verified flags +
/// the metadata keys, which also become `user_metadata`, as GoTrue does).
/// Metadata over `domain::metadata::MAX_METADATA_BYTES` is refused (every way of signing up comes here).
pub async fn create(tx: &Transaction<'_>, new: NewUser<'_>) -> AuthResult<User> {
    let id = new.id.unwrap_or_else(Uuid::new_v4);
    within_limit(Field::App, new.app_metadata.clone())?;
    let meta = match within_limit(Field::User, new.user_metadata.clone())? {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    match new.email {
        Some(email) => insert_email_user(tx, id, email, &new, meta).await?,
        None => {
            tx.execute(
                "insert into auth.users (instance_id, id, aud, role, raw_app_meta_data, raw_user_meta_data, \
                 created_at, updated_at, is_anonymous, confirmation_token, recovery_token, email_change_token_new, \
                 email_change) values ($1, $2, $3, $4, $5, $6, now(), now(), $7, '', '', '', '')",
                &[&INSTANCE_ID, &id, &new.aud, &new.role, &new.app_metadata, &Value::Object(meta), &new.is_anonymous],
            )
            .await?;
        }
    }
    by_id(tx, id).await?.ok_or_else(|| AuthError::internal("the inserted user cannot be read back"))
}

/// The e-mail identity's data: sub, email, verified flags, then the metadata's keys.
fn identity_data(id: Uuid, email: &str, confirmed: bool, meta: &Map<String, Value>) -> Map<String, Value> {
    let mut identity = Map::new();
    identity.insert("sub".into(), json!(id.to_string()));
    identity.insert("email".into(), json!(email));
    identity.insert("email_verified".into(), json!(confirmed));
    identity.insert("phone_verified".into(), json!(false));
    for (k, v) in meta {
        identity.entry(k.clone()).or_insert_with(|| v.clone());
    }
    identity
}

/// An e-mail user and its identity.
async fn insert_email_user(
    tx: &Transaction<'_>,
    id: Uuid,
    email: &str,
    new: &NewUser<'_>,
    mut meta: Map<String, Value>,
) -> AuthResult<()> {
    let identity = identity_data(id, email, new.confirmed, &meta);
    if new.identity_in_metadata {
        meta = identity.clone();
    }
    tx.execute(
        "insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, \
         raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous, confirmation_token, \
         recovery_token, email_change_token_new, email_change) \
         values ($1, $2, $3, $4, $5, $6, case when $7 then now() end, $8, $9, now(), now(), $10, '', '', '', '')",
        &[
            &INSTANCE_ID,
            &id,
            &new.aud,
            &new.role,
            &email,
            &new.password_hash,
            &new.confirmed,
            &new.app_metadata,
            &Value::Object(meta),
            &new.is_anonymous,
        ],
    )
    .await?;
    tx.execute(
        "insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, \
         updated_at) values ($1, $2, $3, 'email', now(), now(), now())",
        &[&id.to_string(), &id, &Value::Object(identity)],
    )
    .await?;
    Ok(())
}
