//! The access token's claims: the ones Auth signs (GoTrue's `AccessTokenClaims`) and the few it reads back from a
//! presented token. Fields are declared in the order they are serialised (alphabetical, as before).

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use uuid::Uuid;

/// The claims of an access token Auth issues.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AccessTokenClaims {
    pub aal: &'static str,
    pub amr: Vec<AmrEntry>,
    pub app_metadata: Value,
    pub aud: String,
    pub email: String,
    pub exp: i64,
    pub iat: i64,
    pub is_anonymous: bool,
    pub iss: String,
    pub phone: String,
    pub role: String,
    pub session_id: Uuid,
    pub sub: Uuid,
    pub user_metadata: Value,
}

/// One `amr` entry: how the session was authenticated, and when.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AmrEntry {
    pub method: String,
    pub timestamp: i64,
}

/// What Auth reads from a verified bearer token, whoever issued it: a claim of another type counts as absent.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct PresentedClaims {
    #[serde(default, deserialize_with = "string")]
    pub sub: Option<String>,
    /// `aud` as a string or a list (non-string entries dropped).
    #[serde(default, deserialize_with = "audiences")]
    pub aud: Vec<String>,
    #[serde(default, deserialize_with = "string")]
    pub session_id: Option<String>,
    #[serde(default, deserialize_with = "string")]
    pub role: Option<String>,
}

fn string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) => Some(s),
        _ => None,
    })
}

fn audiences<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) => vec![s],
        Value::Array(list) => list.into_iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
        _ => Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn issued_claims_serialise_as_the_json_literal_did() {
        let (sub, session_id) = (Uuid::new_v4(), Uuid::new_v4());
        let claims = AccessTokenClaims {
            aal: "aal1",
            amr: vec![AmrEntry { method: "password".into(), timestamp: 7 }],
            app_metadata: json!({"provider": "email"}),
            aud: "authenticated".into(),
            email: "a@example.com".into(),
            exp: 20,
            iat: 10,
            is_anonymous: false,
            iss: "http://x/auth/v1".into(),
            phone: String::new(),
            role: "authenticated".into(),
            session_id,
            sub,
            user_metadata: json!({}),
        };
        let literal = json!({
            "iss": "http://x/auth/v1", "sub": sub, "aud": "authenticated", "exp": 20, "iat": 10,
            "email": "a@example.com", "phone": "", "app_metadata": {"provider": "email"}, "user_metadata": {},
            "role": "authenticated", "aal": "aal1", "amr": [{"method": "password", "timestamp": 7}],
            "session_id": session_id, "is_anonymous": false,
        });
        assert_eq!(serde_json::to_string(&claims).unwrap(), literal.to_string());
    }

    #[test]
    fn presented_claims_ignore_claims_of_another_type() {
        let read = |v: Value| serde_json::from_value::<PresentedClaims>(v).unwrap();
        let c = read(json!({"sub": "u", "aud": ["x", 1, "authenticated"], "role": "admin", "session_id": 5}));
        assert_eq!(c.sub.as_deref(), Some("u"));
        assert_eq!(c.aud, vec!["x", "authenticated"]);
        assert_eq!((c.role.as_deref(), c.session_id), (Some("admin"), None));
        assert_eq!(
            read(json!({"sub": 1, "aud": "a"})),
            PresentedClaims { aud: vec!["a".into()], ..Default::default() }
        );
    }
}
