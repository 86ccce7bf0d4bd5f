//! User and app metadata: GoTrue's shallow merge, and the size cap that keeps every access token small. Both are
//! copied into each access token, and every API reads tokens only up to `core::identity::MAX_CREDENTIAL_BYTES`
//! (8 KiB): two objects of at most 2 KiB of JSON each, with the other claims, stay well inside it.

use crate::auth::error::{AuthError, AuthResult};
use serde_json::{Map, Value};

/// The largest `user_metadata` or `app_metadata`, as compact JSON.
pub const MAX_METADATA_BYTES: usize = 2048;

/// Which metadata a value is, for the refusal's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    User,
    App,
}

impl Field {
    fn name(self) -> &'static str {
        match self {
            Field::User => "user_metadata",
            Field::App => "app_metadata",
        }
    }
}

/// `value` when it is within the cap; otherwise GoTrue's 400 `validation_failed`.
pub fn within_limit(field: Field, value: Value) -> AuthResult<Value> {
    let size = serde_json::to_vec(&value).map(|v| v.len()).unwrap_or(usize::MAX);
    if size > MAX_METADATA_BYTES {
        let name = field.name();
        return Err(AuthError::validation(format!(
            "{name} is too large: {size} bytes of JSON, at most {MAX_METADATA_BYTES} are allowed"
        )));
    }
    Ok(value)
}

/// Shallow merge where a `null` value deletes the key (GoTrue `UpdateUserMetaData`), refused when the result is
/// over the cap.
pub fn merged(field: Field, current: &Value, update: &Map<String, Value>) -> AuthResult<Value> {
    let mut merged = current.as_object().cloned().unwrap_or_default();
    for (k, v) in update {
        if v.is_null() {
            merged.remove(k);
        } else {
            merged.insert(k.clone(), v.clone());
        }
    }
    within_limit(field, Value::Object(merged))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn merge_is_shallow_and_null_deletes() {
        let current = json!({"a": 1, "b": {"x": 1}, "c": 3});
        let update = json!({"b": {"y": 2}, "c": null, "d": 4});
        let merged = merged(Field::User, &current, update.as_object().unwrap()).unwrap();
        assert_eq!(merged, json!({"a": 1, "b": {"y": 2}, "d": 4}));
    }

    #[test]
    fn metadata_over_the_cap_is_refused_in_gotrues_words() {
        let big = json!({"bio": "x".repeat(MAX_METADATA_BYTES)});
        let refused = within_limit(Field::User, big.clone()).unwrap_err();
        assert_eq!((refused.status.as_u16(), refused.code.as_str()), (400, "validation_failed"));
        assert!(refused.message.starts_with("user_metadata is too large"), "{}", refused.message);
        let grown = merged(Field::App, &json!({"a": 1}), big.as_object().unwrap()).unwrap_err();
        assert!(grown.message.starts_with("app_metadata"));
        let fits = json!({"bio": "x".repeat(MAX_METADATA_BYTES - 20)});
        assert!(within_limit(Field::User, fits).is_ok());
        // deleting keys always brings it back under
        let shrink = json!({"bio": null});
        assert_eq!(merged(Field::User, &big, shrink.as_object().unwrap()).unwrap(), json!({}));
    }
}
