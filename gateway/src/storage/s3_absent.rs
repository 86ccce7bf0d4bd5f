//! The S3 backend of a gateway built without the `s3` feature (`make run`'s quick build): `STORAGE_BACKEND=s3`
//! stops start-up with how to get a build that has it. The type has no values, so nothing else can reach S3.

use super::config::S3Config;
use bytes::Bytes;
use futures::stream::BoxStream;
use std::io;

#[derive(Debug, Clone)]
pub enum S3Backend {}

impl S3Backend {
    pub fn new(_: &S3Config) -> anyhow::Result<Self> {
        anyhow::bail!(
            "STORAGE_BACKEND=s3, but this gateway was built without S3 (`make run`'s quick build leaves it out); \
             build it with `make build` (or `cargo build --release -p gateway`) and run that one: \
             GATEWAY_BIN=target/release/gateway make run"
        )
    }

    pub async fn put_file(&self, _: &std::path::Path, _: &str) -> io::Result<()> {
        match *self {}
    }

    pub async fn size(&self, _: &str) -> io::Result<u64> {
        match *self {}
    }

    pub async fn stream(&self, _: &str, _: u64, _: u64) -> io::Result<BoxStream<'static, io::Result<Bytes>>> {
        match *self {}
    }

    pub async fn delete(&self, _: &str) -> io::Result<()> {
        match *self {}
    }

    pub async fn copy(&self, _: &str, _: &str) -> io::Result<()> {
        match *self {}
    }

    pub async fn rename(&self, _: &str, _: &str) -> io::Result<()> {
        match *self {}
    }
}
