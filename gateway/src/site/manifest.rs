//! `_site.json`: the build's declaration of app areas, data-rendered pages and generated documents.

use serde::Deserialize;
use std::path::Path;

#[derive(Debug, Clone, Default, Deserialize)]
pub struct SiteManifest {
    /// Paths equal to or under a prefix answer 200 with a client-rendered shell.
    #[serde(default)]
    pub spa: Vec<SpaRoute>,
    /// Paths under a prefix are rendered by an SQL function into a template.
    #[serde(default)]
    pub dynamic: Vec<DynamicRoute>,
    /// Exact paths whose body an SQL function produces.
    #[serde(default)]
    pub generated: Vec<GeneratedRoute>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SpaRoute {
    pub prefix: String,
    pub file: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct DynamicRoute {
    pub prefix: String,
    pub file: String,
    pub function: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct GeneratedRoute {
    pub path: String,
    pub function: String,
    pub content_type: String,
}

impl SiteManifest {
    /// Reads `_site.json` from the site folder; no file means no declared routes.
    pub fn load(dir: &Path) -> anyhow::Result<Self> {
        let path = dir.join("_site.json");
        if !path.exists() {
            return Ok(SiteManifest::default());
        }
        let text = std::fs::read_to_string(&path)?;
        let manifest: SiteManifest =
            serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        for f in manifest.dynamic.iter().map(|d| &d.function).chain(manifest.generated.iter().map(|g| &g.function)) {
            crate::site::resolve::qualified_function(f)?;
        }
        Ok(manifest)
    }
}
