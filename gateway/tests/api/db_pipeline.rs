//! The pipelined request connection (`db::pipeline`) against the real server: SCRAM sign-in as the pool user, text
//! parameters and results, prepared statements reused, an error skipping the rest of its pipeline without spoiling
//! the connection, transaction status, and a batch abandoned mid-flight settled (finished, or cancelled, and rolled
//! back) so the same backend is reused with none of the abandoned transaction's settings.

use crate::helpers::spawn_app;
use gateway::core::db::pipeline::{self, PgConn, PgError, Step, TxStatus};
use std::time::Duration;

fn db_url(db_name: &str, password: &str) -> String {
    let port = std::env::var("TEST_PGPORT").expect("TEST_PGPORT");
    format!("postgres://authenticator:{password}@127.0.0.1:{port}/{db_name}")
}

async fn pool(db_name: &str) -> pipeline::Pool {
    let password = std::env::var("TEST_AUTHENTICATOR_PASSWORD").expect("TEST_AUTHENTICATOR_PASSWORD");
    pipeline::pool::build(&db_url(db_name, &password), 2, Duration::from_secs(5)).unwrap()
}

#[tokio::test]
async fn text_parameters_and_results_with_prepared_statements_reused() {
    let app = spawn_app().await;
    let pool = pool(&app.db_name).await;
    let mut conn = pool.get().await.unwrap();
    for _ in 0..3 {
        let results = conn
            .pipeline(&[
                Step::with_params("select $1::int + 1, null::text", vec![Some("41")]),
                Step::with_params("select $1::text is null, $2::text", vec![None, Some("é ' \" \\")]),
                Step::new("select g from generate_series(1, 3) g"),
            ])
            .await
            .unwrap();
        assert_eq!(results.len(), 3);
        assert_eq!(results[0][0].get(0), Some("42"));
        assert_eq!(results[0][0].get(1), None);
        assert_eq!(results[1][0].get(0), Some("t"));
        assert_eq!(results[1][0].get(1), Some("é ' \" \\"));
        let series: Vec<_> = results[2].iter().map(|r| r.get(0).unwrap().to_string()).collect();
        assert_eq!(series, ["1", "2", "3"]);
        assert_eq!(conn.prepared_count(), 3, "each text prepared once");
        assert_eq!(conn.tx_status(), TxStatus::Idle);
    }
}

#[tokio::test]
async fn an_error_skips_the_rest_of_its_pipeline_and_the_connection_stays_usable() {
    let app = spawn_app().await;
    let pool = pool(&app.db_name).await;
    let mut conn = pool.get().await.unwrap();
    let err = conn
        .pipeline(&[
            Step::new("select set_config('app.seen', 'yes', true)"),
            Step::new("select 1 / 0"),
            Step::new("select current_setting('app.seen')"),
        ])
        .await
        .unwrap_err();
    let db = err.as_db().expect("a server error");
    assert_eq!(db.code, "22012");
    assert_eq!(db.message, "division by zero");
    assert_eq!(conn.tx_status(), TxStatus::Idle, "the implicit transaction ended at the Sync");
    assert!(!conn.is_broken());
    // the local setting went with that transaction
    let rows = conn.pipeline(&[Step::new("select current_setting('app.seen', true)")]).await.unwrap();
    assert!(matches!(rows[0][0].get(0), None | Some("")));
    // a statement that failed to parse is not remembered, and parses (and fails) again
    for _ in 0..2 {
        let err = conn.pipeline(&[Step::new("select nope from nowhere")]).await.unwrap_err();
        assert_eq!(err.as_db().unwrap().code, "42P01");
    }
}

#[tokio::test]
async fn statements_share_the_implicit_transaction_until_the_sync() {
    let app = spawn_app().await;
    let pool = pool(&app.db_name).await;
    let mut conn = pool.get().await.unwrap();
    let rows = conn
        .pipeline(&[
            Step::new("select set_config('transaction_read_only', 'on', true), set_config('app.x', '7', true)"),
            Step::new("select current_setting('app.x'), current_setting('transaction_read_only'), txid_current_if_assigned() is null"),
        ])
        .await
        .unwrap();
    assert_eq!(rows[1][0].get(0), Some("7"));
    assert_eq!(rows[1][0].get(1), Some("on"));
    let err = conn
        .pipeline(&[
            Step::new("select set_config('transaction_read_only', 'on', true)"),
            Step::new("create temporary table t (x int)"),
        ])
        .await
        .unwrap_err();
    assert_eq!(err.as_db().unwrap().code, "25006");
    // an explicit transaction stays open across batches until it is ended
    conn.pipeline(&[Step::new("BEGIN"), Step::new("select 1")]).await.unwrap();
    assert_eq!(conn.tx_status(), TxStatus::InTransaction);
    conn.execute("ROLLBACK").await.unwrap();
    assert_eq!(conn.tx_status(), TxStatus::Idle);
}

async fn backend_pid(conn: &mut PgConn) -> String {
    let rows = conn.pipeline(&[Step::new("select pg_backend_pid()")]).await.unwrap();
    rows[0][0].get(0).unwrap().to_string()
}

/// Starts `steps` and drops the batch after `after`, as a request whose client went away.
async fn abandon(conn: &mut PgConn, steps: &[Step<'_>], after: Duration) {
    let abandoned = tokio::time::timeout(after, conn.pipeline(steps)).await;
    assert!(abandoned.is_err(), "the batch was still running");
    assert!(conn.in_flight());
    assert!(!conn.is_broken());
    assert!(matches!(conn.execute("select 1").await, Err(PgError::Protocol(_))), "no new batch while one is in flight");
}

#[tokio::test]
async fn a_batch_abandoned_mid_flight_finishes_and_the_connection_is_reused() {
    let app = spawn_app().await;
    let pool = pool(&app.db_name).await;
    let mut conn = pool.get().await.unwrap();
    let pid = backend_pid(&mut conn).await;
    // shorter than the grace before a cancel: the batch runs to its end, its rows read and dropped
    abandon(
        &mut conn,
        &[Step::new("select g from pg_sleep(0.1), generate_series(1, 1000) g")],
        Duration::from_millis(20),
    )
    .await;
    assert!(pipeline::settle(&mut conn).await);
    assert!(!conn.in_flight());
    assert_eq!(conn.tx_status(), TxStatus::Idle);
    assert_eq!(backend_pid(&mut conn).await, pid);
    // the statement it parsed was recorded as prepared, and is reused
    let before = conn.prepared_count();
    conn.pipeline(&[Step::new("select g from pg_sleep(0.1), generate_series(1, 1000) g")]).await.unwrap();
    assert_eq!(conn.prepared_count(), before);
}

#[tokio::test]
async fn a_long_abandoned_batch_is_cancelled_and_its_transaction_and_role_do_not_outlive_it() {
    let app = spawn_app().await;
    let pool = pool(&app.db_name).await;
    let mut conn = pool.get().await.unwrap();
    let pid = backend_pid(&mut conn).await;
    let steps = [
        Step::new("BEGIN"),
        Step::new("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', '{\"sub\":\"abandoned\"}', true)"),
        Step::new("select pg_sleep(30)"),
    ];
    abandon(&mut conn, &steps, Duration::from_millis(100)).await;
    let started = std::time::Instant::now();
    assert!(pipeline::settle(&mut conn).await, "cancelled, drained and rolled back");
    assert!(started.elapsed() < Duration::from_secs(10), "the sleep was cancelled, not waited for");
    assert_eq!(conn.tx_status(), TxStatus::Idle);
    assert_eq!(backend_pid(&mut conn).await, pid, "the same backend");
    let rows = conn
        .pipeline(&[Step::new("select current_user, coalesce(current_setting('request.jwt.claims', true), '')")])
        .await
        .unwrap();
    assert_eq!(rows[0][0].get(0), Some("authenticator"));
    assert_eq!(rows[0][0].get(1), Some(""));
    // the cancel reached the abandoned statement only: the next ones run to their end
    conn.execute("select pg_sleep(0.3)").await.unwrap();
}

#[tokio::test]
async fn a_pooled_connection_dropped_mid_batch_goes_back_to_the_pool_healthy() {
    let app = spawn_app().await;
    let password = std::env::var("TEST_AUTHENTICATOR_PASSWORD").expect("TEST_AUTHENTICATOR_PASSWORD");
    let pool = pipeline::pool::build(&db_url(&app.db_name, &password), 1, Duration::from_secs(5)).unwrap();
    let pid = backend_pid(&mut pipeline::pool::checkout(&pool).await.unwrap()).await;
    for _ in 0..3 {
        let mut conn = pipeline::pool::checkout(&pool).await.unwrap();
        let steps = [Step::new("BEGIN"), Step::new("select pg_sleep(30)")];
        let _ = tokio::time::timeout(Duration::from_millis(50), conn.pipeline(&steps)).await;
        assert!(conn.in_flight());
        drop(conn); // settled in the background; the next checkout waits for it
        let mut next = pipeline::pool::checkout(&pool).await.unwrap();
        assert_eq!(backend_pid(&mut next).await, pid, "no new connection");
        assert_eq!(next.tx_status(), TxStatus::Idle);
    }
}

#[tokio::test]
async fn the_pool_user_signs_in_with_its_password() {
    let app = spawn_app().await;
    let wrong = pipeline::pool::build(&db_url(&app.db_name, "not-the-password"), 1, Duration::from_secs(5)).unwrap();
    let err = wrong.get().await.err().expect("refused");
    assert!(err.to_string().contains("password authentication failed"), "{err}");
}
