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

/// A page rendered from data: `function(rest)` (or `function(rest, query)`) as the anonymous role in a read-only
/// transaction returns `{status, head, body}` for the template `file`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct DynamicRoute {
    /// Paths one segment under this prefix (`rest` is that segment) …
    #[serde(default)]
    pub prefix: Option<String>,
    /// … or exactly this path (`rest` is empty).
    #[serde(default)]
    pub path: Option<String>,
    pub file: String,
    pub function: String,
    /// Pass the raw query string (without `?`, still percent-encoded) as the second argument.
    #[serde(default)]
    pub query: bool,
    /// `POST` to the page calls this function with `(rest, query, body)` in a read-write transaction (a form
    /// posted to the page, e.g. a one-click unsubscribe); without it `POST` answers 405.
    #[serde(default)]
    pub post_function: Option<String>,
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
        let functions =
            manifest.dynamic.iter().flat_map(|d| std::iter::once(&d.function).chain(d.post_function.as_ref()));
        for f in functions.chain(manifest.generated.iter().map(|g| &g.function)) {
            qualified_function(f)?;
        }
        for d in &manifest.dynamic {
            if d.prefix.is_some() == d.path.is_some() {
                anyhow::bail!("{}: a dynamic route has either a prefix or a path ({})", path.display(), d.function);
            }
        }
        Ok(manifest)
    }
}

/// Validates `schema.function` (or `function`) names from the manifest and quotes them for SQL.
pub fn qualified_function(name: &str) -> anyhow::Result<String> {
    let parts: Vec<&str> = name.split('.').collect();
    if parts.is_empty() || parts.len() > 2 {
        anyhow::bail!("bad function name in _site.json: {name}");
    }
    let mut quoted = vec![];
    for p in parts {
        if p.is_empty() || !p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            anyhow::bail!("bad function name in _site.json: {name}");
        }
        quoted.push(format!("\"{p}\""));
    }
    Ok(quoted.join("."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_manifest_function_names() {
        assert_eq!(qualified_function("public.render_job_page").unwrap(), "\"public\".\"render_job_page\"");
        assert!(qualified_function("public.x; drop table y").is_err());
        assert!(qualified_function("a.b.c").is_err());
    }
}
