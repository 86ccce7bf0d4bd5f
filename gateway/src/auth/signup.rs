//! `POST /signup`: e-mail + password sign-up (confirmation mail by default, a session with autoconfirm), and the
//! anonymous sign-in when neither e-mail nor phone is given.

use crate::auth::domain::email::Email;
use crate::auth::domain::password::check_strength;
use crate::auth::domain::pkce;
use crate::auth::domain::redirect::choose_redirect;
use crate::auth::domain::token_response::TokenResponse;
use crate::auth::error::{AuthError, AuthResult, ErrorCode};
use crate::auth::mail::MailKind;
use crate::auth::otp::{check_frequency, send_token, Outbox, TokenMail};
use crate::auth::request::{json_body, origin, ClientIp, RedirectTo};
use crate::auth::session::token_response;
use crate::auth::store::new_user::{self, NewUser};
use crate::auth::store::sessions::Origin;
use crate::auth::store::users::{self, TokenKind, User};
use crate::auth::store::{begin, flow_state, sessions};
use crate::auth::Auth;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use deadpool_postgres::Transaction;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

#[derive(Debug, Default, Deserialize)]
pub struct SignupBody {
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub phone: Option<String>,
    #[serde(default)]
    pub password: Option<String>,
    #[serde(default, deserialize_with = "crate::auth::request::object_or_null")]
    pub data: Option<Value>,
    #[serde(default)]
    pub code_challenge: Option<String>,
    #[serde(default)]
    pub code_challenge_method: Option<String>,
}

pub async fn handler(
    State(state): State<Auth>,
    ip: ClientIp,
    headers: HeaderMap,
    to: RedirectTo,
    body: Bytes,
) -> AuthResult<Json<Answer>> {
    let mut body: SignupBody = json_body(&body)?;
    if body.email.as_deref().unwrap_or_default().is_empty() && body.phone.as_deref().unwrap_or_default().is_empty() {
        return anonymous(&state, &ip, &headers, body.data).await;
    }
    let cfg = &state.config;
    let data = object_or_empty(body.data.take());
    let (email, password, pkce) = admit(&state, &ip, &body).await?;
    let signup =
        Signup { email, password, data, redirect: choose_redirect(to.get(), &cfg.site_url, &cfg.uri_allow_list), pkce };
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let mut outbox = Outbox::default();
    let response = match users::by_email(&tx, signup.email.as_str()).await? {
        Some(_) if cfg.autoconfirm => return Err(ErrorCode::UserAlreadyExists.into()),
        Some(user) if user.email_confirmed_at.is_some() => Answer::User(obfuscated(&user, &signup.data)),
        // Unconfirmed: send the confirmation again; password and metadata stay as they were.
        Some(user) => Answer::User(confirm(&state, &tx, &mut outbox, &user, &signup).await?),
        None => register(&state, &tx, &mut outbox, &signup, &origin(&ip, &headers)).await?,
    };
    tx.commit().await?;
    drop(client); // back to the pool before the mail server is contacted
    outbox.deliver(&state).await?;
    Ok(Json(response))
}

/// A sign-up that passed the checks.
struct Signup<'a> {
    email: Email,
    password: &'a str,
    data: Value,
    redirect: String,
    pkce: Option<pkce::Challenge>,
}

/// GoTrue's checks of a sign-up, in its order: rate limits, whether sign-ups (by e-mail) are on, the password,
/// the PKCE challenge, the password's strength, the address.
async fn admit<'b>(
    state: &Auth,
    ip: &ClientIp,
    body: &'b SignupBody,
) -> AuthResult<(Email, &'b str, Option<pkce::Challenge>)> {
    let cfg = &state.config;
    state.admit("otp", &ip.key(), cfg.rate_otp).await?;
    if !cfg.autoconfirm {
        crate::auth::otp::admit_mail_client(state, ip).await?;
    }
    let password = body.password.as_deref().unwrap_or_default();
    refuse_unsupported(state, body, password)?;
    let pkce = pkce::parse(body.code_challenge.as_deref(), body.code_challenge_method.as_deref())?;
    check_strength(password, cfg.password_min_length, &cfg.password_required_characters)?;
    let email = Email::parse(body.email.as_deref().unwrap_or_default())?;
    state.admit("account", email.as_str(), cfg.rate_account).await?;
    Ok((email, password, pkce))
}

/// Sign-ups off, no password, both an address and a phone, a phone (no SMS provider), e-mail sign-ups off.
fn refuse_unsupported(state: &Auth, body: &SignupBody, password: &str) -> AuthResult<()> {
    let cfg = &state.config;
    let (email, phone) = (body.email.as_deref().unwrap_or_default(), body.phone.as_deref().unwrap_or_default());
    if cfg.disable_signup {
        return Err(ErrorCode::SignupDisabled.into());
    }
    if password.is_empty() {
        return Err(AuthError::validation("Signup requires a valid password"));
    }
    if !email.is_empty() && !phone.is_empty() {
        return Err(AuthError::validation("Only an email address or phone number should be provided on signup."));
    }
    if email.is_empty() {
        return Err(ErrorCode::PhoneProviderDisabled.into());
    }
    if !cfg.email_enabled {
        return Err(ErrorCode::EmailProviderDisabled.into());
    }
    Ok(())
}

/// `data` when it is an object, else `{}`.
fn object_or_empty(data: Option<Value>) -> Value {
    match data {
        Some(Value::Object(m)) => Value::Object(m),
        _ => json!({}),
    }
}

/// A new account: confirmed with a session (autoconfirm), or waiting for the confirmation mail.
/// What a sign-up answers: a session when the address needs no confirmation, else the user (GoTrue's shapes).
#[derive(Serialize)]
#[serde(untagged)]
pub enum Answer {
    Session(TokenResponse),
    User(Value),
}

async fn register(
    state: &Auth,
    tx: &Transaction<'_>,
    outbox: &mut Outbox,
    signup: &Signup<'_>,
    from: &Origin,
) -> AuthResult<Answer> {
    let cfg = &state.config;
    let hash = state.hasher.hash(signup.password).await?;
    let new = NewUser {
        password_hash: Some(&hash),
        confirmed: cfg.autoconfirm,
        ..NewUser::email_account(cfg, signup.email.as_str(), signup.data.clone())
    };
    let user = new_user::create(tx, new).await?;
    if !cfg.autoconfirm {
        return confirm(state, tx, outbox, &user, signup).await.map(Answer::User);
    }
    let (session_id, refresh) = sessions::create(tx, user.id, "password", from).await?;
    let user = users::by_id(tx, user.id).await?.unwrap_or(user);
    token_response(state, tx, &user, session_id, &refresh).await.map(Answer::Session)
}

/// Queues the confirmation mail (within the mail frequency limit) and answers the user as it now is.
async fn confirm(
    state: &Auth,
    tx: &Transaction<'_>,
    outbox: &mut Outbox,
    user: &User,
    signup: &Signup<'_>,
) -> AuthResult<Value> {
    check_frequency(state, signup.email.as_str()).await?;
    outbox.push(send_confirmation(state, tx, user, &signup.redirect, signup.pkce.as_ref()).await?);
    Ok(users::by_id(tx, user.id).await?.map(|u| u.to_json()).unwrap_or_else(|| user.to_json()))
}

async fn send_confirmation(
    state: &Auth,
    tx: &Transaction<'_>,
    user: &User,
    redirect: &str,
    pkce: Option<&pkce::Challenge>,
) -> AuthResult<(MailKind, crate::core::mail::OutgoingMail)> {
    if let Some(challenge) = pkce {
        flow_state::create(tx, user.id, challenge, "email/signup").await?;
    }
    send_token(
        state,
        tx,
        TokenMail::to_account(user, MailKind::Confirmation, TokenKind::Confirmation, redirect, pkce.is_some()),
    )
    .await
}

/// What a sign-up with an already confirmed e-mail answers: a user that looks new (random id, no identities,
/// no session), so the response does not reveal that the address is registered. No e-mail is sent.
fn obfuscated(user: &User, data: &Value) -> Value {
    let now = users::ts(&chrono::Utc::now());
    json!({
        "id": uuid::Uuid::new_v4(),
        "aud": user.aud,
        "role": "",
        "email": user.email,
        "phone": "",
        "confirmation_sent_at": now,
        "app_metadata": {"provider": "email", "providers": ["email"]},
        "user_metadata": data,
        "identities": [],
        "created_at": now,
        "updated_at": now,
        "is_anonymous": false,
    })
}

async fn anonymous(state: &Auth, ip: &ClientIp, headers: &HeaderMap, data: Option<Value>) -> AuthResult<Json<Answer>> {
    let cfg = &state.config;
    if !cfg.anonymous_enabled {
        return Err(ErrorCode::AnonymousProviderDisabled.into());
    }
    state.admit("anonymous", &ip.key(), cfg.rate_anonymous).await?;
    let data = object_or_empty(data);
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let user = new_user::create(
        &tx,
        NewUser {
            id: None,
            email: None,
            password_hash: None,
            aud: &cfg.jwt_aud,
            role: &cfg.default_role,
            user_metadata: data,
            app_metadata: json!({}),
            confirmed: false,
            is_anonymous: true,
            identity_in_metadata: false,
        },
    )
    .await?;
    let (session_id, refresh) = sessions::create(&tx, user.id, "anonymous", &origin(ip, headers)).await?;
    let user = users::by_id(&tx, user.id).await?.unwrap_or(user);
    let response = token_response(state, &tx, &user, session_id, &refresh).await?;
    tx.commit().await?;
    Ok(Json(Answer::Session(response)))
}
