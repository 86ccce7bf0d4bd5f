//! `GET /user` and `PUT /user`: the signed-in user; updates of metadata (`data`, shallow merge, `null` deletes,
//! capped in size),
//! password (strength, not the same, other sessions ended) and e-mail (confirmed by mail before it changes).

use crate::auth::domain::email::Email;
use crate::auth::domain::metadata;
use crate::auth::domain::password::check_strength;
use crate::auth::domain::redirect::choose_redirect;
use crate::auth::error::{AuthError, AuthResult, ErrorCode};
use crate::auth::mail::MailKind;
use crate::auth::otp::{check_frequency, send_token, Outbox, TokenMail};
use crate::auth::request::{json_body, ClientIp, RedirectTo};
use crate::auth::session::{require_signed_in, SignedIn};
use crate::auth::store::users::{self, TokenKind};
use crate::auth::store::{account, begin, sessions};
use crate::auth::Auth;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use deadpool_postgres::Transaction;
use serde::Deserialize;
use serde_json::Value;

pub async fn get(State(state): State<Auth>, headers: HeaderMap) -> AuthResult<Json<Value>> {
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let caller = require_signed_in(&state, &tx, &headers).await?;
    tx.commit().await?;
    Ok(Json(caller.user.to_json()))
}

#[derive(Debug, Default, Deserialize)]
struct UpdateBody {
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    password: Option<String>,
    #[serde(default, deserialize_with = "crate::auth::request::object_or_null")]
    data: Option<Value>,
    #[serde(default, deserialize_with = "crate::auth::request::object_or_null")]
    app_metadata: Option<Value>,
    #[serde(default)]
    phone: Option<String>,
    #[serde(default)]
    nonce: Option<String>,
}

pub async fn put(
    State(state): State<Auth>,
    ip: ClientIp,
    headers: HeaderMap,
    to: RedirectTo,
    body: Bytes,
) -> AuthResult<Json<Value>> {
    let cfg = &state.config;
    state.admit("otp", &ip.key(), cfg.rate_otp).await?;
    let body: UpdateBody = json_body(&body)?;
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let mut outbox = Outbox::default();
    let caller = require_signed_in(&state, &tx, &headers).await?;
    let user = &caller.user;
    if body.app_metadata.is_some() {
        return Err(AuthError::app_metadata_needs_admin());
    }
    if body.phone.as_deref().is_some_and(|p| !p.is_empty()) {
        return Err(ErrorCode::PhoneProviderDisabled.into());
    }
    if let Some(Value::Object(data)) = &body.data {
        let merged = metadata::merged(metadata::Field::User, &user.user_metadata, data)?;
        account::set_user_metadata(&tx, user.id, &merged).await?;
    }
    if let Some(password) = body.password.as_deref().filter(|p| !p.is_empty()) {
        change_password(&state, &tx, &caller, password, body.nonce.as_deref()).await?;
    }
    if let Some(raw) = body.email.as_deref().filter(|e| !e.is_empty()) {
        let redirect = choose_redirect(to.get(), &cfg.site_url, &cfg.uri_allow_list);
        change_email(&state, &tx, &mut outbox, user, raw, &redirect).await?;
    }
    let updated = users::by_id(&tx, user.id).await?.unwrap_or(caller.user);
    tx.commit().await?;
    drop(client); // back to the pool before the mail server is contacted
    outbox.deliver(&state).await?;
    Ok(Json(updated.to_json()))
}

/// A new password: strong enough, not the old one, reauthenticated when required; every other session ends.
async fn change_password(
    state: &Auth,
    tx: &Transaction<'_>,
    caller: &SignedIn,
    password: &str,
    nonce: Option<&str>,
) -> AuthResult<()> {
    let (cfg, user) = (&state.config, &caller.user);
    check_strength(password, cfg.password_min_length, &cfg.password_required_characters)?;
    if state.hasher.verify(password, user.encrypted_password.as_deref()).await? {
        return Err(ErrorCode::SamePassword.into());
    }
    if cfg.require_reauthentication {
        check_nonce(state, tx, user, nonce).await?;
    }
    let hash = state.hasher.hash(password).await?;
    account::set_password(tx, user.id, &hash).await?;
    // A new password ends every other session of the user.
    sessions::logout(tx, user.id, caller.session_id, sessions::Scope::Others).await?;
    Ok(())
}

/// A new address, pending until confirmed: a link to it, and with secure e-mail change one to the current address.
async fn change_email(
    state: &Auth,
    tx: &Transaction<'_>,
    outbox: &mut Outbox,
    user: &users::User,
    raw: &str,
    redirect: &str,
) -> AuthResult<()> {
    let email = Email::parse(raw)?;
    if email.as_str() == user.email {
        return Ok(());
    }
    if users::by_email(tx, email.as_str()).await?.is_some() {
        return Err(AuthError::email_exists());
    }
    check_frequency(state, &user.id.to_string()).await?;
    account::stage_email_change(tx, user.id, email.as_str(), false).await?;
    let mail = |token, to| TokenMail {
        user_id: user.id,
        kind: MailKind::EmailChange,
        token,
        to,
        email: &user.email,
        new_email: email.as_str(),
        redirect_to: redirect,
        pkce: false,
    };
    outbox.push(send_token(state, tx, mail(TokenKind::EmailChangeNew, email.as_str())).await?);
    if state.config.secure_email_change && !user.email.is_empty() {
        outbox.push(send_token(state, tx, mail(TokenKind::EmailChangeCurrent, &user.email)).await?);
    }
    Ok(())
}

/// `GET /reauthenticate`: mails a code that a later password change presents as `nonce`.
pub async fn reauthenticate(State(state): State<Auth>, headers: HeaderMap) -> AuthResult<Json<Value>> {
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let mut outbox = Outbox::default();
    let user = require_signed_in(&state, &tx, &headers).await?.user;
    if user.email.is_empty() && user.phone.is_empty() {
        let message = "Reauthentication requires the user to have an email or a phone number";
        return Err(AuthError::validation(message).at(StatusCode::UNPROCESSABLE_ENTITY));
    }
    check_frequency(&state, &format!("reauth:{}", user.id)).await?;
    let site_url = &state.config.site_url;
    let mail = TokenMail::to_account(&user, MailKind::Reauthentication, TokenKind::Reauthentication, site_url, false);
    outbox.push(send_token(&state, &tx, mail).await?);
    tx.commit().await?;
    drop(client); // back to the pool before the mail server is contacted
    outbox.deliver(&state).await?;
    Ok(Json(serde_json::json!({})))
}

/// The reauthentication code sent to the user's address, within its lifetime.
async fn check_nonce(state: &Auth, tx: &Transaction<'_>, user: &users::User, nonce: Option<&str>) -> AuthResult<()> {
    let Some(nonce) = nonce.filter(|n| !n.is_empty()) else {
        return Err(ErrorCode::ReauthenticationNeeded.into());
    };
    let hash = crate::auth::domain::tokens::token_hash(&user.email, nonce.trim());
    let lifetime = state.config.otp_exp.as_secs_f64();
    if account::reauthentication_valid(tx, user.id, &hash, lifetime).await? {
        Ok(())
    } else {
        Err(ErrorCode::ReauthenticationNotValid.into())
    }
}
