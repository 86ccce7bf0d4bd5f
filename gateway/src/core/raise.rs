//! PostgREST's `RAISE SQLSTATE 'PGRST'` contract, read once for every API: a function chooses the response with a
//! JSON `message` (the body: `code`, `message`, `details`, `hint`) and a JSON `detail` naming the status and
//! headers (`{"status":402,"headers":{"X-A":"b"}}`). Each API maps the result to its own error format.

use serde_json::{Map, Value};

/// The response a function raised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RaisedResponse {
    pub status: u16,
    /// The JSON object of the exception's message.
    pub body: Map<String, Value>,
    /// String-valued headers of the detail, in its order.
    pub headers: Vec<(String, String)>,
}

impl RaisedResponse {
    /// `None` unless the message is a JSON object and the detail a JSON object with a status (PostgREST then
    /// answers PGRST121).
    pub fn parse(message: &str, detail: Option<&str>) -> Option<Self> {
        let Ok(Value::Object(body)) = serde_json::from_str::<Value>(message) else { return None };
        let Ok(Value::Object(detail)) = serde_json::from_str::<Value>(detail?) else { return None };
        let status = detail.get("status").and_then(Value::as_u64).and_then(|s| u16::try_from(s).ok())?;
        let headers = detail
            .get("headers")
            .and_then(Value::as_object)
            .map(|h| h.iter().filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string()))).collect())
            .unwrap_or_default();
        Some(RaisedResponse { status, body, headers })
    }

    /// The body's `message`.
    pub fn message(&self) -> Option<&str> {
        self.body.get("message").and_then(Value::as_str)
    }

    /// A header's value, its name matched without regard to case.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_status_body_and_headers() {
        let r = RaisedResponse::parse(
            r#"{"code":"123","message":"Payment required"}"#,
            Some(r#"{"status":402,"headers":{"X-Powered-By":"Nerd Rage","n":1}}"#),
        )
        .unwrap();
        assert_eq!(r.status, 402);
        assert_eq!(r.message(), Some("Payment required"));
        assert_eq!(r.header("x-powered-by"), Some("Nerd Rage"));
        assert_eq!(r.headers.len(), 1, "only string values are headers");
    }

    #[test]
    fn anything_else_is_unparsable() {
        assert_eq!(RaisedResponse::parse("not json", Some(r#"{"status":400}"#)), None);
        assert_eq!(RaisedResponse::parse(r#"{"message":"m"}"#, None), None);
        assert_eq!(RaisedResponse::parse(r#"{"message":"m"}"#, Some(r#"{"headers":{}}"#)), None);
        assert_eq!(RaisedResponse::parse(r#"["m"]"#, Some(r#"{"status":400}"#)), None);
    }
}
