//! `POST /resend`: sends the sign-up confirmation or the e-mail-change message again; `{}` for unknown addresses.

use crate::auth::domain::email::Email;
use crate::auth::error::{AuthError, AuthResult, ErrorCode};
use crate::auth::mail::MailKind;
use crate::auth::otp::{admit_address, send_token, Outbox, TokenMail};
use crate::auth::request::{json_body, ClientIp, RedirectTo};
use crate::auth::store::begin;
use crate::auth::store::users::{self, TokenKind};
use crate::auth::Auth;
use crate::core::mail::OutgoingMail;
use axum::body::Bytes;
use axum::extract::State;
use axum::Json;
use deadpool_postgres::Transaction;
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Debug, Default, Deserialize)]
struct ResendBody {
    #[serde(default)]
    email: Option<String>,
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    phone: Option<String>,
    #[serde(default)]
    code_challenge: Option<String>,
    #[serde(default)]
    code_challenge_method: Option<String>,
}

/// GoTrue's `ResendConfirmationParams.Validate`, in its order; returns the address for the e-mail types.
fn check_params(body: &ResendBody, email_enabled: bool) -> AuthResult<Email> {
    let present = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.is_empty());
    let kind = body.kind.as_deref().unwrap_or_default();
    match kind {
        "signup" | "email_change" => {
            crate::auth::domain::pkce::parse(body.code_challenge.as_deref(), body.code_challenge_method.as_deref())?;
        }
        "sms" | "phone_change" => {}
        _ => return Err(AuthError::validation("Missing one of these types: signup, email_change, sms, phone_change")),
    }
    if !present(&body.email) && kind == "signup" {
        return Err(AuthError::validation("Type provided requires an email address"));
    }
    if !present(&body.phone) && kind == "sms" {
        return Err(AuthError::validation("Type provided requires a phone number"));
    }
    match (present(&body.email), present(&body.phone)) {
        (true, true) => Err(AuthError::validation("Only an email address or phone number should be provided.")),
        (true, false) if !email_enabled => Err(ErrorCode::EmailProviderDisabled.into()),
        (true, false) => Email::parse(body.email.as_deref().unwrap_or_default()),
        // No SMS provider: phone types are refused as GoTrue refuses them with phone logins off.
        (false, true) => Err(ErrorCode::PhoneProviderDisabled.into()),
        (false, false) => Err(AuthError::validation("Missing email address or phone number")),
    }
}

pub async fn handler(State(state): State<Auth>, ip: ClientIp, to: RedirectTo, body: Bytes) -> AuthResult<Json<Value>> {
    let cfg = &state.config;
    state.admit("otp", &ip.key(), cfg.rate_otp).await?;
    crate::auth::otp::admit_mail_client(&state, &ip).await?;
    let body: ResendBody = json_body(&body)?;
    let email = check_params(&body, cfg.email_enabled)?;
    let kind = body.kind.unwrap_or_default();
    let redirect = admit_address(&state, &email, to.get()).await?;
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let mut outbox = Outbox::default();
    if let Some(mail) = resent(&state, &tx, &kind, &email, &redirect).await? {
        outbox.push(mail);
    }
    tx.commit().await?;
    drop(client); // back to the pool before the mail server is contacted
    outbox.deliver(&state).await?;
    Ok(Json(json!({})))
}

/// The mail to send again: a sign-up confirmation to an unconfirmed address, or the link to a pending new address;
/// nothing otherwise (the answer is the same either way).
async fn resent(
    state: &Auth,
    tx: &Transaction<'_>,
    kind: &str,
    email: &Email,
    redirect: &str,
) -> AuthResult<Option<(MailKind, OutgoingMail)>> {
    let Some(user) = users::by_email(tx, email.as_str()).await? else { return Ok(None) };
    if kind == "signup" {
        if user.email_confirmed_at.is_some() {
            return Ok(None);
        }
        let mail = TokenMail::to_account(&user, MailKind::Confirmation, TokenKind::Confirmation, redirect, false);
        return Ok(Some(send_token(state, tx, mail).await?));
    }
    let Some(new_email) = user.new_email.clone() else { return Ok(None) };
    let mail = TokenMail {
        user_id: user.id,
        kind: MailKind::EmailChange,
        token: TokenKind::EmailChangeNew,
        to: &new_email,
        email: &user.email,
        new_email: &new_email,
        redirect_to: redirect,
        pkce: false,
    };
    Ok(Some(send_token(state, tx, mail).await?))
}
