//! `POST /otp` (and the older `POST /magiclink`) for e-mail: mails a sign-in link and code; creates the user first
//! unless `create_user` is false. Answers `{}`; `verify` with type `magiclink` (or `signup` for a new user) signs in.

use crate::auth::domain::email::Email;
use crate::auth::domain::pkce;
use crate::auth::error::{AuthError, AuthResult};
use crate::auth::mail::MailKind;
use crate::auth::otp::{admit_address, send_token, Outbox, TokenMail};
use crate::auth::request::{json_body, ClientIp};
use crate::auth::store::users::{self, NewUser, TokenKind};
use crate::auth::store::{begin, flow_state};
use crate::auth::Auth;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;

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

pub async fn handler(
    State(state): State<Auth>,
    ip: ClientIp,
    Query(query): Query<HashMap<String, String>>,
    body: Bytes,
) -> AuthResult<Json<Value>> {
    let cfg = &state.config;
    if !state.limiter.check("otp", &ip.key(), cfg.rate_otp).await {
        return Err(AuthError::rate_limited());
    }
    crate::auth::otp::admit_mail_client(&state, &ip).await?;
    let body: OtpBody = json_body(&body)?;
    let present = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.is_empty());
    let challenge = check_params(&body)?;
    if !present(&body.email) {
        if present(&body.phone) {
            return Err(AuthError::new(
                StatusCode::BAD_REQUEST,
                "phone_provider_disabled",
                "Unsupported phone provider",
            ));
        }
        return Err(AuthError::validation("One of email or phone must be set"));
    }
    if !cfg.email_enabled {
        return Err(AuthError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "email_provider_disabled",
            "Email logins are disabled",
        ));
    }
    let email = Email::parse(body.email.as_deref().unwrap_or_default())?;
    let redirect = admit_address(&state, &email, query.get("redirect_to").map(String::as_str)).await?;
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let mut outbox = Outbox::default();
    let user = match users::by_email(&tx, email.as_str()).await? {
        Some(u) => u,
        None if body.create_user == Some(false) || cfg.disable_signup => {
            return Err(AuthError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "otp_disabled",
                "Signups not allowed for otp",
            ));
        }
        None => {
            let data = match body.data {
                Some(Value::Object(m)) => Value::Object(m),
                _ => json!({}),
            };
            users::create(
                &tx,
                NewUser {
                    id: None,
                    email: Some(email.as_str()),
                    password_hash: None,
                    aud: &cfg.jwt_aud,
                    role: &cfg.default_role,
                    user_metadata: data,
                    app_metadata: json!({"provider": "email", "providers": ["email"]}),
                    confirmed: false,
                    is_anonymous: false,
                    identity_in_metadata: true,
                },
            )
            .await?
        }
    };
    // An unconfirmed address gets the sign-up confirmation (which also signs in); a confirmed one a magic link.
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
