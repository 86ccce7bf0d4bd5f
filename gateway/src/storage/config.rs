//! Storage's configuration, read with Supabase Storage's variable names.

use crate::core::config::Vars;
use std::path::PathBuf;

/// Where object contents live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BackendKind {
    /// `STORAGE_BACKEND=file`: a folder (`FILE_STORAGE_BACKEND_PATH`, default `.data/storage`).
    File(PathBuf),
    /// `STORAGE_BACKEND=s3`: an S3 bucket (`GLOBAL_S3_BUCKET`, `GLOBAL_S3_ENDPOINT`, `GLOBAL_S3_FORCE_PATH_STYLE`,
    /// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `REGION`); uploads are still staged in the local folder.
    S3(S3Config),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct S3Config {
    pub bucket: String,
    pub endpoint: Option<String>,
    pub force_path_style: bool,
    pub access_key_id: Option<String>,
    pub secret_access_key: Option<String>,
    pub region: String,
    /// Where uploads are staged before they are sent.
    pub staging: PathBuf,
}

#[derive(Debug, Clone)]
pub struct StorageConfig {
    pub backend: BackendKind,
    /// The global upload limit in bytes (`FILE_SIZE_LIMIT`, default 50 MB); a bucket's own limit can only lower it.
    pub file_size_limit: u64,
    /// Lifetime of signed upload URLs in seconds (`UPLOAD_SIGNED_URL_EXPIRATION_TIME`, default 2 hours).
    pub upload_url_expiry_secs: i64,
    /// Image transformations: on or off, the clamp range of width/height (`IMAGE_TRANSFORMATION_LIMIT_MIN_SIZE`/`MAX_SIZE`,
    /// 1–2000), source limits (`IMGPROXY_MAX_SRC_FILE_SIZE` bytes, 25 MB; `IMGPROXY_MAX_SRC_RESOLUTION` megapixels,
    /// 50), renders at once (`IMAGE_TRANSFORMATION_CONCURRENCY`, half the CPUs, at least one) and the bytes of results
    /// kept (`IMAGE_TRANSFORMATION_CACHE_BYTES`, 64 MB).
    pub image: ImageConfig,
    /// `GATEWAY_STORAGE_SNIFF_CONTENT` (default off): every bucket judges uploads by their bytes too, as a bucket
    /// with `storage.buckets.sniff_content` does; off, Storage's rule (the declared type) holds elsewhere.
    pub sniff_content: bool,
}

#[derive(Debug, Clone, Copy)]
pub struct ImageConfig {
    /// `IMAGE_TRANSFORMATION_ENABLED` (default on): off, the render routes answer Fastify's 404 and a signed
    /// `transform` is ignored, as Storage without the feature.
    pub enabled: bool,
    pub sizes: super::transform::SizeLimits,
    pub limits: super::transform::Limits,
    pub concurrency: usize,
    pub cache_bytes: usize,
}

impl ImageConfig {
    fn from_vars(vars: &Vars) -> Self {
        let cpus = std::thread::available_parallelism().map(usize::from).unwrap_or(1);
        let megapixels: f64 = vars.num(&["IMGPROXY_MAX_SRC_RESOLUTION"], 50.0f64);
        ImageConfig {
            enabled: vars.bool(&["IMAGE_TRANSFORMATION_ENABLED", "ENABLE_IMAGE_TRANSFORMATION"], true),
            sizes: super::transform::SizeLimits {
                min: vars.num(&["IMAGE_TRANSFORMATION_LIMIT_MIN_SIZE"], 1u32),
                max: vars.num(&["IMAGE_TRANSFORMATION_LIMIT_MAX_SIZE"], 2000u32),
            },
            limits: super::transform::Limits {
                max_source_bytes: vars.num(&["IMGPROXY_MAX_SRC_FILE_SIZE"], 25_000_000usize),
                max_pixels: (megapixels * 1_000_000.0) as u64,
            },
            concurrency: vars.num(&["IMAGE_TRANSFORMATION_CONCURRENCY"], (cpus / 2).max(1)),
            cache_bytes: vars.num(&["IMAGE_TRANSFORMATION_CACHE_BYTES"], 64 * 1024 * 1024usize),
        }
    }
}

impl StorageConfig {
    /// The image renderer this configuration describes.
    pub fn renderer(&self) -> super::transform::Renderer {
        let i = self.image;
        super::transform::Renderer::new(i.limits, i.sizes, i.concurrency, i.cache_bytes)
    }
}

impl StorageConfig {
    pub fn from_vars(vars: &Vars) -> Self {
        let folder =
            PathBuf::from(vars.first(&["FILE_STORAGE_BACKEND_PATH"]).unwrap_or_else(|| ".data/storage".into()));
        let backend = match vars.first(&["STORAGE_BACKEND"]).map(|v| v.to_ascii_lowercase()).as_deref() {
            Some("s3") => BackendKind::S3(S3Config {
                bucket: vars.first(&["GLOBAL_S3_BUCKET"]).unwrap_or_default(),
                endpoint: vars.first(&["GLOBAL_S3_ENDPOINT"]),
                force_path_style: vars.bool(&["GLOBAL_S3_FORCE_PATH_STYLE"], false),
                access_key_id: vars.first(&["AWS_ACCESS_KEY_ID"]),
                secret_access_key: vars.first(&["AWS_SECRET_ACCESS_KEY"]),
                region: vars
                    .first(&["REGION", "AWS_REGION", "AWS_DEFAULT_REGION"])
                    .unwrap_or_else(|| "us-east-1".into()),
                staging: folder,
            }),
            _ => BackendKind::File(folder),
        };
        StorageConfig {
            backend,
            file_size_limit: vars.num(&["FILE_SIZE_LIMIT"], 50 * 1024 * 1024u64),
            upload_url_expiry_secs: vars.num(&["UPLOAD_SIGNED_URL_EXPIRATION_TIME"], 7200i64),
            image: ImageConfig::from_vars(vars),
            sniff_content: vars.bool(&["GATEWAY_STORAGE_SNIFF_CONTENT"], false),
        }
    }
}

/// Parses a bucket size limit as Storage accepts it: a number of bytes or `20GB` / `20MB` / `30KB` / `3B`
/// (decimal units, as Storage: `20mb` is 20,000,000 bytes; the number is kept to three significant digits, as
/// Storage's `toPrecision(3)` does).
pub fn parse_size(value: &serde_json::Value) -> Option<Option<u64>> {
    match value {
        serde_json::Value::Null => Some(None),
        serde_json::Value::Number(n) => n.as_u64().map(Some),
        serde_json::Value::String(s) => {
            let s = s.trim().to_ascii_lowercase();
            let digits: String = s.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
            let unit = s[digits.len()..].trim();
            let n: f64 = format!("{:.2e}", digits.parse::<f64>().ok()?).parse().ok()?;
            let mult = match unit {
                "" | "b" => 1f64,
                "kb" => 1e3,
                "mb" => 1e6,
                "gb" => 1e9,
                _ => return None,
            };
            Some(Some((n * mult).round() as u64))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_sizes_like_storage() {
        assert_eq!(parse_size(&json!(1024)), Some(Some(1024)));
        assert_eq!(parse_size(&json!("1kb")), Some(Some(1000)));
        assert_eq!(parse_size(&json!("20mb")), Some(Some(20_000_000)));
        assert_eq!(parse_size(&json!(null)), Some(None));
        assert_eq!(parse_size(&json!("ten")), None);
        assert_eq!(parse_size(&json!("5tb")), None);
        assert_eq!(parse_size(&json!("1.2345GB")), Some(Some(1_230_000_000)));
    }
}
