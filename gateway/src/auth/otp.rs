//! Issuing one-time tokens by e-mail: per-address frequency (`GOTRUE_SMTP_MAX_FREQUENCY`), the global hourly
//! budget (`GOTRUE_RATE_LIMIT_EMAIL_SENT`), the stored hash, and the message, composed in the transaction and sent
//! after it commits.

use crate::auth::domain::email::Email;
use crate::auth::domain::redirect::choose_redirect;
use crate::auth::domain::tokens::{new_otp, token_hash};
use crate::auth::error::{AuthError, AuthResult};
use crate::auth::mail::{self, MailContext, MailKind};
use crate::auth::rate_limit::Rate;
use crate::auth::store::users::{self, TokenKind, User};
use crate::auth::Auth;
use crate::core::mail::OutgoingMail;
use deadpool_postgres::Transaction;
use uuid::Uuid;

/// Refuses a second message to `email` within the configured frequency, whether or not the address has an account
/// (so the answer does not reveal which addresses exist).
pub async fn check_frequency(state: &Auth, email: &str) -> AuthResult<()> {
    let freq = state.config.smtp_max_frequency;
    if freq.is_zero() {
        return Ok(());
    }
    let rate = Rate { per_second: 1.0 / freq.as_secs_f64(), burst: 1.0 };
    if state.limiter.check("mail_frequency", email, rate).await {
        Ok(())
    } else {
        Err(AuthError::email_frequency(freq.as_secs().max(1)))
    }
}

/// The per-client share of the auth mail budget, for the endpoints that mail anyone who asks (`/signup` without
/// autoconfirm, `/otp`, `/recover`, `/resend`): counted per request alike for known and unknown addresses, so one
/// client can never spend the gateway-wide `GOTRUE_RATE_LIMIT_EMAIL_SENT` for everyone.
pub async fn admit_mail_client(state: &Auth, ip: &crate::auth::request::ClientIp) -> AuthResult<()> {
    if state.limiter.check("email_sent_client", &ip.key(), state.config.rate_email_sent_per_client).await {
        Ok(())
    } else {
        Err(AuthError::email_rate_limited())
    }
}

/// One message with its token.
pub struct TokenMail<'a> {
    pub user_id: Uuid,
    pub kind: MailKind,
    pub token: TokenKind,
    /// The address the message goes to (and the token hash is bound to).
    pub to: &'a str,
    /// The account's current address (for the template).
    pub email: &'a str,
    pub new_email: &'a str,
    pub redirect_to: &'a str,
    /// A PKCE flow: the stored token and the link carry the `pkce_` prefix, and the link answers with a code.
    pub pkce: bool,
}

impl<'a> TokenMail<'a> {
    /// A message to the account's own address (every kind but the e-mail-change ones).
    pub fn to_account(user: &'a User, kind: MailKind, token: TokenKind, redirect_to: &'a str, pkce: bool) -> Self {
        TokenMail {
            user_id: user.id,
            kind,
            token,
            to: &user.email,
            email: &user.email,
            new_email: "",
            redirect_to,
            pkce,
        }
    }
}

/// The per-address limits of the endpoints that mail a link on request (`/otp`, `/recover`, `/resend`), applied
/// alike to known and unknown addresses; then the redirect the link carries (`redirect_to`, if allowed).
pub async fn admit_address(state: &Auth, email: &Email, redirect_to: Option<&str>) -> AuthResult<String> {
    let cfg = &state.config;
    state.admit("account", email.as_str(), cfg.rate_account).await?;
    check_frequency(state, email.as_str()).await?;
    Ok(choose_redirect(redirect_to, &cfg.site_url, &cfg.uri_allow_list))
}

/// Creates and stores a one-time token bound to `to`; returns (code, stored hash).
pub async fn issue(
    state: &Auth,
    tx: &Transaction<'_>,
    user_id: Uuid,
    token: TokenKind,
    to: &str,
    pkce: bool,
) -> AuthResult<(String, String)> {
    let otp = new_otp(state.config.otp_length);
    let hash = token_hash(to, &otp);
    let hash = if pkce { format!("pkce_{hash}") } else { hash };
    users::set_token(tx, user_id, token, &hash, to).await?;
    Ok((otp, hash))
}

/// Messages composed inside a transaction and sent after it commits, so no database connection or row lock is held
/// while a mail server answers.
#[derive(Default)]
pub struct Outbox(Vec<(MailKind, OutgoingMail)>);

impl Outbox {
    pub fn push(&mut self, pending: (MailKind, OutgoingMail)) {
        self.0.push(pending);
    }

    /// Sends every message (call after the commit).
    pub async fn deliver(self, state: &Auth) -> AuthResult<()> {
        for (kind, mail) in &self.0 {
            mail::deliver(&state.core.mailer, *kind, mail).await?;
        }
        Ok(())
    }
}

/// Stores the token hash and composes the message for the caller's [`Outbox`].
pub async fn send_token(state: &Auth, tx: &Transaction<'_>, m: TokenMail<'_>) -> AuthResult<(MailKind, OutgoingMail)> {
    if !state.limiter.check("email_sent", "global", state.config.rate_email_sent).await {
        return Err(AuthError::email_rate_limited());
    }
    let (otp, hash) = issue(state, tx, m.user_id, m.token, m.to, m.pkce).await?;
    let ctx = MailContext {
        to: m.to,
        email: m.email,
        new_email: m.new_email,
        otp: &otp,
        token_hash: &hash,
        redirect_to: m.redirect_to,
    };
    Ok((m.kind, mail::compose(&state.config, m.kind, &ctx).await))
}
