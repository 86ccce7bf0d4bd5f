//! `POST /verify` (token + e-mail, or token hash) and `GET /verify` (the e-mail link: 303 to `redirect_to` with
//! the session in the fragment, or the error): sign-up confirmation, recovery, magic link, e-mail change
//! (redeemed in `token`).

mod token;

use token::{columns, verify, Verified};

use crate::auth::domain::redirect::choose_redirect;
use crate::auth::domain::token_response::TokenResponse;
use crate::auth::domain::tokens::token_hash;
use crate::auth::error::{AuthError, AuthResult, ErrorCode};
use crate::auth::request::{json_body, origin, ClientIp};
use crate::auth::store::begin;
use crate::auth::Auth;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;
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

pub async fn post(State(state): State<Auth>, ip: ClientIp, headers: HeaderMap, body: Bytes) -> AuthResult<Response> {
    state.admit("verify", &ip.key(), state.config.rate_verify).await?;
    let body: VerifyBody = json_body(&body)?;
    let kind = body.kind.clone().unwrap_or_default();
    if kind.is_empty() {
        return Err(AuthError::validation("Verify requires a verification type"));
    }
    let (hash, unknown) = post_token_hash(body)?;
    columns(&kind)?;
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let outcome = verify(&state, &tx, &kind, &hash, &origin(&ip, &headers), unknown, false).await?;
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
/// Returns the stored hash to look up and the answer to an unknown one.
fn post_token_hash(body: VerifyBody) -> AuthResult<(String, AuthError)> {
    let present = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.is_empty());
    match (body.token.filter(|t| !t.is_empty()), body.token_hash.filter(|t| !t.is_empty())) {
        (Some(_), Some(_)) | (None, None) => {
            Err(AuthError::validation("Verify requires either a token or a token hash"))
        }
        (Some(token), None) => {
            match (present(&body.email), present(&body.phone)) {
                // No SMS provider: no phone code can match.
                (false, true) => return Err(ErrorCode::OtpExpired.into()),
                (true, false) => {}
                _ => {
                    return Err(AuthError::validation(
                        "Only an email address or phone number should be provided on verify",
                    ))
                }
            }
            let email = crate::auth::domain::email::Email::parse(body.email.as_deref().unwrap_or_default())
                .map_err(|_| AuthError::validation("Invalid email format").at(StatusCode::UNPROCESSABLE_ENTITY))?;
            Ok((token_hash(email.as_str(), token.trim()), ErrorCode::OtpExpired.into()))
        }
        (None, Some(h)) => {
            if present(&body.email) || present(&body.phone) || present(&body.redirect_to) {
                return Err(AuthError::validation("Only the token_hash and type should be provided"));
            }
            Ok((h, AuthError::link_expired()))
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
    if !state.limiter.check("verify", &ip.key(), cfg.rate_verify).await {
        return Ok(error_redirect(&redirect, &AuthError::rate_limited()));
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
        return Ok(error_redirect(&redirect, &e));
    }
    let mut client = state.core.pool.get().await?;
    let tx = begin(&mut client).await?;
    let outcome = match verify(&state, &tx, &kind, &hash, &origin(&ip, &headers), AuthError::link_expired(), true).await
    {
        Ok(o) => o,
        Err(e) => return Ok(error_redirect(&redirect, &e)),
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
        Verified::Session(s) => session_redirect(&redirect, &s, &kind),
    })
}

/// The link's failure, in the redirect's fragment as an OAuth error.
fn error_redirect(redirect: &str, e: &AuthError) -> Response {
    e.log(); // a redirect is not rendered by `IntoResponse`, so the logging layer does not see it
    let oauth = match e.status.as_u16() {
        400 => "invalid_request",
        401 => "unauthorized_client",
        403 => "access_denied",
        429 => "invalid_request",
        _ => "server_error",
    };
    let fragment = form(&[
        ("error", oauth.into()),
        ("error_code", e.code.as_str().into()),
        ("error_description", e.message.clone()),
        ("sb", String::new()),
    ]);
    see_other(format!("{redirect}#{fragment}"))
}

/// The session, in the redirect's fragment as GoTrue puts it there.
fn session_redirect(redirect: &str, s: &TokenResponse, kind: &str) -> Response {
    let fragment = form(&[
        ("access_token", s.access_token.clone()),
        ("expires_at", s.expires_at.to_string()),
        ("expires_in", s.expires_in.to_string()),
        ("refresh_token", s.refresh_token.clone()),
        ("sb", String::new()),
        ("token_type", s.token_type.into()),
        ("type", kind.to_string()),
    ]);
    see_other(format!("{redirect}#{fragment}"))
}
