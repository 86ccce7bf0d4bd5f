//! Image transformations for `/render/image/*` and the `transform` options of downloads and signed URLs:
//! options and their validation, output geometry, the bounded decode/resize/encode, and a cache of results.
//! Rendering runs on blocking threads behind a semaphore so it never stalls request workers. An SVG source is
//! served as stored (`svg`), never decoded.

pub mod cache;
pub mod engine;
pub mod geometry;
pub mod options;
pub mod svg;

pub use engine::{Limits, RenderError, Rendered};
pub use options::{unapplied, Format, InvalidOption, Resize, SizeLimits, Transform};

use std::sync::Arc;
use tokio::sync::Semaphore;

/// Renders with a bounded number of images in flight and keeps results.
pub struct Renderer {
    pub limits: Limits,
    pub sizes: SizeLimits,
    permits: Semaphore,
    cache: cache::RenderCache,
}

impl Renderer {
    /// `concurrency` renders at once; `cache_bytes` of results kept.
    pub fn new(limits: Limits, sizes: SizeLimits, concurrency: usize, cache_bytes: usize) -> Self {
        Renderer {
            limits,
            sizes,
            permits: Semaphore::new(concurrency.max(1)),
            cache: cache::RenderCache::new(cache_bytes),
        }
    }

    /// The rendering kept under `key`, if any.
    pub fn cached(&self, key: &str) -> Option<Arc<Rendered>> {
        self.cache.get(key)
    }

    /// The cached rendering under `key`, else renders `source` (stored as `stored_type`; on a blocking thread) and
    /// keeps it. An SVG source is kept as it is, unless the options ask for another format.
    pub async fn render(
        &self,
        key: String,
        source: bytes::Bytes,
        t: Transform,
        accepts_webp: bool,
        stored_type: Option<&str>,
    ) -> Result<Arc<Rendered>, RenderError> {
        if let Some(hit) = self.cache.get(&key) {
            return Ok(hit);
        }
        if svg::is_svg(stored_type, &source) {
            if t.format == Format::Webp {
                return Err(RenderError::VectorToRaster);
            }
            let rendered = Arc::new(Rendered { bytes: source, content_type: svg::CONTENT_TYPE, width: 0, height: 0 });
            self.cache.put(key, rendered.clone());
            return Ok(rendered);
        }
        let _permit = self.permits.acquire().await.map_err(|_| RenderError::InvalidSource)?;
        if let Some(hit) = self.cache.get(&key) {
            return Ok(hit);
        }
        let limits = self.limits;
        let rendered = tokio::task::spawn_blocking(move || engine::render(&source, &t, accepts_webp, &limits))
            .await
            .map_err(|_| RenderError::InvalidSource)??;
        let rendered = Arc::new(rendered);
        self.cache.put(key, rendered.clone());
        Ok(rendered)
    }
}
