//! Serving the built site from one folder: files, prerendered pages, client-rendered app areas, pages rendered from
//! data by SQL functions, generated documents (e.g. a sitemap), and 404s — all declared by the build's `_site.json`.
//! Generic: the gateway knows routes and functions only from that manifest, never what the site is about.

pub mod headers;
mod manifest;
mod render;
mod resolve;

use crate::core::shared::Shared;
use crate::core::Core;
use axum::extract::{FromRef, Request, State};
use axum::response::Response;
use axum::Router;
pub use manifest::SiteManifest;
use std::path::PathBuf;
use std::sync::Mutex;

/// The site's state as its handler receives it; cloning it is one reference count.
pub type Site = Shared<SiteState>;

/// The core, and the site folder and its manifest, loaded at start.
pub struct SiteState {
    pub core: Core,
    pub dir: Option<PathBuf>,
    pub manifest: SiteManifest,
    /// The `<meta>` tags that tell the app its API URL and anon key, with the `kid` they were signed for.
    runtime_config: Mutex<Option<(String, String)>>,
}

impl Site {
    pub fn new(core: &Core) -> anyhow::Result<Self> {
        let dir = core.config.site_dir.as_ref().map(PathBuf::from);
        let manifest = match &dir {
            Some(d) => SiteManifest::load(d)?,
            None => SiteManifest::default(),
        };
        if let Some(d) = &dir {
            if !d.join("index.html").exists() {
                tracing::warn!(dir = %d.display(), "GATEWAY_SITE_DIR has no index.html; build the site with `make web`");
            }
        }
        Ok(Shared::from(SiteState { core: core.clone(), dir, manifest, runtime_config: Mutex::new(None) }))
    }
}

/// Every path the API routers do not answer.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Site: FromRef<S>,
{
    Router::new().fallback(handle).layer(tower_http::compression::CompressionLayer::new())
}

async fn handle(State(state): State<Site>, request: Request) -> Response {
    render::respond(&state, request).await
}

/// The runtime-config meta tags for the current signing key (re-signed when the key rotates).
pub(crate) fn runtime_config(state: &Site) -> String {
    let keys = state.core.keys.load();
    let kid = keys.current().map(|k| k.kid().to_string()).unwrap_or_default();
    let Ok(mut cached) = state.runtime_config.lock() else { return String::new() };
    if let Some((cached_kid, html)) = cached.as_ref() {
        if *cached_kid == kid {
            return html.clone();
        }
    }
    let anon = crate::core::keys::api_keys(&keys).map(|(anon, _)| anon).unwrap_or_default();
    let html = format!(
        r#"<meta name="supabase-url" content="{}"><meta name="supabase-anon-key" content="{}">"#,
        render::escape_attr(&state.core.config.external_url),
        render::escape_attr(&anon)
    );
    *cached = Some((kid, html.clone()));
    html
}
