//! `POST /otp` (and the older `POST /magiclink`) for e-mail: mails a sign-in link and code; creates the user first
//! unless `create_user` is false. As GoTrue: an address with no confirmed account is signed up first — with
//! `GOTRUE_MAILER_AUTOCONFIRM` the account is confirmed at once and gets a magic link (`type=magiclink`), without it
//! the sign-up confirmation (`type=signup`, which also signs in). Answers `{}`.

use crate::auth::domain::email::Email;
use crate::auth::domain::pkce;
use crate::auth::error::{AuthError, AuthResult, ErrorCode};
use crate::auth::mail::MailKind;
use crate::auth::otp::{admit_address, send_token, Outbox, TokenMail};
use crate::auth::request::{json_body, ClientIp, RedirectTo};
use crate::auth::store::new_user::{self, NewUser};
use crate::auth::store::users::{self, TokenKind, User};
use crate::auth::store::{begin, flow_state};
use crate::auth::Auth;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use deadpool_postgres::Transaction;
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Debug, Default, Deserialize)]
struct OtpBody {
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    phone: Option<String>,
    #[serde(default, deserialize_with = "crate::auth::request::object_or_null")]
    data: Option<Value>,
    #[serde(default)]
    create_user: Option<bool>,
    #[serde(default)]
    channel: Option<String>,
    #[serde(default)]
    code_challenge: Option<String>,
    #[serde(default)]
    code_challenge_method: Option<String>,
}

/// GoTrue's `OtpParams.Validate`: an e-mail or a phone (not both), a channel only for phones, and PKCE parameters
/// both present or both absent.
fn check_params(body: &OtpBody) -> AuthResult<Option<pkce::Challenge>> {
    let present = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.is_empty());
    if present(&body.email) && present(&body.phone) {
        return Err(AuthError::validation("Only an email address or phone number should be provided"));
    }
    if present(&body.email) && present(&body.channel) {
        return Err(AuthError::validation("Channel should only be specified with Phone OTP"));
    }
    pkce::parse(body.code_challenge.as_deref(), body.code_challenge_method.as_deref())
}

/// `POST /otp`.
pub async fn handler(State(state): State<Auth>, ip: ClientIp, to: RedirectTo, body: Bytes) -> AuthResult<Json<Value>> {
    state.admit("otp", &ip.key(), state.config.rate_otp).await?;
    crate::auth::otp::admit_mail_client(&state, &ip).await?;
    let body: OtpBody = json_body(&body)?;
    let challenge = check_params(&body)?;
    let email = email_of(&state, &body)?;
    send_link(state, to, email, challenge, body).await
}

/// `POST /magiclink`, GoTrue's older endpoint: an e-mail only (422 without one, as GoTrue's `MagicLinkParams`), and
/// the account is always created (it has no `create_user`).
pub async fn legacy(State(state): State<Auth>, ip: ClientIp, to: RedirectTo, body: Bytes) -> AuthResult<Json<Value>> {
    state.admit("otp", &ip.key(), state.config.rate_otp).await?;
    crate::auth::otp::admit_mail_client(&state, &ip).await?;
    let body: OtpBody = json_body(&body)?;
    if body.email.as_deref().unwrap_or_default().is_empty() {
        let message = "Password recovery requires an email";
        return Err(AuthError::validation(message).at(StatusCode::UNPROCESSABLE_ENTITY));
    }
    let body = OtpBody { phone: None, channel: None, create_user: None, ..body };
    let challenge = check_params(&body)?;
    let email = email_of(&state, &body)?;
    send_link(state, to, email, challenge, body).await
}

/// Mails the link: the sign-up confirmation to an unconfirmed account, a magic link to a confirmed one.
async fn send_link(
    state: Auth,
    to: RedirectTo,
    email: Email,
    challenge: Option<pkce::Challenge>,
    body: OtpBody,
) -> AuthResult<Json<Value>> {
    let redirect = admit_address(&state, &email, to.get()).await?;
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let mut outbox = Outbox::default();
    let user = account(&state, &tx, &email, body).await?;
    let (kind, token, method) = if user.email_confirmed_at.is_none() {
        (MailKind::Confirmation, TokenKind::Confirmation, "email/signup")
    } else {
        (MailKind::MagicLink, TokenKind::Recovery, "magiclink")
    };
    if let Some(c) = &challenge {
        flow_state::create(&tx, user.id, c, method).await?;
    }
    let mail = TokenMail::to_account(&user, kind, token, &redirect, challenge.is_some());
    outbox.push(send_token(&state, &tx, mail).await?);
    tx.commit().await?;
    drop(client); // back to the pool before the mail server is contacted
    outbox.deliver(&state).await?;
    Ok(Json(json!({})))
}

/// The address the link goes to: an e-mail is required (no SMS provider) and e-mail logins must be on.
fn email_of(state: &Auth, body: &OtpBody) -> AuthResult<Email> {
    let present = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.is_empty());
    if !present(&body.email) {
        if present(&body.phone) {
            return Err(ErrorCode::PhoneProviderDisabled.into());
        }
        return Err(AuthError::validation("One of email or phone must be set"));
    }
    if !state.config.email_enabled {
        return Err(AuthError::from(ErrorCode::EmailProviderDisabled).at(StatusCode::UNPROCESSABLE_ENTITY));
    }
    Email::parse(body.email.as_deref().unwrap_or_default())
}

/// The account of the address, created (with the body's `data`) unless `create_user` is false or sign-ups are off.
/// With autoconfirm a new or still unconfirmed account is confirmed now, as GoTrue's sign-up step confirms it.
async fn account(state: &Auth, tx: &Transaction<'_>, email: &Email, body: OtpBody) -> AuthResult<User> {
    let autoconfirm = state.config.autoconfirm;
    if let Some(user) = users::by_email(tx, email.as_str()).await? {
        if user.email_confirmed_at.is_some() || !autoconfirm {
            return Ok(user);
        }
        users::confirm_email(tx, user.id).await?;
        return users::by_id(tx, user.id).await?.ok_or_else(|| AuthError::internal("the confirmed user is gone"));
    }
    if body.create_user == Some(false) || state.config.disable_signup {
        return Err(ErrorCode::OtpDisabled.into());
    }
    let data = match body.data {
        Some(Value::Object(m)) => Value::Object(m),
        _ => json!({}),
    };
    let new = NewUser { confirmed: autoconfirm, ..NewUser::email_account(&state.config, email.as_str(), data) };
    new_user::create(tx, new).await
}
