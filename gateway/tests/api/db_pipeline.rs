//! The pipelined request connection (`db::pipeline`) against the real server: SCRAM sign-in as the pool user, text
//! parameters and results, prepared statements reused, an error skipping the rest of its pipeline without spoiling
//! the connection, transaction status, and a batch abandoned mid-flight leaving the connection marked broken.

use crate::helpers::spawn_app;
use gateway::core::db::pipeline::{self, PgError, Step, TxStatus};
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

#[tokio::test]
async fn a_batch_abandoned_mid_flight_leaves_the_connection_broken() {
    let app = spawn_app().await;
    let pool = pool(&app.db_name).await;
    let mut conn = pool.get().await.unwrap();
    let abandoned =
        tokio::time::timeout(Duration::from_millis(100), conn.pipeline(&[Step::new("select pg_sleep(2)")])).await;
    assert!(abandoned.is_err(), "the batch was still running");
    assert!(conn.is_broken());
    assert!(matches!(conn.execute("select 1").await, Err(PgError::Protocol(_))));
    drop(conn);
    // the pool replaces it rather than handing it out again
    let mut fresh = pool.get().await.unwrap();
    assert!(!fresh.is_broken());
    fresh.execute("select 1").await.unwrap();
}

#[tokio::test]
async fn the_pool_user_signs_in_with_its_password() {
    let app = spawn_app().await;
    let wrong = pipeline::pool::build(&db_url(&app.db_name, "not-the-password"), 1, Duration::from_secs(5)).unwrap();
    let err = wrong.get().await.err().expect("refused");
    assert!(err.to_string().contains("password authentication failed"), "{err}");
}
