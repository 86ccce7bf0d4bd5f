//! The S3 backend (`object_store`): object versions under keys derived from a hash of (bucket, name), as in the
//! file backend. Uploads arrive as fsynced local temporary files and are sent with a streaming multipart writer,
//! so memory stays bounded; reads stream ranges straight from S3.

use super::config::S3Config;
use bytes::Bytes;
use futures::stream::BoxStream;
use futures::{StreamExt, TryStreamExt};
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::buffered::BufWriter;
use object_store::path::Path;
use object_store::{GetOptions, GetRange, ObjectStore};
use std::io;
use std::sync::Arc;
use tokio::io::AsyncWriteExt;

#[derive(Debug, Clone)]
pub struct S3Backend {
    store: Arc<AmazonS3>,
}

fn io_err(e: object_store::Error) -> io::Error {
    match e {
        object_store::Error::NotFound { .. } => io::Error::new(io::ErrorKind::NotFound, e.to_string()),
        other => io::Error::other(other.to_string()),
    }
}

impl S3Backend {
    pub fn new(s: &S3Config) -> anyhow::Result<Self> {
        if s.bucket.is_empty() {
            anyhow::bail!("STORAGE_BACKEND=s3 needs GLOBAL_S3_BUCKET");
        }
        let mut b = AmazonS3Builder::new()
            .with_bucket_name(&s.bucket)
            .with_region(&s.region)
            .with_virtual_hosted_style_request(!s.force_path_style);
        if let Some(endpoint) = &s.endpoint {
            b = b.with_endpoint(endpoint).with_allow_http(endpoint.starts_with("http://"));
        }
        if let (Some(k), Some(secret)) = (&s.access_key_id, &s.secret_access_key) {
            b = b.with_access_key_id(k).with_secret_access_key(secret);
        }
        Ok(S3Backend { store: Arc::new(b.build()?) })
    }

    fn path(key: &str) -> Path {
        Path::from(key)
    }

    /// Sends a finished local file as `key`.
    pub async fn put_file(&self, file: &std::path::Path, key: &str) -> io::Result<()> {
        let mut reader = tokio::fs::File::open(file).await?;
        let mut writer = BufWriter::new(self.store.clone() as Arc<dyn ObjectStore>, Self::path(key));
        tokio::io::copy(&mut reader, &mut writer).await?;
        writer.shutdown().await
    }

    pub async fn size(&self, key: &str) -> io::Result<u64> {
        self.store.head(&Self::path(key)).await.map(|m| m.size).map_err(io_err)
    }

    pub async fn stream(&self, key: &str, start: u64, len: u64) -> io::Result<BoxStream<'static, io::Result<Bytes>>> {
        let options = GetOptions { range: Some(GetRange::Bounded(start..start + len)), ..Default::default() };
        let result = self.store.get_opts(&Self::path(key), options).await.map_err(io_err)?;
        Ok(result.into_stream().map_err(io_err).boxed())
    }

    pub async fn delete(&self, key: &str) -> io::Result<()> {
        match self.store.delete(&Self::path(key)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(io_err(e)),
        }
    }

    pub async fn copy(&self, from: &str, to: &str) -> io::Result<()> {
        self.store.copy(&Self::path(from), &Self::path(to)).await.map_err(io_err)
    }

    pub async fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        self.store.rename(&Self::path(from), &Self::path(to)).await.map_err(io_err)
    }
}
