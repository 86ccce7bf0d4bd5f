//! Key lifecycle: standby keys are published, rotation keeps old tokens valid until the key is revoked, running
//! gateways pick changes up, and `GOTRUE_JWT_KEYS` (an RS256 key, as the auth-js suite uses) replaces stored keys.

use crate::auth_helpers::*;
use crate::helpers::spawn_app_with;
use jwks::{KeyAlgorithm, KeyStatus, SigningKey};
use reqwest::Method;
use serde_json::{json, Value};
use std::time::Duration;

async fn jwks_kids(app: &crate::helpers::TestApp) -> Vec<String> {
    let doc: Value =
        app.http.get(app.url("/auth/v1/.well-known/jwks.json")).send().await.unwrap().json().await.unwrap();
    for k in doc["keys"].as_array().unwrap() {
        for private in ["d", "p", "q", "dp", "dq", "qi", "k"] {
            assert!(k.get(private).is_none(), "private member {private} published");
        }
        assert_eq!(k["key_ops"], json!(["verify"]));
        assert_eq!(k["use"], "sig");
    }
    doc["keys"].as_array().unwrap().iter().map(|k| k["kid"].as_str().unwrap().to_string()).collect()
}

async fn until<F: std::future::Future<Output = bool>>(mut check: impl FnMut() -> F) {
    for _ in 0..100 {
        if check().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("condition not reached");
}

#[tokio::test]
async fn rotation_keeps_old_tokens_until_revoked() {
    let app = spawn_app_with(&[("GOTRUE_MAILER_AUTOCONFIRM", "true"), ("GATEWAY_KEYS_REFRESH_SECS", "1")]).await;
    let old_kid = app.state.core.keys.load().current().unwrap().kid().to_string();
    let old = signup_session(&app, "ann@example.com", "secret123").await;
    let mut admin = app.admin_client().await;

    let standby = gateway::core::keys::generate_standby(&admin, KeyAlgorithm::Rs256).await.unwrap();
    until(|| async { jwks_kids(&app).await.contains(&standby.kid().to_string()) }).await;
    let new_kid = gateway::core::keys::rotate(&mut admin, KeyAlgorithm::Es256).await.unwrap();
    assert_eq!(new_kid, standby.kid());
    until(|| async { app.state.core.keys.load().current().map(|k| k.kid().to_string()) == Some(new_kid.clone()) })
        .await;

    let new = sign_in(&app, "ann@example.com", "secret123").await.body;
    let token = new["access_token"].as_str().unwrap();
    assert!(token.starts_with("eyJ"));
    assert_eq!(call(&app, Method::GET, "/user", Some(token), None).await.status, 200);
    assert_eq!(
        call(&app, Method::GET, "/user", old["access_token"].as_str(), None).await.status,
        200,
        "previous key still verifies"
    );
    assert!(jwks_kids(&app).await.contains(&old_kid));

    assert!(gateway::core::keys::revoke(&admin, &new_kid).await.is_err(), "the current key cannot be revoked");
    gateway::core::keys::revoke(&admin, &old_kid).await.unwrap();
    until(|| async { !jwks_kids(&app).await.contains(&old_kid) }).await;
    let res = call(&app, Method::GET, "/user", old["access_token"].as_str(), None).await;
    assert_eq!((res.status, res.body["code"].as_str()), (403, Some("bad_jwt")));
}

#[tokio::test]
async fn gotrue_jwt_keys_sign_with_rs256_and_publish_the_public_key() {
    let key = SigningKey::generate(KeyAlgorithm::Rs256, KeyStatus::Current).unwrap();
    let keys = json!([key.to_private_jwk().unwrap()]).to_string();
    let app = spawn_app_with(&[("GOTRUE_JWT_KEYS", &keys), ("GOTRUE_MAILER_AUTOCONFIRM", "true")]).await;
    assert_eq!(jwks_kids(&app).await, vec![key.kid().to_string()]);
    let s = signup_session(&app, "ann@example.com", "secret123").await;
    let set = jwks::KeySet::new(vec![key.clone()]);
    let claims: Value = set.verify(s["access_token"].as_str().unwrap(), &jwks::VerifyOptions::default()).unwrap();
    assert_eq!(claims["email"], "ann@example.com");
}
