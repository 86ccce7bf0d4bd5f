//! `POST /token?grant_type=password|refresh_token`: sign-in with e-mail and password (the same answer and the
//! same bcrypt cost for unknown users and wrong passwords), and refresh-token rotation.

use crate::auth::domain::email::Email;
use crate::auth::domain::password::check_strength;
use crate::auth::domain::token_response::{TokenResponse, WeakPasswordNote};
use crate::auth::domain::tokens::refresh_token_shape_ok;
use crate::auth::error::{AuthError, AuthResult, ErrorCode};
use crate::auth::form_value::form_value;
use crate::auth::request::{json_body, origin, ClientIp};
use crate::auth::session::token_response;
use crate::auth::store::sessions::{self, Refresh};
use crate::auth::store::{account, begin, flow_state, users};
use crate::auth::Auth;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::Json;
use serde::Deserialize;

#[derive(Debug, Default, Deserialize)]
struct TokenBody {
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    phone: Option<String>,
    #[serde(default)]
    password: Option<String>,
    #[serde(default)]
    refresh_token: Option<String>,
    #[serde(default)]
    auth_code: Option<String>,
    #[serde(default)]
    code_verifier: Option<String>,
}

pub async fn handler(
    State(state): State<Auth>,
    ip: ClientIp,
    headers: HeaderMap,
    uri: Uri,
    body: Bytes,
) -> AuthResult<Json<TokenResponse>> {
    state.admit("token", &ip.key(), state.config.rate_token).await?;
    // GoTrue picks the grant with `r.FormValue("grant_type")` before it reads the JSON parameters: a url-encoded or
    // multipart body's field counts (and leaves no JSON to read), a JSON body's `grant_type` does not.
    let (grant, body) = form_value(&headers, uri.query(), body, "grant_type").await;
    match grant.as_deref() {
        Some("password") => password_grant(&state, &ip, &headers, json_body(&body)?).await,
        Some("refresh_token") => refresh_grant(&state, json_body(&body)?).await,
        Some("pkce") => pkce_grant(&state, &ip, &headers, json_body(&body)?).await,
        _ => Err(AuthError::unsupported_grant()),
    }
}

async fn password_grant(
    state: &Auth,
    ip: &ClientIp,
    headers: &HeaderMap,
    body: TokenBody,
) -> AuthResult<Json<TokenResponse>> {
    let cfg = &state.config;
    let email = login_email(state, body.email.unwrap_or_default(), &body.phone.unwrap_or_default())?;
    let password = body.password.unwrap_or_default();
    state.admit("account", &email, cfg.rate_account).await?;
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    // An unparsable address cannot have an account: treat it as unknown (same answer, same cost).
    let user = match Email::parse(&email) {
        Ok(e) => users::by_email_for_sign_in(&tx, e.as_str()).await?,
        Err(_) => None,
    };
    let hash = user.as_ref().and_then(|u| u.encrypted_password.clone());
    let matches = state.hasher.verify(&password, hash.as_deref()).await?;
    let Some(user) = user.filter(|_| matches) else {
        return Err(AuthError::invalid_credentials());
    };
    if user.is_banned() {
        return Err(AuthError::from(ErrorCode::UserBanned).at(StatusCode::BAD_REQUEST));
    }
    if user.email_confirmed_at.is_none() && !cfg.autoconfirm {
        return Err(ErrorCode::EmailNotConfirmed.into());
    }
    let (session_id, refresh) = sessions::create(&tx, user.id, "password", &origin(ip, headers)).await?;
    account::note_sign_in(&tx, user.id).await?;
    let user = users::by_id(&tx, user.id).await?.unwrap_or(user);
    let mut response = token_response(state, &tx, &user, session_id, &refresh).await?;
    tx.commit().await?;
    warn_weak_password(state, &password, &mut response);
    Ok(Json(response))
}

/// The address a password sign-in names (lower-cased): one of e-mail or phone, and e-mail logins on.
fn login_email(state: &Auth, email: String, phone: &str) -> AuthResult<String> {
    if !email.is_empty() && !phone.is_empty() {
        return Err(AuthError::validation("Only an email address or phone number should be provided on login."));
    }
    if email.is_empty() && phone.is_empty() {
        return Err(AuthError::validation("missing email or phone"));
    }
    if email.is_empty() {
        return Err(ErrorCode::PhoneProviderDisabled.into());
    }
    if !state.config.email_enabled {
        return Err(AuthError::from(ErrorCode::EmailProviderDisabled).at(StatusCode::UNPROCESSABLE_ENTITY));
    }
    Ok(email.trim().to_lowercase())
}

/// A password that passed but is weaker than the policy now asks is reported with the session (`weak_password`).
fn warn_weak_password(state: &Auth, password: &str, response: &mut TokenResponse) {
    let cfg = &state.config;
    let Err(weak) = check_strength(password, cfg.password_min_length, &cfg.password_required_characters) else {
        return;
    };
    response.weak_password = Some(WeakPasswordNote { message: weak.message, reasons: weak.weak_password });
}

async fn refresh_grant(state: &Auth, body: TokenBody) -> AuthResult<Json<TokenResponse>> {
    let token = body.refresh_token.unwrap_or_default();
    if token.is_empty() {
        return Err(AuthError::validation("refresh_token required"));
    }
    if !refresh_token_shape_ok(&token) {
        return Err(AuthError::validation("Refresh token is not valid"));
    }
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let outcome = sessions::rotate(&tx, &token, state.config.refresh_reuse_interval).await?;
    let (user_id, session_id, new_token) = match outcome {
        Refresh::Issued { user_id, session_id, token } => (user_id, session_id, token),
        Refresh::NotFound => return Err(ErrorCode::RefreshTokenNotFound.into()),
        Refresh::NoSession => return Err(AuthError::refresh_without_session()),
        Refresh::AlreadyUsed => {
            // Commit the revocation before answering.
            tx.commit().await?;
            return Err(ErrorCode::RefreshTokenAlreadyUsed.into());
        }
    };
    let user = users::by_id(&tx, user_id).await?.ok_or_else(|| AuthError::from(ErrorCode::RefreshTokenNotFound))?;
    if user.is_banned() {
        return Err(AuthError::refresh_user_banned());
    }
    let response = token_response(state, &tx, &user, session_id, &new_token).await?;
    tx.commit().await?;
    Ok(Json(response))
}

/// `grant_type=pkce`: exchanges the code from an e-mail link, with the verifier kept by the client, for a session.
async fn pkce_grant(
    state: &Auth,
    ip: &ClientIp,
    headers: &HeaderMap,
    body: TokenBody,
) -> AuthResult<Json<TokenResponse>> {
    let code = body.auth_code.unwrap_or_default();
    let verifier = body.code_verifier.unwrap_or_default();
    if code.is_empty() || verifier.is_empty() {
        return Err(AuthError::validation("invalid request: both auth code and code verifier should be non-empty"));
    }
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let flow = flow_state::by_code(&tx, &code).await?.ok_or_else(|| AuthError::from(ErrorCode::FlowStateNotFound))?;
    if flow.started + state.config.flow_state_expiry < chrono::Utc::now() {
        return Err(ErrorCode::FlowStateExpired.into());
    }
    crate::auth::domain::pkce::verify(&verifier, &flow.challenge, &flow.method)?;
    let user_id = flow.user_id.ok_or_else(|| AuthError::internal("flow state without a user"))?;
    let user = users::by_id(&tx, user_id).await?.ok_or_else(|| AuthError::from(ErrorCode::UserNotFound))?;
    flow_state::delete(&tx, flow.id).await?;
    let (session_id, refresh) =
        sessions::create(&tx, user.id, &flow.authentication_method, &origin(ip, headers)).await?;
    let user = users::by_id(&tx, user.id).await?.unwrap_or(user);
    let response = token_response(state, &tx, &user, session_id, &refresh).await?;
    tx.commit().await?;
    Ok(Json(response))
}
