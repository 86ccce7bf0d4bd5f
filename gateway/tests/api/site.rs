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
            "dynamic":[{"prefix":"/jobs/","file":"_templates/job.html","function":"public.render_thing"},
                       {"path":"/search","file":"_templates/job.html","function":"public.render_search","query":true,
                        "post_function":"public.post_search"}],
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
create function public.render_search(rest text, query text) returns jsonb language sql stable set search_path = '' as $$
  select jsonb_build_object('status', case when query = '' then 200 else 203 end, 'head', '<title>Search</title>',
    'body', '<p>rest=[' || rest || '] query=[' || query || '] ' || current_setting('transaction_read_only') || '</p>')
$$;
create table public.site_posts (id bigserial primary key, query text, form text);
grant insert on public.site_posts to anon;
grant usage on sequence public.site_posts_id_seq to anon;
create function public.post_search(rest text, query text, form text) returns jsonb language sql volatile set search_path = '' as $$
  insert into public.site_posts (query, form) values (query, form);
  select jsonb_build_object('status', 202, 'head', '<title>Posted</title>', 'body', '<p>posted ' || form || '</p>')
$$;
grant execute on function public.render_search(text, text), public.post_search(text, text, text) to anon;
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

#[tokio::test]
async fn a_page_at_an_exact_path_gets_the_query_string_and_takes_posted_forms() {
    let dir = site();
    let app = spawn_app_with(&[("GATEWAY_SITE_DIR", dir.path().to_str().unwrap())]).await;
    app.admin_client().await.batch_execute(FUNCTIONS).await.unwrap();
    let plain = app.http.get(app.url("/search")).send().await.unwrap();
    assert_eq!(plain.status(), 200);
    assert!(plain.text().await.unwrap().contains("<p>rest=[] query=[] on</p>"));
    let filtered = app.http.get(app.url("/search?q=site+manager&sector=A%26B&sector=C")).send().await.unwrap();
    assert_eq!(filtered.status(), 203);
    let html = filtered.text().await.unwrap();
    assert!(html.contains("<p>rest=[] query=[q=site+manager&sector=A%26B&sector=C] on</p>"), "{html}");
    assert_eq!(app.http.get(app.url("/search/more")).send().await.unwrap().status(), 404);

    // POST runs the post function, read-write, with the raw form body.
    let posted = app
        .http
        .post(app.url("/search?token=abc"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(posted.status(), 202);
    assert!(posted.text().await.unwrap().contains("<p>posted List-Unsubscribe=One-Click</p>"));
    let rows = app.admin_client().await.query("select query, form from public.site_posts", &[]).await.unwrap();
    assert_eq!(
        (rows[0].get::<_, String>(0), rows[0].get::<_, String>(1)),
        ("token=abc".into(), "List-Unsubscribe=One-Click".into())
    );

    // Other methods, other pages, and oversized or non-UTF-8 forms are refused; nothing is written.
    let put = app.http.put(app.url("/search")).send().await.unwrap();
    assert_eq!((put.status().as_u16(), put.headers()["allow"].to_str().unwrap()), (405, "GET, HEAD, POST"));
    let post_page = app.http.post(app.url("/jobs/known")).body("x=1").send().await.unwrap();
    assert_eq!((post_page.status().as_u16(), post_page.headers()["allow"].to_str().unwrap()), (405, "GET, HEAD"));
    let big = app.http.post(app.url("/search")).body("x".repeat(17 * 1024)).send().await.unwrap();
    assert_eq!(big.status(), 413);
    let bad = app.http.post(app.url("/search")).body(vec![0xffu8, 0xfe]).send().await.unwrap();
    assert_eq!(bad.status(), 400);
    let rows = app.admin_client().await.query("select count(*) from public.site_posts", &[]).await.unwrap();
    assert_eq!(rows[0].get::<_, i64>(0), 1);
}
