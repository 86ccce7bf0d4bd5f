//! The site folder served on the API's port: pages, files, app areas, data-rendered pages and 404s.

use crate::helpers::spawn_app_with;
use std::path::Path;

fn write(dir: &Path, file: &str, text: &str) {
    let path = dir.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "index.html", "<html><head><!--runtime-config--><title>Home</title></head><body>home</body></html>");
    write(d, "services/index.html", "<html><head><!--runtime-config--></head><body>services</body></html>");
    write(d, "404.html", "<html><head><!--runtime-config--></head><body>404 Oops! Page not found</body></html>");
    write(d, "app.html", "<html><head><!--runtime-config--></head><body>app shell</body></html>");
    write(d, "_templates/job.html", "<html><head><!--ssr-head--></head><body><!--ssr-body--></body></html>");
    write(d, "assets/app.js", &"console.log('x');".repeat(200));
    write(d, "robots.txt", "User-agent: *\nAllow: /\n");
    write(
        d,
        "_site.json",
        r#"{"spa":[{"prefix":"/admin","file":"app.html"}],
            "dynamic":[{"prefix":"/jobs/","file":"_templates/job.html","function":"public.render_thing"}],
            "generated":[{"path":"/sitemap.xml","function":"public.site_map","content_type":"application/xml; charset=utf-8"}]}"#,
    );
    dir
}

const FUNCTIONS: &str = r#"
create function public.render_thing(id text) returns jsonb language sql stable set search_path = '' as $$
  select case when id = 'known'
    then jsonb_build_object('status', 200, 'head', '<title>Known</title>', 'body', '<h1>Known job</h1><p>' || current_user || '</p>')
    else jsonb_build_object('status', 404, 'head', '<title>Job Not Found</title>', 'body', '<h1>Job Not Found</h1>') end
$$;
create function public.site_map() returns text language sql stable set search_path = '' as $$
  select '<urlset><url><loc>http://x/</loc></url></urlset>'
$$;
grant execute on function public.render_thing(text), public.site_map() to anon;
"#;

#[tokio::test]
async fn serves_pages_files_and_app_areas_with_runtime_config() {
    let dir = site();
    let app = spawn_app_with(&[("GATEWAY_SITE_DIR", dir.path().to_str().unwrap())]).await;
    let home = app.http.get(app.url("/")).send().await.unwrap();
    assert_eq!(home.status(), 200);
    assert!(home.headers()["content-security-policy"].to_str().unwrap().contains("frame-ancestors 'none'"));
    let body = home.text().await.unwrap();
    assert!(body.contains(&format!(r#"<meta name="supabase-url" content="{}">"#, app.base_url)), "{body}");
    let anon_key = body.split(r#"<meta name="supabase-anon-key" content=""#).nth(1).unwrap().split('"').next().unwrap();
    let claims: serde_json::Value =
        app.keys().verify(anon_key, &jwks::VerifyOptions::default()).expect("anon key verifies");
    assert_eq!(claims["role"], "anon");
    assert!(!body.contains("runtime-config"));

    assert_eq!(app.http.get(app.url("/services")).send().await.unwrap().status(), 200);
    let redirect = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let r = redirect.get(app.url("/services/?a=1")).send().await.unwrap();
    assert_eq!(r.status(), 308);
    assert_eq!(r.headers()["location"], "/services?a=1");

    let admin = app.http.get(app.url("/admin/jobs")).send().await.unwrap();
    assert_eq!(admin.status(), 200);
    assert!(admin.text().await.unwrap().contains("app shell"));

    let asset = app.http.get(app.url("/assets/app.js")).header("accept-encoding", "gzip").send().await.unwrap();
    assert_eq!(asset.status(), 200);
    assert_eq!(asset.headers()["cache-control"], "public, max-age=31536000, immutable");
    assert_eq!(asset.headers()["content-type"], "text/javascript");
    assert_eq!(asset.headers()["content-encoding"], "gzip");
    let robots = app.http.get(app.url("/robots.txt")).send().await.unwrap();
    assert_eq!(robots.headers()["content-type"], "text/plain");
}

#[tokio::test]
async fn unknown_paths_and_traversal_get_the_404_page() {
    let dir = site();
    let app = spawn_app_with(&[("GATEWAY_SITE_DIR", dir.path().to_str().unwrap())]).await;
    for path in
        ["/nope", "/assets/missing.js", "/_site.json", "/_templates/job.html", "/%2e%2e/etc/passwd", "/a/..%2f..%2fx"]
    {
        let r = app.http.get(app.url(path)).send().await.unwrap();
        assert_eq!(r.status(), 404, "{path}");
        assert!(r.text().await.unwrap().contains("404 Oops! Page not found"), "{path}");
    }
    let post = app.http.post(app.url("/services")).send().await.unwrap();
    assert_eq!(post.status(), 405);
    let head = app.http.head(app.url("/nope")).send().await.unwrap();
    assert_eq!(head.status(), 404);
}

#[tokio::test]
async fn data_pages_are_rendered_by_sql_as_anon_with_their_status() {
    let dir = site();
    let app = spawn_app_with(&[("GATEWAY_SITE_DIR", dir.path().to_str().unwrap())]).await;
    app.admin_client().await.batch_execute(FUNCTIONS).await.unwrap();
    let known = app.http.get(app.url("/jobs/known")).send().await.unwrap();
    assert_eq!(known.status(), 200);
    let html = known.text().await.unwrap();
    assert!(html.contains("<title>Known</title>") && html.contains("<h1>Known job</h1><p>anon</p>"), "{html}");
    let missing = app.http.get(app.url("/jobs/other")).send().await.unwrap();
    assert_eq!(missing.status(), 404);
    assert!(missing.text().await.unwrap().contains("Job Not Found"));
    let sitemap = app.http.get(app.url("/sitemap.xml")).send().await.unwrap();
    assert_eq!(sitemap.status(), 200);
    assert_eq!(sitemap.headers()["content-type"], "application/xml; charset=utf-8");
    assert!(sitemap.text().await.unwrap().starts_with("<urlset>"));
}
