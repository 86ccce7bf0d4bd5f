//! Reading an upload body (raw, or `multipart/form-data` as supabase-js sends Blobs and FormData) into a fsynced
//! temporary file with bounded memory: chunks are written as they arrive, the byte count is checked against the
//! limit on every chunk, and only the first bytes are kept for sniffing.

use super::backend::{Backend, TempFile};
use super::error::{Result, StorageError};
use super::sniff::SNIFF_BYTES;
use axum::body::{Body, Bytes};
use axum::http::HeaderMap;
use base64::Engine;
use futures::{Stream, StreamExt};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// `x-upsert: true`, compared exactly as Storage does (`"True"` or `"1"` is not an upsert).
pub fn upsert_header(headers: &HeaderMap) -> bool {
    headers.get("x-upsert").and_then(|v| v.to_str().ok()) == Some("true")
}

/// An upload written to a temporary file, with what the database row needs.
pub struct Staged {
    pub tmp: TempFile,
    pub size: u64,
    pub content_type: String,
    pub cache_control: String,
    pub user_metadata: Option<Value>,
    pub head: Vec<u8>,
    pub etag: String,
}

struct Sink {
    tmp: TempFile,
    size: u64,
    limit: u64,
    head: Vec<u8>,
    hash: Sha256,
}

impl Sink {
    async fn push(&mut self, chunk: &[u8]) -> Result<()> {
        self.size += chunk.len() as u64;
        if self.size > self.limit {
            return Err(StorageError::EntityTooLarge);
        }
        if self.head.len() < SNIFF_BYTES {
            let take = (SNIFF_BYTES - self.head.len()).min(chunk.len());
            self.head.extend_from_slice(&chunk[..take]);
        }
        self.hash.update(chunk);
        self.tmp.write(chunk).await.map_err(|e| StorageError::from_io("write upload", e))
    }

    async fn finish(mut self) -> Result<(TempFile, u64, Vec<u8>, String)> {
        self.tmp.finish().await.map_err(|e| StorageError::from_io("fsync upload", e))?;
        let digest = self.hash.finalize();
        let etag = format!("\"{}\"", crate::core::hex::lower(&digest[..16]));
        Ok((self.tmp, self.size, self.head, etag))
    }
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Storage's limit on a multipart `metadata` field.
const MAX_METADATA_BYTES: usize = 64 * 1024;

/// `x-metadata`: base64 of JSON (raw uploads, copies). As in Storage, a value that does not decode is ignored.
pub fn metadata_header(headers: &HeaderMap) -> Option<Value> {
    let raw = header(headers, "x-metadata")?;
    let bytes = base64::engine::general_purpose::STANDARD.decode(raw.trim()).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Reads the request body into a temporary file of `backend`, refusing more than `limit` bytes.
pub async fn stage(backend: &Backend, headers: &HeaderMap, body: Body, limit: u64) -> Result<Staged> {
    let content_type = header(headers, "content-type").unwrap_or("application/octet-stream").to_string();
    let tmp = backend.temp_file().await.map_err(|e| StorageError::from_io("temp file", e))?;
    let sink = Sink { tmp, size: 0, limit, head: Vec::new(), hash: Sha256::new() };
    if content_type.to_ascii_lowercase().starts_with("multipart/form-data") {
        return stage_multipart(sink, &content_type, body.into_data_stream()).await;
    }
    let mut sink = sink;
    let mut stream = body.into_data_stream();
    if crate::core::body::declared_length(headers).is_some_and(|n| n as u64 > limit) {
        crate::core::body::drain_stream(&mut stream).await;
        return Err(StorageError::EntityTooLarge);
    }
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| StorageError::InvalidRequest(format!("could not read the body: {e}")))?;
        if let Err(e) = sink.push(&chunk).await {
            if matches!(e, StorageError::EntityTooLarge) {
                crate::core::body::drain_stream(&mut stream).await;
            }
            return Err(e);
        }
    }
    let (tmp, size, head, etag) = sink.finish().await?;
    Ok(Staged {
        tmp,
        size,
        content_type,
        cache_control: header(headers, "cache-control").unwrap_or("no-cache").to_string(),
        user_metadata: metadata_header(headers),
        head,
        etag,
    })
}

/// The form fields Storage reads before the file: `cacheControl`, `contentType`, and `metadata` (or
/// `userMetadata`), JSON that is ignored when it does not parse. Other fields are ignored.
#[derive(Default)]
struct FormFields {
    cache_control: Option<String>,
    content_type: Option<String>,
    metadata: Option<String>,
}

impl FormFields {
    fn set(&mut self, name: &str, value: String) {
        match name {
            "cacheControl" => self.cache_control = Some(value.trim().to_string()),
            "contentType" => self.content_type = Some(value.trim().to_string()),
            "metadata" => self.metadata = Some(value),
            "userMetadata" if self.metadata.is_none() => self.metadata = Some(value),
            _ => {}
        }
    }
}

/// A form field's value (bounded: fields are metadata, not contents).
async fn field_value(field: &mut multer::Field<'_>, bad: impl Fn(multer::Error) -> StorageError) -> Result<String> {
    let mut value = Vec::new();
    while let Some(chunk) = field.chunk().await.map_err(&bad)? {
        value.extend_from_slice(&chunk);
        if value.len() > MAX_METADATA_BYTES {
            return Err(StorageError::EntityTooLarge);
        }
    }
    Ok(String::from_utf8_lossy(&value).into_owned())
}

async fn stage_multipart<S, E>(mut sink: Sink, content_type: &str, stream: S) -> Result<Staged>
where
    S: Stream<Item = std::result::Result<Bytes, E>> + Send + 'static,
    E: Into<Box<dyn std::error::Error + Send + Sync>> + 'static,
{
    let boundary = multer::parse_boundary(content_type)
        .map_err(|_| StorageError::InvalidRequest("invalid multipart boundary".into()))?;
    let limits = multer::Constraints::new()
        .size_limit(multer::SizeLimit::new().whole_stream(sink.limit.saturating_add(1024 * 1024)));
    let mut form = multer::Multipart::with_constraints(stream, boundary, limits);
    let bad = |e: multer::Error| match e {
        multer::Error::StreamSizeExceeded { .. } | multer::Error::FieldSizeExceeded { .. } => {
            StorageError::EntityTooLarge
        }
        other => StorageError::InvalidRequest(format!("invalid multipart body: {other}")),
    };
    let mut fields = FormFields::default();
    while let Some(mut field) = form.next_field().await.map_err(bad)? {
        // As busboy decides: a part with a `filename` (even empty) is a file; any other part is a field.
        if field.file_name().is_none() {
            let name = field.name().unwrap_or_default().to_string();
            fields.set(&name, field_value(&mut field, bad).await?);
            continue;
        }
        // The first file part is the object; later parts are ignored, as Storage does. A `contentType` field sent
        // before it overrides the part's own type.
        let part_type = fields.content_type.clone().filter(|t| !t.is_empty()).unwrap_or_else(|| {
            field.content_type().map(|m| m.to_string()).unwrap_or_else(|| "text/plain;charset=UTF-8".into())
        });
        while let Some(chunk) = field.chunk().await.map_err(bad)? {
            sink.push(&chunk).await?;
        }
        let (tmp, size, head, etag) = sink.finish().await?;
        let cache_control = match fields.cache_control.filter(|t| !t.is_empty()) {
            Some(t) => format!("max-age={t}"),
            None => "no-cache".into(),
        };
        let user_metadata = fields.metadata.and_then(|m| serde_json::from_str(&m).ok());
        return Ok(Staged { tmp, size, content_type: part_type, cache_control, user_metadata, head, etag });
    }
    Err(StorageError::InvalidRequest("No content provided".into()))
}
