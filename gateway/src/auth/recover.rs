//! `POST /recover`: sends a recovery link when the address has an account; answers `{}` either way, with the same
//! rate limits for known and unknown addresses.

use crate::auth::domain::email::Email;
use crate::auth::domain::pkce;
use crate::auth::error::{AuthError, AuthResult, ErrorCode};
use crate::auth::mail::MailKind;
use crate::auth::otp::{admit_address, send_token, Outbox, TokenMail};
use crate::auth::request::{json_body, ClientIp, RedirectTo};
use crate::auth::store::users::{self, TokenKind};
use crate::auth::store::{begin, flow_state};
use crate::auth::Auth;
use axum::body::Bytes;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Debug, Default, Deserialize)]
struct RecoverBody {
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    code_challenge: Option<String>,
    #[serde(default)]
    code_challenge_method: Option<String>,
}

pub async fn handler(State(state): State<Auth>, ip: ClientIp, to: RedirectTo, body: Bytes) -> AuthResult<Json<Value>> {
    let cfg = &state.config;
    if !cfg.email_enabled {
        return Err(ErrorCode::EmailProviderDisabled.into());
    }
    state.admit("otp", &ip.key(), cfg.rate_otp).await?;
    crate::auth::otp::admit_mail_client(&state, &ip).await?;
    let body: RecoverBody = json_body(&body)?;
    let raw = body.email.unwrap_or_default();
    if raw.trim().is_empty() {
        return Err(AuthError::validation("Password recovery requires an email"));
    }
    let email = Email::parse(&raw)?;
    let pkce = pkce::parse(body.code_challenge.as_deref(), body.code_challenge_method.as_deref())?;
    let redirect = admit_address(&state, &email, to.get()).await?;
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let mut outbox = Outbox::default();
    if let Some(user) = users::by_email(&tx, email.as_str()).await? {
        if let Some(challenge) = &pkce {
            flow_state::create(&tx, user.id, challenge, "recovery").await?;
        }
        let mail = TokenMail::to_account(&user, MailKind::Recovery, TokenKind::Recovery, &redirect, pkce.is_some());
        outbox.push(send_token(&state, &tx, mail).await?);
    }
    tx.commit().await?;
    drop(client); // back to the pool before the mail server is contacted
    outbox.deliver(&state).await?;
    Ok(Json(json!({})))
}
