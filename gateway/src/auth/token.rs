//! `POST /token?grant_type=password|refresh_token`: sign-in with e-mail and password (the same answer and the
//! same bcrypt cost for unknown users and wrong passwords), and refresh-token rotation.

use crate::auth::domain::email::Email;
use crate::auth::domain::tokens::refresh_token_shape_ok;
use crate::auth::error::{AuthError, AuthResult};
use crate::auth::form_value::form_value;
use crate::auth::request::{json_body, origin, ClientIp};
use crate::auth::session::token_response;
use crate::auth::store::sessions::{self, Refresh};
use crate::auth::store::{begin, flow_state, users};
use crate::auth::Auth;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::Json;
use serde::Deserialize;
use serde_json::Value;

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
) -> AuthResult<Json<Value>> {
    if !state.limiter.check("token", &ip.key(), state.config.rate_token).await {
        return Err(AuthError::rate_limited());
    }
    // GoTrue picks the grant with `r.FormValue("grant_type")` before it reads the JSON parameters: a url-encoded or
    // multipart body's field counts (and leaves no JSON to read), a JSON body's `grant_type` does not.
    let (grant, body) = form_value(&headers, uri.query(), body, "grant_type").await;
    match grant.as_deref() {
        Some("password") => password_grant(&state, &ip, &headers, json_body(&body)?).await,
        Some("refresh_token") => refresh_grant(&state, json_body(&body)?).await,
        Some("pkce") => pkce_grant(&state, &ip, &headers, json_body(&body)?).await,
        _ => Err(AuthError::new(StatusCode::BAD_REQUEST, "invalid_credentials", "unsupported_grant_type")),
    }
}

async fn password_grant(state: &Auth, ip: &ClientIp, headers: &HeaderMap, body: TokenBody) -> AuthResult<Json<Value>> {
    let cfg = &state.config;
    let email_raw = body.email.unwrap_or_default();
    let phone = body.phone.unwrap_or_default();
    if !email_raw.is_empty() && !phone.is_empty() {
        return Err(AuthError::validation("Only an email address or phone number should be provided on login."));
    }
    if email_raw.is_empty() && phone.is_empty() {
        return Err(AuthError::validation("missing email or phone"));
    }
    if email_raw.is_empty() {
        return Err(AuthError::new(StatusCode::BAD_REQUEST, "phone_provider_disabled", "Phone logins are disabled"));
    }
    if !cfg.email_enabled {
        return Err(AuthError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "email_provider_disabled",
            "Email logins are disabled",
        ));
    }
    let password = body.password.unwrap_or_default();
    let email = email_raw.trim().to_lowercase();
    if !state.limiter.check("account", &email, cfg.rate_account).await {
        return Err(AuthError::rate_limited());
    }
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
        return Err(AuthError::new(StatusCode::BAD_REQUEST, "user_banned", "User is banned"));
    }
    if user.email_confirmed_at.is_none() && !cfg.autoconfirm {
        return Err(AuthError::new(StatusCode::BAD_REQUEST, "email_not_confirmed", "Email not confirmed"));
    }
    let (session_id, refresh) = sessions::create(&tx, user.id, "password", &origin(ip, headers)).await?;
    tx.execute(
        "update auth.identities set last_sign_in_at = now() where user_id = $1 and provider = 'email'",
        &[&user.id],
    )
    .await?;
    let user = users::by_id(&tx, user.id).await?.unwrap_or(user);
    let mut response = token_response(state, &tx, &user, session_id, &refresh).await?;
    tx.commit().await?;
    if let Err(weak) = crate::auth::domain::password::check_strength(
        &password,
        cfg.password_min_length,
        &cfg.password_required_characters,
    ) {
        if let Some(obj) = response.as_object_mut() {
            obj.insert(
                "weak_password".into(),
                serde_json::json!({"message": weak.message, "reasons": weak.weak_password}),
            );
        }
    }
    Ok(Json(response))
}

async fn refresh_grant(state: &Auth, body: TokenBody) -> AuthResult<Json<Value>> {
    let token = body.refresh_token.unwrap_or_default();
    if token.is_empty() {
        return Err(AuthError::new(StatusCode::BAD_REQUEST, "validation_failed", "refresh_token required"));
    }
    if !refresh_token_shape_ok(&token) {
        return Err(AuthError::validation("Refresh token is not valid"));
    }
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let outcome = sessions::rotate(&tx, &token, state.config.refresh_reuse_interval).await?;
    let (user_id, session_id, new_token) = match outcome {
        Refresh::Issued { user_id, session_id, token } => (user_id, session_id, token),
        Refresh::NotFound => {
            return Err(AuthError::new(
                StatusCode::BAD_REQUEST,
                "refresh_token_not_found",
                "Invalid Refresh Token: Refresh Token Not Found",
            ))
        }
        Refresh::NoSession => {
            return Err(AuthError::new(
                StatusCode::BAD_REQUEST,
                "session_not_found",
                "Invalid Refresh Token: No Valid Session Found",
            ))
        }
        Refresh::AlreadyUsed => {
            // Commit the revocation before answering.
            tx.commit().await?;
            return Err(AuthError::new(
                StatusCode::BAD_REQUEST,
                "refresh_token_already_used",
                "Invalid Refresh Token: Already Used",
            ));
        }
    };
    let user = users::by_id(&tx, user_id).await?.ok_or_else(|| {
        AuthError::new(
            StatusCode::BAD_REQUEST,
            "refresh_token_not_found",
            "Invalid Refresh Token: Refresh Token Not Found",
        )
    })?;
    if user.is_banned() {
        return Err(AuthError::new(StatusCode::BAD_REQUEST, "user_banned", "Invalid Refresh Token: User Banned"));
    }
    let response = token_response(state, &tx, &user, session_id, &new_token).await?;
    tx.commit().await?;
    Ok(Json(response))
}

/// `grant_type=pkce`: exchanges the code from an e-mail link, with the verifier kept by the client, for a session.
async fn pkce_grant(state: &Auth, ip: &ClientIp, headers: &HeaderMap, body: TokenBody) -> AuthResult<Json<Value>> {
    let code = body.auth_code.unwrap_or_default();
    let verifier = body.code_verifier.unwrap_or_default();
    if code.is_empty() || verifier.is_empty() {
        return Err(AuthError::validation("invalid request: both auth code and code verifier should be non-empty"));
    }
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let flow = flow_state::by_code(&tx, &code).await?.ok_or_else(|| {
        AuthError::new(StatusCode::NOT_FOUND, "flow_state_not_found", "invalid flow state, no valid flow state found")
    })?;
    let lifetime =
        chrono::Duration::seconds(state.core.config.vars.num(&["GOTRUE_EXTERNAL_FLOW_STATE_EXPIRY_DURATION"], 300i64));
    if flow.started + lifetime < chrono::Utc::now() {
        return Err(AuthError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "flow_state_expired",
            "invalid flow state, flow state has expired",
        ));
    }
    crate::auth::domain::pkce::verify(&verifier, &flow.challenge, &flow.method)?;
    let user_id = flow.user_id.ok_or_else(|| AuthError::internal("flow state without a user"))?;
    let user = users::by_id(&tx, user_id)
        .await?
        .ok_or_else(|| AuthError::new(StatusCode::NOT_FOUND, "user_not_found", "User not found"))?;
    flow_state::delete(&tx, flow.id).await?;
    let (session_id, refresh) =
        sessions::create(&tx, user.id, &flow.authentication_method, &origin(ip, headers)).await?;
    let user = users::by_id(&tx, user.id).await?.unwrap_or(user);
    let response = token_response(state, &tx, &user, session_id, &refresh).await?;
    tx.commit().await?;
    Ok(Json(response))
}
