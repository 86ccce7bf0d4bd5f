//! Admin invitations and links: `POST /invite` (creates the user and mails an invitation) and
//! `POST /admin/generate_link` (creates the token and returns the link instead of mailing it).

use crate::auth::domain::email::Email;
use crate::auth::domain::password::check_strength;
use crate::auth::domain::redirect::choose_redirect;
use crate::auth::error::{AuthError, AuthResult};
use crate::auth::mail::{verify_link, MailKind};
use crate::auth::otp::{issue, send_token, Outbox, TokenMail};
use crate::auth::request::{json_body, RedirectTo};
use crate::auth::store::new_user::{self, NewUser};
use crate::auth::store::users::{self, TokenKind, User};
use crate::auth::store::{account, begin};
use crate::auth::Auth;
use axum::body::Bytes;
use axum::extract::State;
use axum::Json;
use deadpool_postgres::Transaction;
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Debug, Default, Deserialize)]
struct LinkBody {
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    new_email: Option<String>,
    #[serde(default)]
    password: Option<String>,
    #[serde(default, deserialize_with = "crate::auth::request::object_or_null")]
    data: Option<Value>,
    #[serde(default)]
    redirect_to: Option<String>,
    /// Set when the gateway made the password up (a magic link for an unknown address): no strength rules apply.
    #[serde(skip)]
    generated_password: bool,
}

fn metadata(data: Option<Value>) -> Value {
    match data {
        Some(Value::Object(m)) => Value::Object(m),
        _ => json!({}),
    }
}

/// Creates an unconfirmed e-mail user whose metadata is exactly `data` (the admin API keeps it as given).
async fn create_user(
    state: &Auth,
    tx: &Transaction<'_>,
    email: &str,
    hash: Option<&str>,
    data: Value,
) -> AuthResult<User> {
    let new = NewUser {
        password_hash: hash,
        identity_in_metadata: false,
        ..NewUser::email_account(&state.config, email, data)
    };
    new_user::create(tx, new).await
}

pub async fn invite(State(state): State<Auth>, to: RedirectTo, body: Bytes) -> AuthResult<Json<Value>> {
    let cfg = &state.config;
    let body: LinkBody = json_body(&body)?;
    let email = Email::parse(body.email.as_deref().unwrap_or_default())?;
    let requested = to.get().or(body.redirect_to.as_deref());
    let redirect = choose_redirect(requested, &cfg.site_url, &cfg.uri_allow_list);
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let mut outbox = Outbox::default();
    let user = match users::by_email(&tx, email.as_str()).await? {
        Some(u) if u.email_confirmed_at.is_some() => return Err(AuthError::email_exists()),
        Some(u) => u,
        None => create_user(&state, &tx, email.as_str(), None, metadata(body.data)).await?,
    };
    account::mark_invited(&tx, user.id, true).await?;
    let mail = TokenMail::to_account(&user, MailKind::Invite, TokenKind::Confirmation, &redirect, false);
    outbox.push(send_token(&state, &tx, mail).await?);
    let user = users::by_id(&tx, user.id).await?.unwrap_or(user);
    tx.commit().await?;
    drop(client); // back to the pool before the mail server is contacted
    outbox.deliver(&state).await?;
    Ok(Json(user.to_json()))
}

/// What a generated link is for: the user, the token column, the mail kind (which sets the link's `type`) and the
/// address the token is bound to.
struct Link {
    user: User,
    token: TokenKind,
    mail: MailKind,
    to: String,
}

pub async fn generate_link(State(state): State<Auth>, to: RedirectTo, body: Bytes) -> AuthResult<Json<Value>> {
    let cfg = &state.config;
    let mut body: LinkBody = json_body(&body)?;
    let email = Email::parse(body.email.as_deref().unwrap_or_default())?;
    let requested = to.get().or(body.redirect_to.as_deref());
    let redirect = choose_redirect(requested, &cfg.site_url, &cfg.uri_allow_list);
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let existing = users::by_email(&tx, email.as_str()).await?;
    let mut kind = body.kind.clone().unwrap_or_default();
    if existing.is_none() && kind == "magiclink" {
        // GoTrue signs an unknown address up instead (with a random password) and says so in `verification_type`.
        kind = "signup".into();
        body.password = Some(crate::auth::domain::tokens::new_random_password());
        body.generated_password = true;
    }
    let link = link_for(&state, &tx, &kind, &email, existing, &body).await?;
    let (otp, hash) = issue(&state, &tx, link.user.id, link.token, &link.to, false).await?;
    let user = users::by_id(&tx, link.user.id).await?.unwrap_or(link.user);
    tx.commit().await?;
    let mut response = user.to_json();
    if let Some(obj) = response.as_object_mut() {
        obj.insert("action_link".into(), json!(verify_link(cfg, link.mail, &hash, &redirect)));
        obj.insert("email_otp".into(), json!(otp));
        obj.insert("hashed_token".into(), json!(hash));
        // GoTrue echoes the requested type (`email_change_current`, …), not the link's `type`.
        obj.insert("verification_type".into(), json!(kind));
        obj.insert("redirect_to".into(), json!(redirect));
    }
    Ok(Json(response))
}

/// Prepares the user a link of type `kind` is for, as GoTrue's `adminGenerateLink` does per type.
async fn link_for(
    state: &Auth,
    tx: &Transaction<'_>,
    kind: &str,
    email: &Email,
    existing: Option<User>,
    body: &LinkBody,
) -> AuthResult<Link> {
    let not_found = AuthError::no_user_with_email;
    let to = email.as_str().to_string();
    match kind {
        "signup" => {
            let user = signup_user(state, tx, email, existing, body).await?;
            Ok(Link { user, token: TokenKind::Confirmation, mail: MailKind::Confirmation, to })
        }
        "invite" => {
            let user = match existing {
                Some(u) if u.email_confirmed_at.is_some() => return Err(AuthError::email_exists()),
                Some(u) => u,
                None => create_user(state, tx, email.as_str(), None, metadata(body.data.clone())).await?,
            };
            account::mark_invited(tx, user.id, false).await?;
            Ok(Link { user, token: TokenKind::Confirmation, mail: MailKind::Invite, to })
        }
        "magiclink" | "recovery" => {
            let mail = if kind == "magiclink" { MailKind::MagicLink } else { MailKind::Recovery };
            Ok(Link { user: existing.ok_or_else(not_found)?, token: TokenKind::Recovery, mail, to })
        }
        "email_change_current" | "email_change_new" => {
            let user = existing.ok_or_else(not_found)?;
            email_change_link(state, tx, kind, user, body).await
        }
        other => Err(AuthError::validation(format!("Invalid email action link type requested: {other}"))),
    }
}

/// `signup`: a confirmed address is taken; an unconfirmed one gets `data` merged into its metadata; a new one needs
/// a password that passes the strength rules, as a sign-up does.
async fn signup_user(
    state: &Auth,
    tx: &Transaction<'_>,
    email: &Email,
    existing: Option<User>,
    body: &LinkBody,
) -> AuthResult<User> {
    let cfg = &state.config;
    match existing {
        Some(u) if u.email_confirmed_at.is_some() => Err(AuthError::email_exists()),
        Some(u) => {
            if let Some(Value::Object(data)) = &body.data {
                let field = crate::auth::domain::metadata::Field::User;
                let merged = crate::auth::domain::metadata::merged(field, &u.user_metadata, data)?;
                account::set_user_metadata(tx, u.id, &merged).await?;
            }
            Ok(u)
        }
        None => {
            let password = body.password.as_deref().unwrap_or_default();
            if password.is_empty() {
                return Err(AuthError::validation("Signup requires a valid password"));
            }
            if !body.generated_password {
                check_strength(password, cfg.password_min_length, &cfg.password_required_characters)?;
            }
            let hash = state.hasher.hash(password).await?;
            create_user(state, tx, email.as_str(), Some(&hash), metadata(body.data.clone())).await
        }
    }
}

/// `email_change_current` / `email_change_new`: records `new_email` as the pending address; the token is bound to
/// the current or the new address.
async fn email_change_link(
    state: &Auth,
    tx: &Transaction<'_>,
    kind: &str,
    user: User,
    body: &LinkBody,
) -> AuthResult<Link> {
    if kind == "email_change_current" && !state.config.secure_email_change {
        return Err(AuthError::validation("Enable secure email change to generate link for current email"));
    }
    let new_email = Email::parse(body.new_email.as_deref().unwrap_or_default())?;
    if users::by_email(tx, new_email.as_str()).await?.is_some_and(|other| other.id != user.id) {
        return Err(AuthError::email_exists());
    }
    account::stage_email_change(tx, user.id, new_email.as_str(), true).await?;
    let (token, to) = if kind == "email_change_new" {
        (TokenKind::EmailChangeNew, new_email.as_str().to_string())
    } else {
        (TokenKind::EmailChangeCurrent, user.email.clone())
    };
    Ok(Link { user, token, mail: MailKind::EmailChange, to })
}
