//! Sessions as clients see them: the access token (Supabase's claims, `kid` header) and the AccessTokenResponse,
//! and the check every authenticated auth call makes (valid JWT, user exists, session still exists).

use crate::auth::domain::claims::{AccessTokenClaims, PresentedClaims};
use crate::auth::domain::token_response::TokenResponse;
use crate::auth::error::{AuthError, AuthResult, ErrorCode};
use crate::auth::request::{bearer, opaque_bearer};
use crate::auth::store::{sessions, users, users::User};
use crate::auth::Auth;
use crate::core::api_keys::is_opaque;
use crate::core::identity::api_key_role;
use axum::http::{HeaderMap, StatusCode};
use deadpool_postgres::Transaction;
use jwks::VerifyOptions;
use uuid::Uuid;

/// Signs the access token for `user` in `session_id` and builds the AccessTokenResponse.
pub async fn token_response(
    state: &Auth,
    tx: &Transaction<'_>,
    user: &User,
    session_id: Uuid,
    refresh_token: &str,
) -> AuthResult<TokenResponse> {
    let cfg = &state.config;
    let iat = chrono::Utc::now().timestamp();
    let claims = AccessTokenClaims {
        aal: "aal1",
        amr: sessions::amr(tx, session_id).await?,
        app_metadata: user.app_metadata.clone(),
        aud: if user.aud.is_empty() { cfg.jwt_aud.clone() } else { user.aud.clone() },
        email: user.email.clone(),
        exp: iat + cfg.jwt_exp,
        iat,
        is_anonymous: user.is_anonymous,
        iss: cfg.jwt_issuer.clone(),
        phone: user.phone.clone(),
        role: if user.role.is_empty() { cfg.default_role.clone() } else { user.role.clone() },
        session_id,
        sub: user.id,
        user_metadata: user.user_metadata.clone(),
    };
    Ok(TokenResponse {
        access_token: state.core.keys.load().sign(&claims).map_err(AuthError::internal)?,
        expires_at: claims.exp,
        expires_in: cfg.jwt_exp,
        refresh_token: refresh_token.to_string(),
        token_type: "bearer",
        user: user.to_json(),
        weak_password: None,
    })
}

/// The verified claims of a bearer token in GoTrue's error vocabulary.
pub fn verified_claims(state: &Auth, headers: &HeaderMap) -> AuthResult<PresentedClaims> {
    verify_bearer(state, headers, &["exp"])
}

/// Verifies the bearer token; `required` lists claims that must be present (GoTrue's admin check requires none).
fn verify_bearer(state: &Auth, headers: &HeaderMap, required: &[&str]) -> AuthResult<PresentedClaims> {
    let token = bearer(headers).ok_or(ErrorCode::NoAuthorization)?;
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
}

/// Checks the bearer token, then that its user and session still exist (how logout takes effect).
pub async fn require_signed_in(state: &Auth, tx: &Transaction<'_>, headers: &HeaderMap) -> AuthResult<SignedIn> {
    let claims = verified_claims(state, headers)?;
    let sub = claims.sub.filter(|s| !s.is_empty()).ok_or_else(|| AuthError::bad_claim("missing sub claim"))?;
    let user_id = Uuid::parse_str(&sub)
        .map_err(|_| AuthError::bad_claim("sub claim must be a UUID").at(StatusCode::BAD_REQUEST))?;
    if !claims.aud.contains(&state.config.jwt_aud) {
        return Err(AuthError::validation("Token audience doesn't match request audience"));
    }
    let user = users::by_id(tx, user_id).await?.ok_or_else(AuthError::user_of_token_gone)?;
    let session_id = match claims.session_id {
        Some(s) => Some(Uuid::parse_str(&s).map_err(|_| AuthError::bad_claim("session_id claim must be a UUID"))?),
        None => None,
    };
    if let Some(s) = session_id {
        if !sessions::exists(tx, s, user_id).await? {
            return Err(ErrorCode::SessionNotFound.into());
        }
    }
    if user.is_banned() {
        return Err(ErrorCode::UserBanned.into());
    }
    Ok(SignedIn { user, session_id })
}

/// Admin endpoints: a valid token whose `role` is one of `GOTRUE_JWT_ADMIN_ROLES`. Without a user token, a
/// configured secret key stands for `service_role`, as Supabase's API gateway forwards it.
pub fn require_admin(state: &Auth, headers: &HeaderMap) -> AuthResult<()> {
    let role = match opaque_key(headers) {
        Some(key) if bearer(headers).is_none() => Some(
            api_key_role(key, &state.core.keys.load(), &state.core.config)
                .map_err(|refused| AuthError::bad_jwt(&refused))?,
        ),
        _ => verify_bearer(state, headers, &[])?.role,
    };
    match role {
        Some(role) if state.config.admin_roles.contains(&role) => Ok(()),
        _ => Err(AuthError::not_admin()),
    }
}

/// An opaque API key the request presents: its `apikey`, else `Authorization: Bearer sb_…`.
fn opaque_key(headers: &HeaderMap) -> Option<&str> {
    let apikey = headers.get("apikey").and_then(|v| v.to_str().ok()).map(str::trim).filter(|k| is_opaque(k));
    apikey.or_else(|| opaque_bearer(headers))
}
