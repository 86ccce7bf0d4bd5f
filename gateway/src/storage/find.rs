//! Finding an object as its reader may see it: the bucket first, as Storage's superuser (so a missing bucket says
//! so), then the row — as the caller under row-level security, or for public buckets and signed URLs as Storage.

use super::caller::Caller;
use super::db;
use super::error::{Result, StorageError};
use super::{buckets, Storage};
use axum::http::Method;
use serde_json::Value;

/// The row of an object that a read needs.
#[derive(Debug, Clone)]
pub struct ObjectRow {
    pub id: uuid::Uuid,
    pub bucket_id: String,
    pub name: String,
    pub version: Option<String>,
    pub metadata: Option<Value>,
    pub user_metadata: Option<Value>,
    pub created_at: Option<chrono::DateTime<chrono::Utc>>,
    pub updated_at: Option<chrono::DateTime<chrono::Utc>>,
}

impl ObjectRow {
    pub fn meta(&self, key: &str) -> Option<&Value> {
        self.metadata.as_ref().and_then(|m| m.get(key))
    }

    /// A text entry of the object's metadata.
    pub fn meta_text(&self, key: &str) -> Option<&str> {
        self.meta(key).and_then(Value::as_str)
    }

    pub fn meta_str(&self, key: &str) -> Option<String> {
        self.meta(key).and_then(Value::as_str).map(str::to_string)
    }
}

/// How the read is authorised.
#[derive(Debug, Clone, Copy)]
pub enum Access<'a> {
    /// As the caller's role (RLS decides), unless the bucket is public.
    Caller(&'a Caller),
    /// The bucket must be public; read as service_role.
    Public,
    /// A verified signed URL; read as service_role.
    Signed,
}

/// Finds the object, checking the bucket first (as Storage's superuser) so a missing bucket says so.
pub async fn find_object(state: &Storage, access: Access<'_>, bucket: &str, name: &str) -> Result<ObjectRow> {
    let mut client = db::client(state).await?;
    let tx = db::begin(&mut client, true).await?;
    let info = buckets::find_as_service(&tx, state, Method::GET, bucket).await?;
    match access {
        Access::Public if !info.public => return Err(StorageError::NoSuchBucket),
        // Public buckets are readable by anyone, so Storage reads them as its superuser; otherwise RLS decides.
        Access::Caller(caller) if !info.public => db::switch(&tx, caller).await?,
        _ => {}
    }
    let row = tx
        .query_opt(
            "select id, bucket_id, name, version, metadata, user_metadata, created_at, updated_at \
             from storage.objects where bucket_id = $1 and name = $2",
            &[&bucket, &name],
        )
        .await?
        .ok_or(StorageError::NoSuchKey)?;
    tx.commit().await?;
    Ok(ObjectRow {
        id: row.get(0),
        bucket_id: row.get(1),
        name: row.get(2),
        version: row.get(3),
        metadata: row.get(4),
        user_metadata: row.get(5),
        created_at: row.get(6),
        updated_at: row.get(7),
    })
}
