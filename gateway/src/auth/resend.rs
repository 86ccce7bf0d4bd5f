//! `POST /resend`: sends the sign-up confirmation or the e-mail-change message again; `{}` for unknown addresses.

use crate::auth::domain::email::Email;
use crate::auth::error::{AuthError, AuthResult};
use crate::auth::mail::MailKind;
use crate::auth::otp::{admit_address, send_token, Outbox, TokenMail};
use crate::auth::request::{json_body, ClientIp};
use crate::auth::store::begin;
use crate::auth::store::users::{self, TokenKind};
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;

#[derive(Debug, Default, Deserialize)]
struct ResendBody {
    #[serde(default)]
    email: Option<String>,
    #[serde(default, rename = "type")]
    kind: Option<String>,
}

pub async fn handler(
    _key: crate::auth::request::ApiKey,
    State(state): State<AppState>,
    ip: ClientIp,
    Query(query): Query<HashMap<String, String>>,
    body: Bytes,
) -> AuthResult<Json<Value>> {
    let cfg = &state.auth.config;
    if !state.auth.limiter.check("otp", &ip.key(), cfg.rate_otp) {
        return Err(AuthError::rate_limited());
    }
    crate::auth::otp::admit_mail_client(&state, &ip)?;
    let body: ResendBody = json_body(&body)?;
    let kind = body.kind.unwrap_or_default();
    if !matches!(kind.as_str(), "signup" | "email_change") {
        return Err(AuthError::validation("Missing one of these types: signup, email_change, sms, phone_change"));
    }
    let email = Email::parse(&body.email.unwrap_or_default())?;
    let redirect = admit_address(&state, &email, query.get("redirect_to").map(String::as_str))?;
    let mut client = state.pool.get().await?;
    let tx = begin(&mut client).await?;
    let mut outbox = Outbox::default();
    if kind == "signup" {
        if let Some(user) = users::by_email(&tx, email.as_str()).await?.filter(|u| u.email_confirmed_at.is_none()) {
            let mail = TokenMail::to_account(&user, MailKind::Confirmation, TokenKind::Confirmation, &redirect, false);
            outbox.push(send_token(&state, &tx, mail).await?);
        }
    } else if let Some(user) = users::by_email(&tx, email.as_str()).await? {
        if let Some(new_email) = user.new_email.clone() {
            let mail = TokenMail {
                user_id: user.id,
                kind: MailKind::EmailChange,
                token: TokenKind::EmailChangeNew,
                to: &new_email,
                email: &user.email,
                new_email: &new_email,
                redirect_to: &redirect,
                pkce: false,
            };
            outbox.push(send_token(&state, &tx, mail).await?);
        }
    }
    tx.commit().await?;
    drop(client); // back to the pool before the mail server is contacted
    outbox.deliver(&state).await?;
    Ok(Json(json!({})))
}
