//! `GET /settings`: which providers and options are on (GoTrue's shape).

use crate::auth::Auth;
use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};

pub async fn handler(State(state): State<Auth>) -> Json<Value> {
    let cfg = &state.config;
    Json(json!({
        "external": {
            "anonymous_users": cfg.anonymous_enabled,
            "apple": false, "azure": false, "bitbucket": false, "discord": false, "facebook": false, "figma": false,
            "fly": false, "github": false, "gitlab": false, "google": false, "keycloak": false, "kakao": false,
            "linkedin": false, "linkedin_oidc": false, "notion": false, "spotify": false, "slack": false,
            "slack_oidc": false, "workos": false, "twitch": false, "twitter": false, "x": false, "zoom": false,
            "email": cfg.email_enabled,
            "phone": false,
        },
        "disable_signup": cfg.disable_signup,
        "mailer_autoconfirm": cfg.autoconfirm,
        "phone_autoconfirm": false,
        "sms_provider": "",
        "saml_enabled": false,
        "saml_private_key_next_configured": false,
        "passkeys_enabled": false,
    }))
}

/// `GET /health`.
pub async fn health() -> Json<Value> {
    Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "name": "GoTrue",
        "description": "GoTrue is a user registration and authentication API",
    }))
}
