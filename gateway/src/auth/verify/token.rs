//! Redeeming a verification token: the user it belongs to, within its lifetime; a sign-up confirmed, a recovery or
//! magic link used once, an e-mail change (in two steps when secure); then a session, or a PKCE link's code.

use crate::auth::domain::token_response::TokenResponse;
use crate::auth::error::{AuthError, AuthResult, ErrorCode};
use crate::auth::session::token_response;
use crate::auth::store::sessions::Origin;
use crate::auth::store::users::{self, User};
use crate::auth::store::{flow_state, sessions, verification};
use crate::auth::Auth;
use chrono::{DateTime, Utc};
use deadpool_postgres::Transaction;

/// The token columns each verification type may match.
pub(super) fn columns(kind: &str) -> AuthResult<&'static [&'static str]> {
    Ok(match kind {
        "" => return Err(AuthError::validation("Verify requires a verification type")),
        "signup" | "invite" => &["confirmation_token"],
        "recovery" | "magiclink" => &["recovery_token"],
        "email" => &["confirmation_token", "recovery_token"],
        "email_change" => &["email_change_token_new", "email_change_token_current"],
        // No phone provider: no SMS code can match.
        "sms" | "phone_change" => return Err(ErrorCode::OtpExpired.into()),
        _ => return Err(AuthError::validation("Unsupported verification type")),
    })
}

pub(super) enum Verified {
    Session(TokenResponse),
    HalfConfirmed,
    /// A PKCE link: the client exchanges this code (with its verifier) for the session.
    Code(String),
}

fn expired(sent: Option<DateTime<Utc>>, state: &Auth) -> bool {
    let lifetime = chrono::Duration::from_std(state.config.otp_exp).unwrap_or(chrono::Duration::days(1));
    sent.is_none_or(|t| t + lifetime < Utc::now())
}

pub(super) async fn verify(
    state: &Auth,
    tx: &Transaction<'_>,
    kind: &str,
    hash: &str,
    from: &Origin,
    unknown: AuthError,
    link: bool,
) -> AuthResult<Verified> {
    let invalid = || unknown.clone();
    if hash.is_empty() {
        return Err(invalid());
    }
    let (user, hash) = find(tx, kind, hash).await?.ok_or_else(invalid)?;
    let hash = hash.as_str();
    if user.is_banned() {
        return Err(ErrorCode::UserBanned.into());
    }
    let matched_confirmation = kind != "email_change" && verification::is_confirmation(tx, user.id, hash).await?;
    let sent = match kind {
        "email_change" => user.email_change_sent_at,
        _ if matched_confirmation => user.confirmation_sent_at,
        _ => user.recovery_sent_at,
    };
    if expired(sent, state) {
        return Err(invalid());
    }
    if kind == "email_change" {
        if let Some(v) = email_change(state, tx, &user, hash).await? {
            return Ok(v);
        }
    } else if matched_confirmation {
        users::confirm_email(tx, user.id).await?;
    } else {
        redeem_recovery(tx, &user).await?;
    }
    if link && hash.starts_with("pkce_") {
        if let Some(code) = pkce_code(tx, &user, matched_confirmation).await? {
            return Ok(Verified::Code(code));
        }
    }
    session(state, tx, user, from).await
}

/// A new session for the verified user.
async fn session(state: &Auth, tx: &Transaction<'_>, user: User, from: &Origin) -> AuthResult<Verified> {
    let (session_id, refresh) = sessions::create(tx, user.id, "otp", from).await?;
    let user = users::by_id(tx, user.id).await?.unwrap_or(user);
    Ok(Verified::Session(token_response(state, tx, &user, session_id, &refresh).await?))
}

/// The user a token hash belongs to, and the hash as stored: a code typed from a PKCE sign-up's mail matches the
/// stored token with the flow's prefix.
async fn find(tx: &Transaction<'_>, kind: &str, hash: &str) -> AuthResult<Option<(User, String)>> {
    if let Some(user) = users::by_token(tx, columns(kind)?, hash).await? {
        return Ok(Some((user, hash.to_string())));
    }
    if hash.starts_with("pkce_") {
        return Ok(None);
    }
    let prefixed = format!("pkce_{hash}");
    Ok(users::by_token(tx, columns(kind)?, &prefixed).await?.map(|user| (user, prefixed)))
}

/// A recovery or magic-link token is used once; the address counts as confirmed by it.
async fn redeem_recovery(tx: &Transaction<'_>, user: &User) -> AuthResult<()> {
    verification::spend_recovery(tx, user.id).await?;
    if user.email_confirmed_at.is_none() {
        users::confirm_email(tx, user.id).await?;
    }
    Ok(())
}

/// A PKCE link's auth code for the client to exchange (with its verifier) for the session.
async fn pkce_code(tx: &Transaction<'_>, user: &User, matched_confirmation: bool) -> AuthResult<Option<String>> {
    let methods: &[&str] = if matched_confirmation { &["email/signup"] } else { &["recovery", "magiclink"] };
    for method in methods {
        if let Some(code) = flow_state::issue_code(tx, user.id, method).await? {
            return Ok(Some(code));
        }
    }
    Ok(None)
}

/// Secure e-mail change: the first of the two tokens only records the confirmation; the second (or the only one
/// when secure change is off) swaps the address. `None` means "swapped, issue a session".
async fn email_change(state: &Auth, tx: &Transaction<'_>, user: &User, hash: &str) -> AuthResult<Option<Verified>> {
    let secure = state.config.secure_email_change;
    let both_pending = !user.email_change_token_new.is_empty() && !user.email_change_token_current.is_empty();
    if secure && both_pending && user.email_change_confirm_status == 0 {
        verification::half_confirm_email_change(tx, user.id, user.email_change_token_new == hash).await?;
        return Ok(Some(Verified::HalfConfirmed));
    }
    let Some(new_email) = user.new_email.clone() else {
        return Err(AuthError::link_expired());
    };
    verification::swap_email(tx, user.id, &new_email).await?;
    Ok(None)
}
