//! The one request context reaches PostgreSQL the same way through every API: the role, `request.jwt.claims`,
//! `request.headers` (with `authorization`), `request.method`, `request.path` and the role's own settings
//! (`statement_timeout`, reloaded on `NOTIFY pgrst`) — through REST, RPC, a Storage upload and a site page.

use crate::helpers::{spawn_app_with, TestApp};
use crate::rest_fixtures::user_token;
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

const USER: &str = "00000000-0000-0000-0000-0000000000c7";

/// What SQL sees of the request it runs in, as one JSON object.
const FIXTURES: &str = r#"
create function public.request_context() returns jsonb language sql stable as $$
  select jsonb_build_object(
    'role', current_user,
    'claims', nullif(current_setting('request.jwt.claims', true), '')::jsonb,
    'headers', nullif(current_setting('request.headers', true), '')::jsonb,
    'method', current_setting('request.method', true),
    'path', current_setting('request.path', true),
    'statement_timeout', current_setting('statement_timeout'))
$$;
grant execute on function public.request_context() to anon, authenticated, service_role;
create view public.request_context_view as select public.request_context() as context;
grant select on public.request_context_view to anon, authenticated;

create table public.context_log (id serial primary key, context jsonb not null);
grant insert on public.context_log to authenticated;
grant usage on sequence public.context_log_id_seq to authenticated;
create function public.log_upload_context() returns trigger language plpgsql as $$
begin
  insert into public.context_log (context) values (public.request_context());
  return new;
end $$;
create trigger log_upload_context before insert on storage.objects
  for each row execute function public.log_upload_context();
create policy context_uploads on storage.objects for insert to authenticated with check (bucket_id = 'context');

create function public.context_page(arg text) returns jsonb language sql stable as $$
  select jsonb_build_object('status', 200, 'head', '', 'body', '<pre>' || public.request_context()::text || '</pre>')
$$;
grant execute on function public.context_page(text) to anon;
"#;

fn site(dir: &Path) {
    std::fs::create_dir_all(dir.join("_templates")).unwrap();
    std::fs::write(dir.join("index.html"), "<html><head><!--runtime-config--></head><body>home</body></html>").unwrap();
    std::fs::write(dir.join("_templates/page.html"), "<html><body><!--ssr-body--></body></html>").unwrap();
    let manifest =
        r#"{"dynamic":[{"prefix":"/context/","file":"_templates/page.html","function":"public.context_page"}]}"#;
    std::fs::write(dir.join("_site.json"), manifest).unwrap();
}

struct Probe {
    app: TestApp,
    token: String,
    _site: tempfile::TempDir,
    _storage: tempfile::TempDir,
}

async fn probe_app() -> Probe {
    let (site_dir, storage_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    site(site_dir.path());
    let app = spawn_app_with(&[
        ("GATEWAY_SITE_DIR", site_dir.path().to_str().unwrap()),
        ("FILE_STORAGE_BACKEND_PATH", storage_dir.path().to_str().unwrap()),
        ("GATEWAY_OUTBOX", "off"),
    ])
    .await;
    app.admin_client().await.batch_execute(FIXTURES).await.expect("fixtures");
    app.reload_schema().await;
    let bucket = app
        .http
        .post(app.url("/storage/v1/bucket"))
        .header("apikey", &app.service_key)
        .bearer_auth(&app.service_key)
        .json(&json!({"name": "context"}))
        .send()
        .await
        .unwrap();
    assert_eq!(bucket.status(), 200);
    let token = user_token(&app, USER);
    Probe { app, token, _site: site_dir, _storage: storage_dir }
}

impl Probe {
    /// `request_context()` as a REST read of a view answers it.
    async fn rest(&self) -> Value {
        let body: Value = self
            .app
            .http
            .get(self.app.url("/rest/v1/request_context_view?select=context"))
            .header("apikey", &self.app.anon_key)
            .bearer_auth(&self.token)
            .header("x-probe", "rest")
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        body[0]["context"].clone()
    }

    async fn rpc(&self) -> Value {
        let res = self
            .app
            .http
            .get(self.app.url("/rest/v1/rpc/request_context"))
            .header("apikey", &self.app.anon_key)
            .bearer_auth(&self.token)
            .header("x-probe", "rpc")
            .send()
            .await
            .unwrap();
        res.json().await.unwrap()
    }

    /// The context the upload's trigger recorded.
    async fn storage_upload(&self, name: &str) -> Value {
        let res = self
            .app
            .http
            .post(self.app.url(&format!("/storage/v1/object/context/{name}")))
            .header("apikey", &self.app.anon_key)
            .bearer_auth(&self.token)
            .header("x-probe", "storage")
            .header("content-type", "text/plain")
            .body("hello")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
        let db = self.app.admin_client().await;
        db.query_one("select context from public.context_log order by id desc limit 1", &[]).await.unwrap().get(0)
    }

    /// The context a data-rendered page's function saw (the page is always rendered as the anonymous role).
    async fn site_page(&self) -> Value {
        let html = self
            .app
            .http
            .get(self.app.url("/context/x"))
            .bearer_auth(&self.token)
            .header("x-probe", "site")
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let inner = html.split("<pre>").nth(1).and_then(|s| s.split("</pre>").next()).expect("the page body");
        serde_json::from_str(inner).unwrap()
    }
}

/// What every API must have told SQL: the user's claims, every header including `authorization`, the method,
/// the path under the API's mount, and the role's own `statement_timeout`.
fn assert_context(via: &str, ctx: &Value, token: &str, method: &str, path: &str, timeout: &str) {
    assert_eq!(ctx["role"], "authenticated", "{via}: {ctx}");
    assert_eq!(ctx["claims"]["sub"], USER, "{via}: {ctx}");
    assert_eq!(ctx["claims"]["role"], "authenticated", "{via}: {ctx}");
    assert_eq!(ctx["headers"]["authorization"], format!("Bearer {token}"), "{via}: {ctx}");
    assert_eq!(ctx["headers"]["x-probe"], via, "{via}: {ctx}");
    assert_eq!((ctx["method"].as_str(), ctx["path"].as_str()), (Some(method), Some(path)), "{via}: {ctx}");
    assert_eq!(ctx["statement_timeout"], timeout, "{via}: {ctx}");
}

fn assert_anonymous_page(ctx: &Value, token: &str, timeout: &str) {
    assert_eq!((&ctx["role"], &ctx["claims"]), (&json!("anon"), &json!({"role": "anon"})), "{ctx}");
    assert_eq!(ctx["headers"]["authorization"], format!("Bearer {token}"), "{ctx}");
    assert_eq!(ctx["headers"]["x-probe"], "site", "{ctx}");
    assert_eq!((ctx["method"].as_str(), ctx["path"].as_str()), (Some("GET"), Some("/context/x")), "{ctx}");
    assert_eq!(ctx["statement_timeout"], timeout, "{ctx}");
}

#[tokio::test]
async fn every_api_tells_sql_the_same_request_context() {
    let p = probe_app().await;
    // the roles' settings from the platform migration (0001_roles.sql)
    assert_context("rest", &p.rest().await, &p.token, "GET", "/request_context_view", "8s");
    assert_context("rpc", &p.rpc().await, &p.token, "GET", "/rpc/request_context", "8s");
    assert_context("storage", &p.storage_upload("one.txt").await, &p.token, "POST", "/object/context/one.txt", "8s");
    assert_anonymous_page(&p.site_page().await, &p.token, "3s");
}

#[tokio::test]
async fn role_settings_changed_in_the_database_reach_every_api_after_notify() {
    let p = probe_app().await;
    let db = p.app.admin_client().await;
    let name = &p.app.db_name;
    db.batch_execute(&format!(
        "alter role authenticated in database \"{name}\" set statement_timeout = '7s'; \
         alter role anon in database \"{name}\" set statement_timeout = '6s'; notify pgrst, 'reload schema';"
    ))
    .await
    .unwrap();
    let mut waited = Duration::ZERO;
    while p.rest().await["statement_timeout"] != "7s" {
        assert!(waited < Duration::from_secs(10), "the reload never came");
        tokio::time::sleep(Duration::from_millis(100)).await;
        waited += Duration::from_millis(100);
    }
    assert_context("rpc", &p.rpc().await, &p.token, "GET", "/rpc/request_context", "7s");
    assert_context("storage", &p.storage_upload("two.txt").await, &p.token, "POST", "/object/context/two.txt", "7s");
    assert_anonymous_page(&p.site_page().await, &p.token, "6s");
}
