//! `auth.users` and `auth.identities`: reading a user, creating one, and rendering it as GoTrue's User JSON.

use crate::auth::error::AuthResult;
use chrono::{DateTime, SecondsFormat, Utc};
use deadpool_postgres::Transaction;
use serde_json::{json, Map, Value};
use tokio_postgres::Row;
use uuid::Uuid;

pub const INSTANCE_ID: Uuid = Uuid::nil();

const COLUMNS: &str = "id, aud, role, email, encrypted_password, email_confirmed_at, invited_at, phone, \
    phone_confirmed_at, confirmation_sent_at, confirmed_at, recovery_sent_at, email_change, email_change_sent_at, \
    last_sign_in_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at, banned_until, deleted_at, \
    is_anonymous, coalesce(email_change_confirm_status, 0)::int2, coalesce(email_change_token_new, ''), \
    coalesce(email_change_token_current, '')";

/// A user row (never serialised as is: see [`User::to_json`]).
#[derive(Debug, Clone)]
pub struct User {
    pub id: Uuid,
    pub aud: String,
    pub role: String,
    pub email: String,
    pub encrypted_password: Option<String>,
    pub email_confirmed_at: Option<DateTime<Utc>>,
    pub invited_at: Option<DateTime<Utc>>,
    pub phone: String,
    pub phone_confirmed_at: Option<DateTime<Utc>>,
    pub confirmation_sent_at: Option<DateTime<Utc>>,
    pub confirmed_at: Option<DateTime<Utc>>,
    pub recovery_sent_at: Option<DateTime<Utc>>,
    pub new_email: Option<String>,
    pub email_change_sent_at: Option<DateTime<Utc>>,
    pub last_sign_in_at: Option<DateTime<Utc>>,
    pub app_metadata: Value,
    pub user_metadata: Value,
    pub created_at: Option<DateTime<Utc>>,
    pub updated_at: Option<DateTime<Utc>>,
    pub banned_until: Option<DateTime<Utc>>,
    pub deleted_at: Option<DateTime<Utc>>,
    pub is_anonymous: bool,
    pub email_change_confirm_status: i16,
    pub email_change_token_new: String,
    pub email_change_token_current: String,
    pub identities: Vec<Value>,
}

pub fn ts(t: &DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Micros, true)
}

fn obj(v: Option<Value>) -> Value {
    match v {
        Some(Value::Object(m)) => Value::Object(m),
        _ => Value::Object(Map::new()),
    }
}

impl User {
    fn from_row(r: &Row) -> Self {
        User {
            id: r.get(0),
            aud: r.get::<_, Option<String>>(1).unwrap_or_default(),
            role: r.get::<_, Option<String>>(2).unwrap_or_default(),
            email: r.get::<_, Option<String>>(3).unwrap_or_default(),
            encrypted_password: r.get(4),
            email_confirmed_at: r.get(5),
            invited_at: r.get(6),
            phone: r.get::<_, Option<String>>(7).unwrap_or_default(),
            phone_confirmed_at: r.get(8),
            confirmation_sent_at: r.get(9),
            confirmed_at: r.get(10),
            recovery_sent_at: r.get(11),
            new_email: r.get::<_, Option<String>>(12).filter(|s| !s.is_empty()),
            email_change_sent_at: r.get(13),
            last_sign_in_at: r.get(14),
            app_metadata: obj(r.get(15)),
            user_metadata: obj(r.get(16)),
            created_at: r.get(17),
            updated_at: r.get(18),
            banned_until: r.get(19),
            deleted_at: r.get(20),
            is_anonymous: r.get(21),
            email_change_confirm_status: r.get(22),
            email_change_token_new: r.get(23),
            email_change_token_current: r.get(24),
            identities: vec![],
        }
    }

    pub fn is_banned(&self) -> bool {
        self.banned_until.is_some_and(|t| t > Utc::now())
    }

    /// GoTrue's User JSON (omitempty fields left out when null; `email`/`phone` as `""`).
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("id".into(), json!(self.id));
        m.insert("aud".into(), json!(self.aud));
        m.insert("role".into(), json!(self.role));
        m.insert("email".into(), json!(self.email));
        put_ts(&mut m, "email_confirmed_at", &self.email_confirmed_at);
        put_ts(&mut m, "invited_at", &self.invited_at);
        m.insert("phone".into(), json!(self.phone));
        put_ts(&mut m, "phone_confirmed_at", &self.phone_confirmed_at);
        put_ts(&mut m, "confirmation_sent_at", &self.confirmation_sent_at);
        put_ts(&mut m, "confirmed_at", &self.confirmed_at);
        put_ts(&mut m, "recovery_sent_at", &self.recovery_sent_at);
        if let Some(e) = &self.new_email {
            m.insert("new_email".into(), json!(e));
        }
        put_ts(&mut m, "email_change_sent_at", &self.email_change_sent_at);
        put_ts(&mut m, "last_sign_in_at", &self.last_sign_in_at);
        m.insert("app_metadata".into(), self.app_metadata.clone());
        m.insert("user_metadata".into(), self.user_metadata.clone());
        m.insert("identities".into(), Value::Array(self.identities.clone()));
        put_ts(&mut m, "created_at", &self.created_at);
        put_ts(&mut m, "updated_at", &self.updated_at);
        put_ts(&mut m, "banned_until", &self.banned_until);
        put_ts(&mut m, "deleted_at", &self.deleted_at);
        m.insert("is_anonymous".into(), json!(self.is_anonymous));
        Value::Object(m)
    }
}

/// Adds a timestamp member when it is set (Go's `omitempty`).
fn put_ts(m: &mut Map<String, Value>, key: &str, value: &Option<DateTime<Utc>>) {
    if let Some(t) = value {
        m.insert(key.into(), json!(ts(t)));
    }
}

async fn load_identities(tx: &Transaction<'_>, user: &mut User) -> AuthResult<()> {
    let rows = tx
        .query(
            "select id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at, email \
             from auth.identities where user_id = $1 order by created_at",
            &[&user.id],
        )
        .await?;
    user.identities = rows
        .iter()
        .map(|r| {
            let mut m = Map::new();
            m.insert("identity_id".into(), json!(r.get::<_, Uuid>(0)));
            m.insert("id".into(), json!(r.get::<_, String>(1)));
            m.insert("user_id".into(), json!(r.get::<_, Uuid>(2)));
            m.insert("identity_data".into(), r.get::<_, Value>(3));
            m.insert("provider".into(), json!(r.get::<_, String>(4)));
            for (i, k) in [(5, "last_sign_in_at"), (6, "created_at"), (7, "updated_at")] {
                put_ts(&mut m, k, &r.get(i));
            }
            if let Some(e) = r.get::<_, Option<String>>(8) {
                m.insert("email".into(), json!(e));
            }
            Value::Object(m)
        })
        .collect();
    Ok(())
}

async fn one(
    tx: &Transaction<'_>,
    filter: &str,
    param: &(dyn tokio_postgres::types::ToSql + Sync),
    with_identities: bool,
) -> AuthResult<Option<User>> {
    let sql = format!("select {COLUMNS} from auth.users where {filter} and instance_id = $2 limit 1");
    let Some(row) = tx.query_opt(&sql, &[param, &INSTANCE_ID]).await? else { return Ok(None) };
    let mut user = User::from_row(&row);
    if with_identities {
        load_identities(tx, &mut user).await?;
    }
    Ok(Some(user))
}

pub async fn by_id(tx: &Transaction<'_>, id: Uuid) -> AuthResult<Option<User>> {
    one(tx, "id = $1", &id, true).await
}

/// A non-SSO user by (already lower-cased) e-mail: addresses are stored lower-cased, so the unique index serves it.
pub async fn by_email(tx: &Transaction<'_>, email: &str) -> AuthResult<Option<User>> {
    one(tx, "email = $1 and is_sso_user = false", &email, true).await
}

/// The same lookup without the identities: the password grant does exactly one query whether or not the address
/// has an account, so known and unknown addresses cost the same before the (decoy-backed) password check.
pub async fn by_email_for_sign_in(tx: &Transaction<'_>, email: &str) -> AuthResult<Option<User>> {
    one(tx, "email = $1 and is_sso_user = false", &email, false).await
}

/// The user holding `hash` in one of `columns` (`confirmation_token`, `recovery_token`, …).
pub async fn by_token(tx: &Transaction<'_>, columns: &[&str], hash: &str) -> AuthResult<Option<User>> {
    let filter = columns.iter().map(|c| format!("{c} = $1")).collect::<Vec<_>>().join(" or ");
    one(tx, &format!("({filter})"), &hash, true).await
}

/// Confirms the e-mail: `email_confirmed_at`, `email_verified` in metadata and identity, clears the token.
pub async fn confirm_email(tx: &Transaction<'_>, id: Uuid) -> AuthResult<()> {
    tx.execute(
        "update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = '', \
         raw_user_meta_data = coalesce(raw_user_meta_data, '{}') || '{\"email_verified\": true}', updated_at = now() \
         where id = $1",
        &[&id],
    )
    .await?;
    tx.execute(
        "update auth.identities set identity_data = identity_data || '{\"email_verified\": true}', updated_at = now() \
         where user_id = $1 and provider = 'email'",
        &[&id],
    )
    .await?;
    tx.execute("delete from auth.one_time_tokens where user_id = $1 and token_type = 'confirmation_token'", &[&id])
        .await?;
    Ok(())
}

/// Records a one-time token in the user's column and in `auth.one_time_tokens`.
pub async fn set_token(
    tx: &Transaction<'_>,
    id: Uuid,
    kind: TokenKind,
    hash: &str,
    relates_to: &str,
) -> AuthResult<()> {
    let (column, sent_at, token_type) = kind.columns();
    let sql = format!("update auth.users set {column} = $2, {sent_at} = now(), updated_at = now() where id = $1");
    tx.execute(&sql, &[&id, &hash]).await?;
    tx.execute(
        "insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to) \
         values ($1, $2, $3::text::auth.one_time_token_type, $4, $5) \
         on conflict (user_id, token_type) do update set token_hash = excluded.token_hash, \
         relates_to = excluded.relates_to, updated_at = now()",
        &[&Uuid::new_v4(), &id, &token_type, &hash, &relates_to],
    )
    .await?;
    Ok(())
}

/// The token columns of `auth.users`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    Confirmation,
    Recovery,
    EmailChangeNew,
    EmailChangeCurrent,
    Reauthentication,
}

impl TokenKind {
    /// (token column, sent-at column, `one_time_token_type`).
    pub fn columns(self) -> (&'static str, &'static str, &'static str) {
        match self {
            TokenKind::Confirmation => ("confirmation_token", "confirmation_sent_at", "confirmation_token"),
            TokenKind::Recovery => ("recovery_token", "recovery_sent_at", "recovery_token"),
            TokenKind::EmailChangeNew => ("email_change_token_new", "email_change_sent_at", "email_change_token_new"),
            TokenKind::EmailChangeCurrent => {
                ("email_change_token_current", "email_change_sent_at", "email_change_token_current")
            }
            TokenKind::Reauthentication => {
                ("reauthentication_token", "reauthentication_sent_at", "reauthentication_token")
            }
        }
    }
}
