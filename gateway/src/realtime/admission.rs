//! A `phx_join`: the payload as both clients send it (`config.broadcast`, `config.presence`,
//! `config.postgres_changes`, `config.private`, `access_token`), and the checks in Realtime's order — topic,
//! channels per socket, joins per second, token, private-channel read policies — each failure with Realtime's
//! `"<Code>: <message>"` reason.

use super::channel_policies::{self, AuthorizationError, Policies};
use super::credentials::{self, Credentials};
use super::RealtimeState;
use serde_json::{Map, Value};
use sha2::Digest;

/// The channel options of a join payload. Schema errors never refuse a join: unreadable parts take defaults.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JoinConfig {
    pub ack: bool,
    pub self_broadcast: bool,
    pub presence_key: String,
    pub presence_enabled: bool,
    pub private: bool,
    /// The `postgres_changes` elements (nulls dropped), exactly as received.
    pub postgres_changes: Vec<Value>,
    pub access_token: Option<String>,
}

/// Booleans, or the strings `"true"`/`"false"` (Realtime's FlexibleBoolean).
fn flag(value: Option<&Value>) -> bool {
    match value {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => s.eq_ignore_ascii_case("true"),
        _ => false,
    }
}

impl JoinConfig {
    pub fn parse(payload: &Value) -> JoinConfig {
        let config = payload.get("config").cloned().unwrap_or(Value::Null);
        let broadcast = config.get("broadcast");
        let presence = config.get("presence");
        let presence_key = match presence.and_then(|p| p.get("key")) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        };
        let postgres_changes = match config.get("postgres_changes") {
            Some(Value::Array(items)) => items.iter().filter(|v| !v.is_null()).cloned().collect(),
            _ => vec![],
        };
        let token = payload.get("access_token").or_else(|| payload.get("user_token"));
        JoinConfig {
            ack: flag(broadcast.and_then(|b| b.get("ack"))),
            self_broadcast: flag(broadcast.and_then(|b| b.get("self"))),
            presence_key,
            presence_enabled: flag(presence.and_then(|p| p.get("enabled"))),
            private: flag(config.get("private")),
            postgres_changes,
            access_token: token.and_then(Value::as_str).map(str::to_string),
        }
    }

    /// The join reply's `postgres_changes`: each element unchanged, in order, with an integer `id`.
    pub fn postgres_changes_reply(&self) -> Value {
        Value::Array(
            self.postgres_changes
                .iter()
                .map(|element| {
                    let mut echoed = element.as_object().cloned().unwrap_or_default();
                    echoed.insert("id".into(), Value::from(binding_id(element)));
                    Value::Object(echoed)
                })
                .collect(),
        )
    }
}

/// A stable integer per binding (identical bindings get identical ids, as Realtime's `phash2`), 0…2²⁷−1.
pub fn binding_id(element: &Value) -> u32 {
    let digest = sha2::Sha256::digest(element.to_string().as_bytes());
    u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]]) & ((1 << 27) - 1)
}

/// A join that passed its checks.
#[derive(Debug, Clone)]
pub struct Admitted {
    pub caller: Credentials,
    pub policies: Policies,
}

/// A refused join: the reply's reason, and whether the socket must close too (join rate).
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub reason: String,
    pub close_socket: bool,
}

impl Refusal {
    pub fn new(reason: impl Into<String>) -> Self {
        Refusal { reason: reason.into(), close_socket: false }
    }
}

/// The token a channel runs under: `access_token` unless absent or an `sb_` key, else the socket's.
pub fn channel_token<'a>(config: &'a JoinConfig, socket_token: &'a str) -> &'a str {
    match config.access_token.as_deref() {
        Some(t) if !t.starts_with("sb_") => t,
        _ => socket_token,
    }
}

/// The checks that need the key set or the database.
pub async fn admit(
    rt: &RealtimeState,
    sub_topic: &str,
    config: &JoinConfig,
    socket_caller: &Credentials,
    headers_json: &str,
) -> Result<Admitted, Refusal> {
    let token = channel_token(config, &socket_caller.token);
    let caller = if token == socket_caller.token {
        socket_caller.clone()
    } else {
        rt.verify(token).map_err(|e| Refusal::new(e.join_reason()))?
    };
    if let Some(exp) = caller.exp {
        if exp <= chrono::Utc::now().timestamp() {
            return Err(Refusal::new(
                credentials::TokenError::Expired { seconds_ago: chrono::Utc::now().timestamp() - exp }.join_reason(),
            ));
        }
    }
    if !config.private {
        return Ok(Admitted { caller, policies: Policies::PUBLIC });
    }
    match channel_policies::authorize(&rt.pool, sub_topic, &caller, headers_json, config.presence_enabled).await {
        Ok(p) if p.can_read() => Ok(Admitted { caller, policies: p }),
        Ok(_) | Err(AuthorizationError::Policy(_)) => Err(Refusal::new(format!(
            "Unauthorized: You do not have permissions to read from this Channel topic: {sub_topic}"
        ))),
        Err(AuthorizationError::Unavailable) => {
            Err(Refusal::new("UnableToConnectToProject: Realtime was unable to connect to the project database"))
        }
    }
}

/// The `x-*` request headers as a JSON object (what `request.headers` gets on Supabase).
pub fn x_headers_json(headers: &http::HeaderMap) -> String {
    let mut map = Map::new();
    for (name, value) in headers {
        if name.as_str().starts_with("x-") {
            if let Ok(v) = value.to_str() {
                map.insert(name.as_str().to_string(), Value::String(v.to_string()));
            }
        }
    }
    Value::Object(map).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_what_supabase_js_and_supabase_py_send() {
        let js = json!({"config":{"broadcast":{"self":true,"ack":true},"presence":{"key":"user-1","enabled":true},
            "postgres_changes":[{"event":"INSERT","schema":"public","table":"todos","filter":"id=eq.1"},{"event":"*","schema":"public","table":"notes"}],"private":false}});
        let c = JoinConfig::parse(&js);
        assert!(c.ack && c.self_broadcast && c.presence_enabled && !c.private);
        assert_eq!((c.presence_key.as_str(), c.postgres_changes.len(), c.access_token), ("user-1", 2, None));
        let py = json!({"config":{"broadcast":null,"presence":{"key":"","enabled":"true"},"private":"true",
            "postgres_changes":[null]},"access_token":"anon-key"});
        let c = JoinConfig::parse(&py);
        assert!(!c.ack && c.presence_enabled && c.private && c.postgres_changes.is_empty());
        assert_eq!(c.access_token.as_deref(), Some("anon-key"));
        assert_eq!(JoinConfig::parse(&json!({})), JoinConfig::default());
    }

    #[test]
    fn reply_echoes_bindings_unchanged_with_integer_ids() {
        let c = JoinConfig::parse(&json!({"config":{"postgres_changes":[
            {"event":"INSERT","table":"todos"},{"event":"*","schema":"public","table":"notes","extra":[1]},{"event":"INSERT","table":"todos"}]}}));
        let reply = c.postgres_changes_reply();
        let items = reply.as_array().unwrap();
        assert_eq!(items.len(), 3);
        assert_eq!(items[0].as_object().unwrap().len(), 3, "no schema added to a table-only binding");
        assert_eq!(items[1]["extra"], json!([1]));
        assert!(items.iter().all(|i| i["id"].is_u64() && i["id"].as_u64().unwrap() < 1 << 27));
        assert_eq!(items[0]["id"], items[2]["id"], "identical bindings share an id");
        assert_ne!(items[0]["id"], items[1]["id"]);
        assert_eq!(JoinConfig::default().postgres_changes_reply(), json!([]));
    }

    #[test]
    fn sb_keys_and_absent_tokens_use_the_sockets_token() {
        let mut c = JoinConfig::default();
        assert_eq!(channel_token(&c, "socket"), "socket");
        c.access_token = Some("sb_publishable_x".into());
        assert_eq!(channel_token(&c, "socket"), "socket");
        c.access_token = Some("a.b.c".into());
        assert_eq!(channel_token(&c, "socket"), "a.b.c");
    }
}
