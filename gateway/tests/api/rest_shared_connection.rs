//! Requests sharing one PostgreSQL connection (`core::db::pipeline::share`): with a pool of one connection held by
//! a slow read, a burst of reads queues its batches on that connection once it is free, back to back. Each request
//! gets its own answer as its own role — one that fails and one whose client gives up mid-flight included — and
//! the connection is never replaced.

use crate::rest_fixtures::{parts, rest_app_with, user_token};
use reqwest::Method;
use serde_json::Value;
use std::time::Duration;

const FUNCTIONS: &str = r#"
create function public.echo(tag text, ms int default 0) returns json language plpgsql stable as $$
begin
  perform pg_sleep(ms / 1000.0);
  if tag = 'fail' then raise exception 'asked to fail' using errcode = '22023'; end if;
  return json_build_object('tag', tag, 'sub', auth.uid(), 'role', current_user, 'pid', pg_backend_pid(),
    'in_tx', txid_current_if_assigned() is not null);
end $$;
grant execute on function public.echo(text, int) to anon, authenticated;
"#;

const USERS: [&str; 2] = ["00000000-0000-0000-0000-00000000a11c", "00000000-0000-0000-0000-000000000b0b"];

/// The batches that joined another request's connection so far, from the metrics listener.
async fn shared_batches(metrics: &str) -> u64 {
    let text = reqwest::get(format!("http://{metrics}/")).await.unwrap().text().await.unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("gateway_db_shared_batches_total "))
        .map_or(0, |n| n.trim().parse::<f64>().unwrap() as u64)
}

fn free_port() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().to_string()
}

/// An app whose pool holds one connection (waits for it up to 10 s), with `echo` loaded and its metrics listener's
/// address.
async fn one_connection_app(extra: &[(&str, &str)]) -> (std::sync::Arc<crate::helpers::TestApp>, String) {
    let metrics = free_port();
    let mut settings = vec![
        ("PGRST_DB_POOL", "1"),
        ("PGRST_DB_POOL_ACQUISITION_TIMEOUT", "10"),
        ("GATEWAY_METRICS_ADDR", metrics.as_str()),
    ];
    settings.extend_from_slice(extra);
    let app = rest_app_with(&settings).await;
    app.admin_client().await.batch_execute(FUNCTIONS).await.unwrap();
    app.reload_schema().await;
    (std::sync::Arc::new(app), metrics)
}

/// GET /rpc/echo as `token` (anon when `None`); its status and body.
async fn echo(app: &crate::helpers::TestApp, token: Option<&str>, tag: &str, ms: u32) -> (u16, Value) {
    let path = format!("/rpc/echo?tag={tag}&ms={ms}");
    let request = match token {
        Some(token) => app.rest_as(Method::GET, &path, token),
        None => app.rest(Method::GET, &path),
    };
    let (status, _, body) = parts(request.send().await.unwrap()).await;
    (status, body)
}

#[tokio::test]
async fn requests_sharing_a_connection_each_get_their_own_answer() {
    let (app, metrics) = one_connection_app(&[]).await;
    let tokens: Vec<String> = USERS.iter().map(|sub| user_token(&app, sub)).collect();
    let (_, first) = echo(&app, None, "first", 0).await;
    let pid = first["pid"].as_i64().expect("a pid");
    for round in 0..3 {
        // the only connection is busy, so the burst below waits for it, then shares it
        let hold = tokio::spawn({
            let app = app.clone();
            async move { echo(&app, None, "hold", 300).await }
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        // a client that gives up while its batch waits on the shared connection
        let gone = {
            let app = app.clone();
            tokio::spawn(async move {
                tokio::time::timeout(Duration::from_millis(250), echo(&app, None, "gone", 100)).await
            })
        };
        let mut burst = vec![];
        for i in 0..16 {
            let app = app.clone();
            let token = (i % 3 < 2).then(|| tokens[i % 3].clone());
            let tag = if i == 5 { "fail".to_string() } else { format!("r{round}_{i}") };
            burst.push(tokio::spawn(async move { (i, tag.clone(), echo(&app, token.as_deref(), &tag, 10).await) }));
        }
        for handle in burst {
            let (i, tag, (status, body)) = handle.await.unwrap();
            if tag == "fail" {
                assert_eq!(status, 400, "{body}");
                assert_eq!(body["code"], "22023");
                assert_eq!(body["message"], "asked to fail");
                continue;
            }
            assert_eq!(status, 200, "{tag}: {body}");
            assert_eq!(body["tag"], tag.as_str());
            assert_eq!(body["pid"].as_i64(), Some(pid), "{tag}: the same backend throughout");
            assert_eq!(body["in_tx"], false, "{tag}: no transaction left over from another request's batch");
            match i % 3 {
                2 => (assert_eq!(body["role"], "anon"), assert_eq!(body["sub"], Value::Null)),
                user => (assert_eq!(body["role"], "authenticated"), assert_eq!(body["sub"], USERS[user])),
            };
        }
        assert_eq!(hold.await.unwrap().0, 200);
        assert!(gone.await.unwrap().is_err(), "the client gave up before its answer");
    }
    assert!(shared_batches(&metrics).await > 0, "no batch shared a connection");
    // the connection serves on, as itself
    let (status, after) = echo(&app, Some(&tokens[0]), "after", 0).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["pid"].as_i64(), Some(pid));
    assert_eq!(after["sub"], USERS[0]);
}

/// Two abandoned batches on one line, the first still running when its grace ends: the cancel request stops the
/// first, and the one queued behind it gets its own grace and cancel, so the connection comes back instead of being
/// closed after the second had run on past the bound.
#[tokio::test]
async fn every_abandoned_batch_on_a_line_is_cancelled_and_the_connection_kept() {
    let (app, metrics) = one_connection_app(&[("GATEWAY_HTTP_WORKERS", "1")]).await;
    let (_, first) = echo(&app, None, "first", 0).await;
    let pid = first["pid"].as_i64().expect("a pid");
    let shared_before = shared_batches(&metrics).await;
    // the only connection is busy, so the two below wait for it and then share it, one behind the other
    let hold = tokio::spawn({
        let app = app.clone();
        async move { echo(&app, None, "hold", 300).await }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let give_up = |tag: &'static str, ms: u32| {
        let app = app.clone();
        tokio::spawn(async move { tokio::time::timeout(Duration::from_millis(600), echo(&app, None, tag, ms)).await })
    };
    // both clients give up at ~700 ms; the first batch runs to ~2.3 s, so the line's grace ends while it runs
    let (running, queued) = (give_up("running", 2000), give_up("queued", 30_000));
    assert_eq!(hold.await.unwrap().0, 200);
    assert!(running.await.unwrap().is_err() && queued.await.unwrap().is_err(), "both clients gave up");
    assert_eq!(shared_batches(&metrics).await, shared_before + 1, "the second batch joined the first's line");
    // settled well within 1.5 s (two graces and cancels); before, the queued batch ran on until the 2 s bound
    // after the first cancel closed the connection
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let sleeping = "select count(*) from pg_stat_activity where datname = current_database() \
                    and query like '%echo%' and state = 'active' and pid <> pg_backend_pid()";
    let admin = app.admin_client().await;
    assert_eq!(admin.query_one(sleeping, &[]).await.unwrap().get::<_, i64>(0), 0, "no abandoned statement runs on");
    let (status, after) = echo(&app, None, "after", 0).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["pid"].as_i64(), Some(pid), "the connection was kept, not replaced");
}
