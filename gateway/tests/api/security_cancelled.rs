//! D2/D3: a client that gives up mid-request (closes its connection while the statement runs) costs the server no
//! new PostgreSQL connection — the abandoned batch is finished or cancelled in the background and the same backend
//! serves the next request — and nothing of the abandoned request's identity (`role`, `request.jwt.claims`) or
//! transaction reaches the next user of that connection.

use crate::rest_fixtures::{parts, rest_app_with, user_token};
use reqwest::Method;
use serde_json::{json, Value};
use std::time::Duration;

const FUNCTIONS: &str = r#"
create table public.naps (seconds float8, sub text);
grant insert on public.naps to anon, authenticated;
create function public.nap(seconds float8) returns int language plpgsql volatile as $$
begin
  perform set_config('app.mark', coalesce(auth.uid()::text, 'anon'), true);
  perform pg_sleep(seconds);
  insert into public.naps values (seconds, auth.uid()::text);
  return pg_backend_pid();
end $$;
create function public.me() returns json language sql stable as $$
  select json_build_object('pid', pg_backend_pid(), 'role', current_user, 'sub', auth.uid(),
    'claims', current_setting('request.jwt.claims', true), 'mark', current_setting('app.mark', true),
    'in_tx', txid_current_if_assigned() is not null) $$;
grant execute on function public.nap(float8), public.me() to anon, authenticated;
"#;

const ALICE: &str = "00000000-0000-0000-0000-00000000a11c";
const BOB: &str = "00000000-0000-0000-0000-000000000b0b";

/// Calls `nap(seconds)` as `token` and gives up after `patience`: the client drops the connection mid-request.
async fn give_up(app: &crate::helpers::TestApp, token: &str, seconds: f64, patience: Duration) {
    let call = app.rest_as(Method::POST, "/rpc/nap", token).json(&json!({ "seconds": seconds })).send();
    assert!(tokio::time::timeout(patience, call).await.is_err(), "the call was still running when the client left");
}

async fn me(app: &crate::helpers::TestApp, token: &str) -> Value {
    let (status, _, body) =
        parts(app.rest_as(Method::POST, "/rpc/me", token).json(&json!({})).send().await.unwrap()).await;
    assert_eq!(status, 200, "{body}");
    body
}

#[tokio::test]
async fn d2_cancelled_requests_keep_their_connection_and_leak_no_identity_to_the_next_user() {
    // one pooled connection, so every request runs on the same backend unless it is replaced
    let app = rest_app_with(&[("PGRST_DB_POOL", "1"), ("PGRST_DB_POOL_ACQUISITION_TIMEOUT", "10")]).await;
    let admin = app.admin_client().await;
    admin.batch_execute(FUNCTIONS).await.unwrap();
    app.reload_schema().await;
    let (alice, bob) = (user_token(&app, ALICE), user_token(&app, BOB));
    let first = me(&app, &bob).await;
    let pid = first["pid"].as_i64().expect("a pid");
    let started: String = admin
        .query_one("select backend_start::text from pg_stat_activity where pid = $1", &[&(pid as i32)])
        .await
        .unwrap()
        .get(0);
    for round in 0..3 {
        // a short statement finishes in the background; a long one is cancelled on PostgreSQL's side
        give_up(&app, &alice, 0.3, Duration::from_millis(100)).await;
        give_up(&app, &alice, 30.0, Duration::from_millis(100)).await;
        let as_bob = me(&app, &bob).await;
        assert_eq!(as_bob["pid"].as_i64(), Some(pid), "round {round}: the same backend, no new connection");
        assert_eq!(as_bob["role"], "authenticated");
        assert_eq!(as_bob["sub"], BOB, "round {round}: Bob sees his own identity");
        assert!(as_bob["claims"].as_str().unwrap().contains(BOB));
        assert!(matches!(as_bob["mark"].as_str(), None | Some("")), "round {round}: {as_bob}");
        let as_anon = me(&app, &app.anon_key).await;
        assert_eq!(as_anon["pid"].as_i64(), Some(pid));
        assert_eq!(as_anon["role"], "anon");
        assert_eq!(as_anon["sub"], Value::Null, "round {round}: {as_anon}");
    }
    let still: String = admin
        .query_one("select backend_start::text from pg_stat_activity where pid = $1", &[&(pid as i32)])
        .await
        .unwrap()
        .get(0);
    assert_eq!(still, started, "the backend was never restarted");
    // the long calls were cancelled and rolled back, not left running or committed
    let long: i64 = admin.query_one("select count(*) from public.naps where seconds > 1", &[]).await.unwrap().get(0);
    assert_eq!(long, 0);
    let running: i64 = admin
        .query_one("select count(*) from pg_stat_activity where query like '%pg_sleep%' and state = 'active' and pid <> pg_backend_pid()", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(running, 0, "no abandoned statement still runs");
}
