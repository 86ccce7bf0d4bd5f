//! Pure routing: which answer a request path gets, from the manifest and the files that exist.

use super::manifest::SiteManifest;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    /// A file served as it is (assets, robots.txt, images).
    File(PathBuf),
    /// An HTML page served with this status.
    Page { file: PathBuf, status: u16 },
    /// A template filled by an SQL function called with `arg` (and the query string when `query`); `post` is the
    /// function a `POST` calls.
    Dynamic { file: PathBuf, function: String, arg: String, query: bool, post: Option<String> },
    /// A document produced by an SQL function.
    Generated { function: String, content_type: String },
    /// A permanent redirect to the slashless path.
    Redirect(String),
    /// Nothing matches: the 404 page.
    NotFound,
}

/// Decides the answer for `path` (already percent-decoded) under the site folder `dir`.
pub fn resolve(dir: &Path, manifest: &SiteManifest, path: &str) -> Resolved {
    if !is_safe(path) {
        return Resolved::NotFound;
    }
    if path.len() > 1 && path.ends_with('/') {
        // The slashless form, only when it is still a path on this origin (`///evil.com/` must not become
        // `//evil.com`): the rule every `Location` follows, crate::core::location.
        let target = path.trim_end_matches('/');
        return if crate::core::location::is_same_origin_path(target) {
            Resolved::Redirect(target.to_string())
        } else {
            Resolved::NotFound
        };
    }
    let relative = path.trim_start_matches('/');
    if let Some(g) = manifest.generated.iter().find(|g| g.path == path) {
        return Resolved::Generated { function: g.function.clone(), content_type: g.content_type.clone() };
    }
    let last = relative.rsplit('/').next().unwrap_or("");
    if last.contains('.') {
        let file = dir.join(relative);
        return if file.is_file() && is_public_file(relative) { Resolved::File(file) } else { Resolved::NotFound };
    }
    let page = if relative.is_empty() { dir.join("index.html") } else { dir.join(relative).join("index.html") };
    if page.is_file() {
        return Resolved::Page { file: page, status: 200 };
    }
    declared(dir, manifest, path)
}

/// What the manifest declares for a path that is no file and no prerendered page: a data-rendered page (one
/// segment under its prefix) or an app area.
fn declared(dir: &Path, manifest: &SiteManifest, path: &str) -> Resolved {
    for d in &manifest.dynamic {
        let rest = match (&d.prefix, &d.path) {
            (Some(prefix), _) => path.strip_prefix(prefix.as_str()).filter(|r| !r.is_empty() && !r.contains('/')),
            (None, Some(exact)) => (path == exact).then_some(""),
            (None, None) => None,
        };
        if let Some(rest) = rest {
            return Resolved::Dynamic {
                file: dir.join(&d.file),
                function: d.function.clone(),
                arg: rest.to_string(),
                query: d.query,
                post: d.post_function.clone(),
            };
        }
    }
    for s in &manifest.spa {
        let prefix = s.prefix.trim_end_matches('/');
        if path == prefix || path.strip_prefix(prefix).is_some_and(|r| r.starts_with('/')) {
            return Resolved::Page { file: dir.join(&s.file), status: 200 };
        }
    }
    Resolved::NotFound
}

/// Whether a file of the build may be served as it is (S9): never HTML (pages are answered through the page path,
/// with their headers and runtime config), nothing under an underscore folder (templates, the manifest) and nothing
/// from a hidden folder or file (build internals such as `.vite/manifest.json`).
fn is_public_file(relative: &str) -> bool {
    let hidden = relative.split('/').any(|seg| seg.starts_with('.') || seg.starts_with('_'));
    let html = relative
        .rsplit('.')
        .next()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("html") || ext.eq_ignore_ascii_case("htm"));
    !hidden && !html
}

/// Rejects traversal and oddities before any file-system access.
fn is_safe(path: &str) -> bool {
    path.starts_with('/')
        && !path.chars().any(char::is_control)
        && !path.contains('\\')
        && !path.split('/').any(|seg| seg == ".." || seg == "." || seg.starts_with(".."))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::manifest::{DynamicRoute, GeneratedRoute, SpaRoute};

    fn site() -> (tempfile::TempDir, SiteManifest) {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("services")).unwrap();
        std::fs::create_dir_all(d.join("assets")).unwrap();
        std::fs::create_dir_all(d.join("_templates")).unwrap();
        std::fs::create_dir_all(d.join(".vite")).unwrap();
        for f in [
            "index.html",
            "services/index.html",
            "assets/app.js",
            "assets/.hidden.js",
            "app.html",
            "404.html",
            "_templates/job.html",
            ".vite/manifest.json",
        ] {
            std::fs::write(d.join(f), "x").unwrap();
        }
        let manifest = SiteManifest {
            spa: vec![SpaRoute { prefix: "/admin".into(), file: "app.html".into() }],
            dynamic: vec![
                DynamicRoute {
                    prefix: Some("/jobs/".into()),
                    file: "_templates/job.html".into(),
                    function: "public.render_job_page".into(),
                    ..Default::default()
                },
                DynamicRoute {
                    path: Some("/jobs".into()),
                    file: "_templates/jobs.html".into(),
                    function: "public.render_jobs_page".into(),
                    query: true,
                    post_function: Some("public.post_jobs_page".into()),
                    ..Default::default()
                },
            ],
            generated: vec![GeneratedRoute {
                path: "/sitemap.xml".into(),
                function: "public.sitemap_xml".into(),
                content_type: "application/xml".into(),
            }],
        };
        (dir, manifest)
    }

    #[test]
    fn routes_pages_files_app_areas_and_data_pages() {
        let (dir, m) = site();
        let d = dir.path();
        assert_eq!(resolve(d, &m, "/"), Resolved::Page { file: d.join("index.html"), status: 200 });
        assert_eq!(resolve(d, &m, "/services"), Resolved::Page { file: d.join("services/index.html"), status: 200 });
        assert_eq!(resolve(d, &m, "/services/"), Resolved::Redirect("/services".into()));
        assert_eq!(resolve(d, &m, "/assets/app.js"), Resolved::File(d.join("assets/app.js")));
        assert_eq!(resolve(d, &m, "/admin"), Resolved::Page { file: d.join("app.html"), status: 200 });
        assert_eq!(resolve(d, &m, "/admin/jobs"), Resolved::Page { file: d.join("app.html"), status: 200 });
        assert_eq!(resolve(d, &m, "/administrator"), Resolved::NotFound);
        assert!(
            matches!(resolve(d, &m, "/jobs/abc"), Resolved::Dynamic { arg, query: false, post: None, .. } if arg == "abc")
        );
        assert!(matches!(
            resolve(d, &m, "/jobs"),
            Resolved::Dynamic { arg, query: true, post: Some(p), .. } if arg.is_empty() && p == "public.post_jobs_page"
        ));
        assert_eq!(resolve(d, &m, "/jobs/abc/def"), Resolved::NotFound);
        assert!(matches!(resolve(d, &m, "/sitemap.xml"), Resolved::Generated { .. }));
        assert_eq!(resolve(d, &m, "/nope"), Resolved::NotFound);
        assert_eq!(resolve(d, &m, "/missing.png"), Resolved::NotFound);
    }

    #[test]
    fn never_leaves_the_folder_or_serves_templates() {
        let (dir, m) = site();
        let d = dir.path();
        for p in [
            "/../etc/passwd",
            "/assets/../../x.js",
            "/a\\..\\b.js",
            "/_templates/job.html",
            "/_site.json",
            "/x\0.js",
            "/index.html",
            "/app.html",
            "/404.html",
            "/services/index.HTML",
            "/.vite/manifest.json",
            "/assets/.hidden.js",
        ] {
            assert_eq!(resolve(d, &m, p), Resolved::NotFound, "{p}");
        }
    }

    #[test]
    fn never_redirects_off_the_origin() {
        let (dir, m) = site();
        let d = dir.path();
        // Decoded forms of `///evil.com/`, `/%2F%2Fevil.com/`, `/%09/evil.com/`, `/%5Cevil.com/`, `/／evil.com/`.
        for p in ["///evil.com/", "////evil.com/", "//evil.com/", "/\t/evil.com/", "/\\evil.com/", "/\u{FF0F}evil.com/"]
        {
            assert!(!matches!(resolve(d, &m, p), Resolved::Redirect(_)), "{p:?}");
        }
        assert_eq!(resolve(d, &m, "/a//b/"), Resolved::Redirect("/a//b".into()));
    }
}
