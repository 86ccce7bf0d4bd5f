//! Sessions as clients see them: the access token (Supabase's claims, `kid` header) and the AccessTokenResponse,
//! and the check every authenticated auth call makes (valid JWT, user exists, session still exists).

use crate::auth::error::{AuthError, AuthResult};
use crate::auth::request::{bearer, opaque_bearer};
use crate::auth::store::{sessions, users, users::User};
use crate::auth::Auth;
use crate::core::api_keys::is_opaque;
use crate::core::identity::api_key_role;
use axum::http::{HeaderMap, StatusCode};
use deadpool_postgres::Transaction;
use jwks::VerifyOptions;
use serde_json::{json, Value};
use uuid::Uuid;

/// Signs the access token for `user` in `session_id` and builds the AccessTokenResponse.
pub async fn token_response(
    state: &Auth,
    tx: &Transaction<'_>,
    user: &User,
    session_id: Uuid,
    refresh_token: &str,
) -> AuthResult<Value> {
    let cfg = &state.config;
    let iat = chrono::Utc::now().timestamp();
    let exp = iat + cfg.jwt_exp;
    let claims = json!({
        "iss": cfg.jwt_issuer,
        "sub": user.id,
        "aud": if user.aud.is_empty() { cfg.jwt_aud.clone() } else { user.aud.clone() },
        "exp": exp,
        "iat": iat,
        "email": user.email,
        "phone": user.phone,
        "app_metadata": user.app_metadata,
        "user_metadata": user.user_metadata,
        "role": if user.role.is_empty() { cfg.default_role.clone() } else { user.role.clone() },
        "aal": "aal1",
        "amr": sessions::amr(tx, session_id).await?,
        "session_id": session_id,
        "is_anonymous": user.is_anonymous,
    });
    let access_token = state.core.keys.load().sign(&claims).map_err(AuthError::internal)?;
    Ok(json!({
        "access_token": access_token,
        "token_type": "bearer",
        "expires_in": cfg.jwt_exp,
        "expires_at": exp,
        "refresh_token": refresh_token,
        "user": user.to_json(),
    }))
}

/// The verified claims of a bearer token in GoTrue's error vocabulary.
pub fn verified_claims(state: &Auth, headers: &HeaderMap) -> AuthResult<Value> {
    verify_bearer(state, headers, &["exp"])
}

/// Verifies the bearer token; `required` lists claims that must be present (GoTrue's admin check requires none).
fn verify_bearer(state: &Auth, headers: &HeaderMap, required: &[&str]) -> AuthResult<Value> {
    let token = bearer(headers).ok_or_else(|| {
        AuthError::new(StatusCode::UNAUTHORIZED, "no_authorization", "This endpoint requires a valid Bearer token")
    })?;
    let options = VerifyOptions {
        leeway_secs: 0,
        audience: None,
        required_claims: required.iter().map(|c| c.to_string()).collect(),
    };
    crate::core::identity::token::verify(&state.core.keys.load(), token, &options).map_err(|e| AuthError::bad_jwt(&e))
}

/// A signed-in user: the user row and the session the token belongs to.
pub struct SignedIn {
    pub user: User,
    pub session_id: Option<Uuid>,
    pub claims: Value,
}

/// Checks the bearer token, then that its user and session still exist (how logout takes effect).
pub async fn require_signed_in(state: &Auth, tx: &Transaction<'_>, headers: &HeaderMap) -> AuthResult<SignedIn> {
    let claims = verified_claims(state, headers)?;
    let sub = claims
        .get("sub")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| AuthError::new(StatusCode::FORBIDDEN, "bad_jwt", "invalid claim: missing sub claim"))?;
    let user_id = Uuid::parse_str(sub)
        .map_err(|_| AuthError::new(StatusCode::BAD_REQUEST, "bad_jwt", "invalid claim: sub claim must be a UUID"))?;
    let aud_ok = match claims.get("aud") {
        Some(Value::String(a)) => a == &state.config.jwt_aud,
        Some(Value::Array(list)) => list.iter().any(|a| a.as_str() == Some(state.config.jwt_aud.as_str())),
        _ => false,
    };
    if !aud_ok {
        return Err(AuthError::validation("Token audience doesn't match request audience"));
    }
    let user = users::by_id(tx, user_id).await?.ok_or_else(|| {
        AuthError::new(StatusCode::FORBIDDEN, "user_not_found", "User from sub claim in JWT does not exist")
    })?;
    let session_id = match claims.get("session_id").and_then(Value::as_str) {
        Some(s) => Some(Uuid::parse_str(s).map_err(|_| {
            AuthError::new(StatusCode::FORBIDDEN, "bad_jwt", "invalid claim: session_id claim must be a UUID")
        })?),
        None => None,
    };
    if let Some(s) = session_id {
        if !sessions::exists(tx, s, user_id).await? {
            return Err(AuthError::new(
                StatusCode::FORBIDDEN,
                "session_not_found",
                "Session from session_id claim in JWT does not exist",
            ));
        }
    }
    if user.is_banned() {
        return Err(AuthError::new(StatusCode::FORBIDDEN, "user_banned", "User is banned"));
    }
    Ok(SignedIn { user, session_id, claims })
}

/// Admin endpoints: a valid token whose `role` is one of `GOTRUE_JWT_ADMIN_ROLES`. Without a user token, a
/// configured secret key stands for `service_role`, as Supabase's API gateway forwards it.
pub fn require_admin(state: &Auth, headers: &HeaderMap) -> AuthResult<Value> {
    let claims = match opaque_key(headers) {
        Some(key) if bearer(headers).is_none() => {
            let role = api_key_role(key, &state.core.keys.load(), &state.core.config)
                .map_err(|refused| AuthError::bad_jwt(&refused))?;
            json!({ "role": role })
        }
        _ => verify_bearer(state, headers, &[])?,
    };
    let role = claims.get("role").and_then(Value::as_str).unwrap_or_default();
    if state.config.admin_roles.iter().any(|r| r == role) {
        Ok(claims)
    } else {
        Err(AuthError::not_admin())
    }
}

/// An opaque API key the request presents: its `apikey`, else `Authorization: Bearer sb_…`.
fn opaque_key(headers: &HeaderMap) -> Option<&str> {
    let apikey = headers.get("apikey").and_then(|v| v.to_str().ok()).map(str::trim).filter(|k| is_opaque(k));
    apikey.or_else(|| opaque_bearer(headers))
}
