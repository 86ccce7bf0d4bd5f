//! GoTrue's `AccessTokenResponse`, the body of every call that starts or refreshes a session. Fields are declared
//! in the order they are serialised (alphabetical, as before).

use serde::Serialize;
use serde_json::Value;

/// A session as the client receives it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TokenResponse {
    pub access_token: String,
    pub expires_at: i64,
    pub expires_in: i64,
    pub refresh_token: String,
    pub token_type: &'static str,
    pub user: Value,
    /// A password that signed in but is weaker than the policy now asks (password grant only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weak_password: Option<WeakPasswordNote>,
}

/// `weak_password` of a sign-in response: GoTrue's message and reasons.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WeakPasswordNote {
    pub message: String,
    pub reasons: Option<Vec<&'static str>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn serialises_as_the_json_literal_did() {
        let mut r = TokenResponse {
            access_token: "a.b.c".into(),
            expires_at: 20,
            expires_in: 3600,
            refresh_token: "abcdefghijkl".into(),
            token_type: "bearer",
            user: json!({"id": "u"}),
            weak_password: None,
        };
        let literal = json!({"access_token": "a.b.c", "token_type": "bearer", "expires_in": 3600, "expires_at": 20,
            "refresh_token": "abcdefghijkl", "user": {"id": "u"}});
        assert_eq!(serde_json::to_string(&r).unwrap(), literal.to_string());
        r.weak_password = Some(WeakPasswordNote { message: "short".into(), reasons: Some(vec!["length"]) });
        let mut with_note = literal;
        with_note["weak_password"] = json!({"message": "short", "reasons": ["length"]});
        assert_eq!(serde_json::to_string(&r).unwrap(), with_note.to_string());
    }
}
