//! Pool exhaustion (security.md D3): waiters get 503 with `Retry-After` after the acquisition timeout, and
//! requests that fail before the database (bad token, bad query, OPTIONS) never wait for a connection.

use crate::rest_fixtures::{parts, rest_app_with};
use reqwest::Method;

#[tokio::test]
async fn exhausted_pool_is_503_and_cheap_failures_take_no_connection() {
    let app = rest_app_with(&[("PGRST_DB_POOL", "1"), ("PGRST_DB_POOL_ACQUISITION_TIMEOUT", "1")]).await;
    app.admin_client()
        .await
        .batch_execute(
            "create function public.slow() returns int language sql as 'select 1 from pg_sleep(2)';
             grant execute on function public.slow() to anon;",
        )
        .await
        .unwrap();
    app.reload_schema().await;
    let slow = app.rest(Method::POST, "/rpc/slow").json(&serde_json::json!({})).send();
    let holder = tokio::spawn(slow);
    // wait until the slow call holds the only connection
    let admin = app.admin_client().await;
    for _ in 0..200 {
        let n: i64 = admin
            .query_one("select count(*) from pg_stat_activity where query like '%\"slow\"%' and state = 'active' and pid <> pg_backend_pid()", &[])
            .await
            .unwrap()
            .get(0);
        if n > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let (status, headers, body) = parts(app.rest(Method::GET, "/users?select=username").send().await.unwrap()).await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["code"], "PGRST003");
    assert!(headers.contains_key("retry-after"));
    // these answer without waiting for the pool
    let (status, _, _) = parts(app.rest_as(Method::GET, "/users", "a.b.c").send().await.unwrap()).await;
    assert_eq!(status, 401);
    let (status, _, _) = parts(app.rest(Method::GET, "/users?id=bogus").send().await.unwrap()).await;
    assert_eq!(status, 400);
    let (status, _, _) = parts(app.rest(Method::GET, "/nope").send().await.unwrap()).await;
    assert_eq!(status, 404);
    let res = holder.await.unwrap().unwrap();
    assert_eq!(res.status(), 200);
}
