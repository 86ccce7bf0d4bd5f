//! A bucket's settings as create and update send them, checked as Storage checks them: the schema, the MIME type
//! patterns, and size limits (bytes or `20MB`-style) within the global limit.

use crate::storage::config::parse_size;
use crate::storage::error::{Result, StorageError};
use crate::storage::json::parse_body;
use crate::storage::schema::{Prop, Schema};
use axum::body::Bytes;
use serde_json::Value;

const MIME: Schema = Schema::string();
const BUCKET_PROPS: [Prop; 6] = [
    Prop::new("name", Schema::string()),
    Prop::new("id", Schema::string()),
    Prop::new("public", Schema::boolean()),
    Prop::new("type", Schema::string().values(&["STANDARD", "ANALYTICS"])),
    Prop::new("file_size_limit", Schema::size_limit()),
    Prop::new("allowed_mime_types", Schema::array(&MIME).nullable()),
];
/// Storage's `createBucketBody`: `name` required.
pub(super) const CREATE_BODY: Schema = Schema::object(&BUCKET_PROPS).required(&["name"]);
/// Storage's `updateBucketBody`: at least one of `public`, `file_size_limit`, `allowed_mime_types`.
pub(super) const UPDATE_BODY: Schema =
    Schema::object(&BUCKET_PROPS).any_of_required(&["public", "file_size_limit", "allowed_mime_types"]);

/// A bucket's settings as sent; `Some(None)` is an explicit `null` (which clears a limit or a type list).
#[derive(Debug, Default)]
pub(super) struct BucketBody {
    pub(super) id: Option<String>,
    pub(super) name: Option<String>,
    pub(super) public: Option<bool>,
    pub(super) kind: Option<String>,
    pub(super) file_size_limit: Option<Option<i64>>,
    pub(super) allowed_mime_types: Option<Option<Vec<String>>>,
}

impl BucketBody {
    pub(super) fn parse(body: &Bytes, schema: &Schema, global_limit: u64) -> Result<Self> {
        let mut v: Value = parse_body(body)?;
        if v.as_object().is_some_and(|o| o.is_empty()) && schema.required.is_empty() {
            return Err(StorageError::Validation("body must NOT have fewer than 1 properties".into()));
        }
        crate::storage::schema::check(&mut v, schema, "body")?;
        let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let mime_types = match v.get("allowed_mime_types") {
            None => None,
            Some(Value::Null) => Some(None),
            Some(list) => Some(Some(allowed_mime_types(list)?)),
        };
        Ok(BucketBody {
            id: text("id"),
            name: text("name"),
            public: v.get("public").and_then(Value::as_bool),
            kind: text("type"),
            file_size_limit: v.get("file_size_limit").map(|l| size_limit(l, global_limit)).transpose()?,
            allowed_mime_types: mime_types,
        })
    }
}

/// The listed types without empty entries, each a `type/subtype` (optionally `; charset=…`) or ending in `*`.
fn allowed_mime_types(list: &Value) -> Result<Vec<String>> {
    let types: Vec<String> = list
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|t| !t.is_empty())
        .map(String::from)
        .collect();
    match types.iter().find(|t| !valid_mime_pattern(t)) {
        Some(bad) => Err(StorageError::InvalidMimeType(bad.clone())),
        None => Ok(types),
    }
}

fn valid_mime_pattern(t: &str) -> bool {
    let token = |p: &str| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || "-+.".contains(c));
    let plain = |m: &str| m.split_once('/').is_some_and(|(a, b)| token(a) && token(b));
    let with_charset = t.split_once(';').is_some_and(|(m, rest)| {
        let cs = rest.trim_start().strip_prefix("charset=");
        plain(m) && cs.is_some_and(|c| !c.is_empty() && c.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-'))
    });
    t.len() <= 1000 && (plain(t) || with_charset || t.ends_with('*'))
}

/// A bucket limit in bytes: a number or a size such as `20MB`; above the global limit is Storage's 413.
fn size_limit(v: &Value, global_limit: u64) -> Result<Option<i64>> {
    let bytes = parse_size(v).ok_or_else(|| {
        StorageError::InvalidRequest("Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B".into())
    })?;
    match bytes {
        Some(n) if n > global_limit => Err(StorageError::EntityTooLarge),
        other => Ok(other.map(|n| n.min(i64::MAX as u64) as i64)),
    }
}
