//! The file backend: object contents in a folder, one file per object version. File names are derived from a
//! hash of (bucket, name), so an object name never becomes a filesystem path. Writes go to a temporary file that
//! is fsynced and then renamed into place, so a reader never sees a partial object.

use sha2::{Digest, Sha256};
use std::io;
use std::path::{Path, PathBuf};
use tokio::io::AsyncWriteExt;

#[derive(Debug, Clone)]
pub struct FileBackend {
    root: PathBuf,
}

/// A temporary file being written; removed on drop unless committed.
pub struct TempFile {
    pub path: PathBuf,
    pub file: Option<tokio::fs::File>,
    armed: bool,
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if self.armed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl TempFile {
    pub async fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self.file.as_mut() {
            Some(f) => f.write_all(bytes).await,
            None => Err(io::Error::other("temporary file already closed")),
        }
    }

    /// Flushes and fsyncs the contents.
    pub async fn finish(&mut self) -> io::Result<()> {
        if let Some(mut f) = self.file.take() {
            f.flush().await?;
            f.sync_all().await?;
        }
        Ok(())
    }
}

/// Only versions we generate are used in file names; anything else maps to a fixed placeholder.
fn safe_version(version: Option<&str>) -> &str {
    match version {
        Some(v) if !v.is_empty() && v.len() <= 64 && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') => v,
        _ => "_",
    }
}

/// The backend-relative key of an object version: `ab/<sha256(bucket NUL name)>/<version>`.
/// A stored version of an object: (bucket, name, version).
pub type Stored<'a> = (&'a str, &'a str, Option<&'a str>);

/// An object's contents as they are read.
pub type ByteStream = futures::stream::BoxStream<'static, io::Result<bytes::Bytes>>;

pub fn object_key(bucket: &str, name: &str, version: Option<&str>) -> String {
    let mut h = Sha256::new();
    h.update(bucket.as_bytes());
    h.update([0u8]);
    h.update(name.as_bytes());
    let hex = crate::core::hex::lower(&h.finalize());
    format!("{}/{hex}/{}", &hex[..2], safe_version(version))
}

impl FileBackend {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        FileBackend { root: root.into() }
    }

    pub async fn ensure_dirs(&self) -> io::Result<()> {
        for dir in [self.root.join("tmp"), self.root.join("objects")] {
            crate::core::private_fs::create_dir_all(&dir).await?;
            crate::core::private_fs::restrict_dir(&dir).await;
        }
        crate::core::private_fs::restrict_dir(&self.root).await;
        Ok(())
    }

    /// Where a version of an object lives.
    pub fn path(&self, bucket: &str, name: &str, version: Option<&str>) -> PathBuf {
        self.root.join("objects").join(object_key(bucket, name, version))
    }

    pub async fn temp_file(&self) -> io::Result<TempFile> {
        let path = self.root.join("tmp").join(uuid::Uuid::new_v4().simple().to_string());
        let file = crate::core::private_fs::create_new(&path).await?;
        Ok(TempFile { path, file: Some(file), armed: true })
    }

    /// Moves a finished temporary file into place as this version of the object.
    pub async fn commit(&self, mut tmp: TempFile, bucket: &str, name: &str, version: &str) -> io::Result<()> {
        tmp.finish().await?;
        let target = self.path(bucket, name, Some(version));
        self.place(&tmp.path, &target).await?;
        tmp.armed = false;
        Ok(())
    }

    async fn place(&self, from: &Path, target: &Path) -> io::Result<()> {
        let dir = target.parent().ok_or_else(|| io::Error::other("object path has no parent"))?;
        crate::core::private_fs::create_dir_all(dir).await?;
        tokio::fs::rename(from, target).await?;
        // Make the rename itself durable.
        if let Ok(d) = tokio::fs::File::open(dir).await {
            let _ = d.sync_all().await;
        }
        Ok(())
    }

    pub async fn size(&self, bucket: &str, name: &str, version: Option<&str>) -> io::Result<u64> {
        Ok(tokio::fs::metadata(self.path(bucket, name, version)).await?.len())
    }

    /// Streams `len` bytes from `start`.
    pub async fn stream(&self, (bucket, name, version): Stored<'_>, start: u64, len: u64) -> io::Result<ByteStream> {
        use futures::StreamExt;
        use tokio::io::{AsyncReadExt, AsyncSeekExt};
        let mut file = tokio::fs::File::open(self.path(bucket, name, version)).await?;
        if start > 0 {
            file.seek(io::SeekFrom::Start(start)).await?;
        }
        Ok(tokio_util::io::ReaderStream::with_capacity(file.take(len), 64 * 1024).boxed())
    }

    /// Opens a version for reading, with its length.
    pub async fn open(&self, bucket: &str, name: &str, version: Option<&str>) -> io::Result<(tokio::fs::File, u64)> {
        let file = tokio::fs::File::open(self.path(bucket, name, version)).await?;
        let len = file.metadata().await?.len();
        Ok((file, len))
    }

    /// Removes a version; a missing file is not an error.
    pub async fn delete(&self, bucket: &str, name: &str, version: Option<&str>) {
        let path = self.path(bucket, name, version);
        match tokio::fs::remove_file(&path).await {
            Ok(()) => {
                if let Some(dir) = path.parent() {
                    let _ = tokio::fs::remove_dir(dir).await; // only succeeds when empty
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => tracing::warn!(error = %e, path = %path.display(), "could not remove object file"),
        }
    }

    /// Copies a version to another object (through a temporary file, so the copy appears whole).
    pub async fn copy(&self, from: Stored<'_>, to: (&str, &str, &str)) -> io::Result<()> {
        let mut tmp = self.temp_file().await?;
        tmp.file = None;
        tokio::fs::copy(self.path(from.0, from.1, from.2), &tmp.path).await?;
        let f = tokio::fs::OpenOptions::new().write(true).open(&tmp.path).await?;
        f.sync_all().await?;
        self.place(&tmp.path, &self.path(to.0, to.1, Some(to.2))).await?;
        tmp.armed = false;
        Ok(())
    }

    /// Renames a version to another object (same version id).
    pub async fn rename(&self, from: Stored<'_>, to: Stored<'_>) -> io::Result<()> {
        self.place(&self.path(from.0, from.1, from.2), &self.path(to.0, to.1, to.2)).await
    }
}

/// Where contents live: the folder, or S3 (uploads are staged in the folder either way).
#[derive(Debug, Clone)]
pub enum Backend {
    File(FileBackend),
    S3 { staging: FileBackend, s3: super::s3::S3Backend },
}

impl Backend {
    fn staging(&self) -> &FileBackend {
        match self {
            Backend::File(f) => f,
            Backend::S3 { staging, .. } => staging,
        }
    }

    pub async fn ensure_dirs(&self) -> io::Result<()> {
        self.staging().ensure_dirs().await
    }

    pub async fn temp_file(&self) -> io::Result<TempFile> {
        self.staging().temp_file().await
    }

    /// Stores a finished temporary file as this version of the object.
    pub async fn commit(&self, mut tmp: TempFile, bucket: &str, name: &str, version: &str) -> io::Result<()> {
        match self {
            Backend::File(f) => f.commit(tmp, bucket, name, version).await,
            Backend::S3 { s3, .. } => {
                tmp.finish().await?;
                s3.put_file(&tmp.path, &object_key(bucket, name, Some(version))).await
            }
        }
    }

    pub async fn size(&self, bucket: &str, name: &str, version: Option<&str>) -> io::Result<u64> {
        match self {
            Backend::File(f) => f.size(bucket, name, version).await,
            Backend::S3 { s3, .. } => s3.size(&object_key(bucket, name, version)).await,
        }
    }

    pub async fn stream(&self, at: Stored<'_>, start: u64, len: u64) -> io::Result<ByteStream> {
        let (bucket, name, version) = at;
        match self {
            Backend::File(f) => f.stream(at, start, len).await,
            Backend::S3 { s3, .. } => s3.stream(&object_key(bucket, name, version), start, len).await,
        }
    }

    /// Removes a version; a missing one is not an error.
    pub async fn delete(&self, bucket: &str, name: &str, version: Option<&str>) {
        match self {
            Backend::File(f) => f.delete(bucket, name, version).await,
            Backend::S3 { s3, .. } => {
                if let Err(e) = s3.delete(&object_key(bucket, name, version)).await {
                    tracing::warn!(error = %e, "could not remove object from S3");
                }
            }
        }
    }

    pub async fn copy(&self, from: Stored<'_>, to: (&str, &str, &str)) -> io::Result<()> {
        match self {
            Backend::File(f) => f.copy(from, to).await,
            Backend::S3 { s3, .. } => {
                s3.copy(&object_key(from.0, from.1, from.2), &object_key(to.0, to.1, Some(to.2))).await
            }
        }
    }

    pub async fn rename(&self, from: Stored<'_>, to: Stored<'_>) -> io::Result<()> {
        match self {
            Backend::File(f) => f.rename(from, to).await,
            Backend::S3 { s3, .. } => {
                s3.rename(&object_key(from.0, from.1, from.2), &object_key(to.0, to.1, to.2)).await
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_never_become_paths() {
        let b = FileBackend::new("/data");
        let p = b.path("cvs", "../../etc/passwd", Some("../x"));
        assert!(p.starts_with("/data/objects"));
        assert!(!p.to_string_lossy().contains(".."));
        assert!(p.ends_with("_"));
    }

    #[tokio::test]
    async fn commit_places_the_file_and_drop_cleans_up() {
        let root = std::env::temp_dir().join(format!("gw-backend-{}", uuid::Uuid::new_v4().simple()));
        let b = FileBackend::new(&root);
        b.ensure_dirs().await.unwrap();
        let mut t = b.temp_file().await.unwrap();
        t.write(b"hello").await.unwrap();
        b.commit(t, "b", "a/b.txt", "v1").await.unwrap();
        let (_, len) = b.open("b", "a/b.txt", Some("v1")).await.unwrap();
        assert_eq!(len, 5);
        let t2 = b.temp_file().await.unwrap();
        let p2 = t2.path.clone();
        drop(t2);
        assert!(!p2.exists());
        b.delete("b", "a/b.txt", Some("v1")).await;
        assert!(b.open("b", "a/b.txt", Some("v1")).await.is_err());
        let _ = std::fs::remove_dir_all(root);
    }
}
