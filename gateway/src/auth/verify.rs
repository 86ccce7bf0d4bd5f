//! `POST /verify` (token + e-mail, or token hash) and `GET /verify` (the e-mail link: 303 to `redirect_to` with
//! the session in the fragment, or the error): sign-up confirmation, recovery, magic link, e-mail change.

use crate::auth::domain::redirect::choose_redirect;
use crate::auth::domain::tokens::token_hash;
use crate::auth::error::{AuthError, AuthResult};
use crate::auth::request::{json_body, origin, ClientIp};
use crate::auth::session::token_response;
use crate::auth::store::sessions::Origin;
use crate::auth::store::users::{self, User};
use crate::auth::store::{begin, flow_state, sessions};
use crate::auth::Auth;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::{DateTime, Utc};
use deadpool_postgres::Transaction;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;

const HALF_CONFIRMED: &str = "Confirmation link accepted. Please proceed to confirm link sent to the other email";

#[derive(Debug, Default, Deserialize)]
struct VerifyBody {
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    token_hash: Option<String>,
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    phone: Option<String>,
    #[serde(default)]
    redirect_to: Option<String>,
}

/// The token columns each verification type may match.
fn columns(kind: &str) -> AuthResult<&'static [&'static str]> {
    Ok(match kind {
        "" => return Err(AuthError::validation("Verify requires a verification type")),
        "signup" | "invite" => &["confirmation_token"],
        "recovery" | "magiclink" => &["recovery_token"],
        "email" => &["confirmation_token", "recovery_token"],
        "email_change" => &["email_change_token_new", "email_change_token_current"],
        // No phone provider: no SMS code can match.
        "sms" | "phone_change" => return Err(AuthError::otp_expired("Token has expired or is invalid")),
        _ => return Err(AuthError::validation("Unsupported verification type")),
    })
}

enum Verified {
    Session(Value),
    HalfConfirmed,
    /// A PKCE link: the client exchanges this code (with its verifier) for the session.
    Code(String),
}

fn expired(sent: Option<DateTime<Utc>>, state: &Auth) -> bool {
    let lifetime = chrono::Duration::from_std(state.config.otp_exp).unwrap_or(chrono::Duration::days(1));
    sent.is_none_or(|t| t + lifetime < Utc::now())
}

async fn verify(
    state: &Auth,
    tx: &Transaction<'_>,
    kind: &str,
    hash: &str,
    from: &Origin,
    invalid_message: &str,
    link: bool,
) -> AuthResult<Verified> {
    let invalid = || AuthError::otp_expired(invalid_message);
    if hash.is_empty() {
        return Err(invalid());
    }
    let mut found = users::by_token(tx, columns(kind)?, hash).await?;
    let mut hash = hash.to_string();
    if found.is_none() && !hash.starts_with("pkce_") {
        // A code typed from a PKCE sign-up's mail: the stored token carries the flow prefix.
        hash = format!("pkce_{hash}");
        found = users::by_token(tx, columns(kind)?, &hash).await?;
    }
    let hash = hash.as_str();
    let user = found.ok_or_else(invalid)?;
    if user.is_banned() {
        return Err(AuthError::new(StatusCode::FORBIDDEN, "user_banned", "User is banned"));
    }
    let matched_confirmation = kind != "email_change"
        && tx
            .query_opt("select 1 from auth.users where id = $1 and confirmation_token = $2", &[&user.id, &hash])
            .await?
            .is_some();
    if kind == "email_change" {
        if expired(user.email_change_sent_at, state) {
            return Err(invalid());
        }
        if let Some(v) = email_change(state, tx, &user, hash).await? {
            return Ok(v);
        }
    } else if matched_confirmation {
        if expired(user.confirmation_sent_at, state) {
            return Err(invalid());
        }
        users::confirm_email(tx, user.id).await?;
    } else {
        if expired(user.recovery_sent_at, state) {
            return Err(invalid());
        }
        tx.execute("update auth.users set recovery_token = '', updated_at = now() where id = $1", &[&user.id]).await?;
        tx.execute(
            "delete from auth.one_time_tokens where user_id = $1 and token_type = 'recovery_token'",
            &[&user.id],
        )
        .await?;
        if user.email_confirmed_at.is_none() {
            users::confirm_email(tx, user.id).await?;
        }
    }
    if link && hash.starts_with("pkce_") {
        let methods: &[&str] = if matched_confirmation { &["email/signup"] } else { &["recovery", "magiclink"] };
        for method in methods {
            if let Some(code) = flow_state::issue_code(tx, user.id, method).await? {
                return Ok(Verified::Code(code));
            }
        }
    }
    let (session_id, refresh) = sessions::create(tx, user.id, "otp", from).await?;
    let user = users::by_id(tx, user.id).await?.unwrap_or(user);
    Ok(Verified::Session(token_response(state, tx, &user, session_id, &refresh).await?))
}

/// Secure e-mail change: the first of the two tokens only records the confirmation; the second (or the only one
/// when secure change is off) swaps the address. `None` means "swapped, issue a session".
async fn email_change(state: &Auth, tx: &Transaction<'_>, user: &User, hash: &str) -> AuthResult<Option<Verified>> {
    let secure = state.config.secure_email_change;
    let both_pending = !user.email_change_token_new.is_empty() && !user.email_change_token_current.is_empty();
    if secure && both_pending && user.email_change_confirm_status == 0 {
        let column =
            if user.email_change_token_new == hash { "email_change_token_new" } else { "email_change_token_current" };
        let sql = format!(
            "update auth.users set {column} = '', email_change_confirm_status = 1, updated_at = now() where id = $1"
        );
        tx.execute(&sql, &[&user.id]).await?;
        return Ok(Some(Verified::HalfConfirmed));
    }
    let Some(new_email) = user.new_email.clone() else {
        return Err(AuthError::otp_expired("Email link is invalid or has expired"));
    };
    tx.execute(
        "update auth.users set email = $2::text, email_change = '', email_change_token_new = '', \
         email_change_token_current = '', email_change_confirm_status = 0, \
         email_confirmed_at = coalesce(email_confirmed_at, now()), \
         raw_user_meta_data = coalesce(raw_user_meta_data, '{}') || jsonb_build_object('email', $2::text), \
         updated_at = now() where id = $1",
        &[&user.id, &new_email],
    )
    .await?;
    tx.execute(
        "update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), \
         updated_at = now() where user_id = $1 and provider = 'email'",
        &[&user.id, &new_email],
    )
    .await?;
    tx.execute(
        "delete from auth.one_time_tokens where user_id = $1 and token_type in \
         ('email_change_token_new', 'email_change_token_current')",
        &[&user.id],
    )
    .await?;
    Ok(None)
}

pub async fn post(State(state): State<Auth>, ip: ClientIp, headers: HeaderMap, body: Bytes) -> AuthResult<Response> {
    if !state.limiter.check("verify", &ip.key(), state.config.rate_verify).await {
        return Err(AuthError::rate_limited());
    }
    let body: VerifyBody = json_body(&body)?;
    let kind = body.kind.clone().unwrap_or_default();
    if kind.is_empty() {
        return Err(AuthError::validation("Verify requires a verification type"));
    }
    let (hash, message) = post_token_hash(body)?;
    columns(&kind)?;
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let outcome = verify(&state, &tx, &kind, &hash, &origin(&ip, &headers), message, false).await?;
    tx.commit().await?;
    Ok(match outcome {
        Verified::Session(s) => Json(s).into_response(),
        Verified::HalfConfirmed | Verified::Code(_) => {
            // GoTrue sends the code as a string here.
            Json(json!({"msg": HALF_CONFIRMED, "code": "200"})).into_response()
        }
    })
}

/// GoTrue's checks of `POST /verify` parameters: a token (with the e-mail it was sent to) or a token hash (alone).
/// Returns the stored hash to look up and the message of an unknown token.
fn post_token_hash(body: VerifyBody) -> AuthResult<(String, &'static str)> {
    let present = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.is_empty());
    match (body.token.filter(|t| !t.is_empty()), body.token_hash.filter(|t| !t.is_empty())) {
        (Some(_), Some(_)) | (None, None) => {
            Err(AuthError::validation("Verify requires either a token or a token hash"))
        }
        (Some(token), None) => {
            match (present(&body.email), present(&body.phone)) {
                // No SMS provider: no phone code can match.
                (false, true) => return Err(AuthError::otp_expired("Token has expired or is invalid")),
                (true, false) => {}
                _ => {
                    return Err(AuthError::validation(
                        "Only an email address or phone number should be provided on verify",
                    ))
                }
            }
            let email =
                crate::auth::domain::email::Email::parse(body.email.as_deref().unwrap_or_default()).map_err(|_| {
                    AuthError::new(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed", "Invalid email format")
                })?;
            Ok((token_hash(email.as_str(), token.trim()), "Token has expired or is invalid"))
        }
        (None, Some(h)) => {
            if present(&body.email) || present(&body.phone) || present(&body.redirect_to) {
                return Err(AuthError::validation("Only the token_hash and type should be provided"));
            }
            Ok((h, "Email link is invalid or has expired"))
        }
    }
}

fn form(pairs: &[(&str, String)]) -> String {
    let mut ser = url::form_urlencoded::Serializer::new(String::new());
    let mut sorted = pairs.to_vec();
    sorted.sort_by(|a, b| a.0.cmp(b.0));
    for (k, v) in sorted {
        ser.append_pair(k, &v);
    }
    ser.finish()
}

fn see_other(location: String) -> Response {
    (StatusCode::SEE_OTHER, [(header::LOCATION, location)]).into_response()
}

pub async fn get(
    State(state): State<Auth>,
    ip: ClientIp,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> AuthResult<Response> {
    let cfg = &state.config;
    let redirect = choose_redirect(query.get("redirect_to").map(String::as_str), &cfg.site_url, &cfg.uri_allow_list);
    let redirect = redirect.split('#').next().unwrap_or_default().to_string();
    let error_redirect = |e: &AuthError| {
        let oauth = match e.status.as_u16() {
            400 => "invalid_request",
            401 => "unauthorized_client",
            403 => "access_denied",
            429 => "invalid_request",
            _ => "server_error",
        };
        see_other(format!(
            "{redirect}#{}",
            form(&[
                ("error", oauth.into()),
                ("error_code", e.code.into()),
                ("error_description", e.message.clone()),
                ("sb", String::new())
            ])
        ))
    };
    if !state.limiter.check("verify", &ip.key(), cfg.rate_verify).await {
        return Ok(error_redirect(&AuthError::rate_limited()));
    }
    let kind = query.get("type").cloned().unwrap_or_default();
    let hash = query.get("token").cloned().unwrap_or_default();
    // Missing parameters are answered in JSON, before any redirect, as GoTrue validates them.
    if kind.is_empty() {
        return Err(AuthError::validation("Verify requires a verification type"));
    }
    if hash.is_empty() {
        return Err(AuthError::validation("Verify requires a token or a token hash"));
    }
    if let Err(e) = columns(&kind) {
        return Ok(error_redirect(&e));
    }
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let message = "Email link is invalid or has expired";
    let outcome = match verify(&state, &tx, &kind, &hash, &origin(&ip, &headers), message, true).await {
        Ok(o) => o,
        Err(e) => return Ok(error_redirect(&e)),
    };
    tx.commit().await?;
    Ok(match outcome {
        Verified::Code(code) => {
            let separator = if redirect.contains('?') { '&' } else { '?' };
            see_other(format!("{redirect}{separator}{}", form(&[("code", code)])))
        }
        Verified::HalfConfirmed => {
            see_other(format!("{redirect}#{}", form(&[("message", HALF_CONFIRMED.into()), ("sb", String::new())])))
        }
        Verified::Session(s) => {
            let field = |k: &str| match &s[k] {
                Value::String(v) => v.clone(),
                other => other.to_string(),
            };
            see_other(format!(
                "{redirect}#{}",
                form(&[
                    ("access_token", field("access_token")),
                    ("expires_at", field("expires_at")),
                    ("expires_in", field("expires_in")),
                    ("refresh_token", field("refresh_token")),
                    ("sb", String::new()),
                    ("token_type", "bearer".into()),
                    ("type", kind.clone()),
                ])
            ))
        }
    })
}
