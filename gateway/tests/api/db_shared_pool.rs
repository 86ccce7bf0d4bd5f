//! The shared pool (`core::db::pool`) against the real server: a connection first opened for an HTTP worker's
//! runtime keeps working after that runtime is gone (as at shutdown, when a drained worker stops before the others).

use crate::helpers::spawn_app;
use std::sync::mpsc;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_opened_for_a_worker_outlives_the_workers_runtime() {
    let app = spawn_app().await;
    let password = std::env::var("TEST_AUTHENTICATOR_PASSWORD").expect("TEST_AUTHENTICATOR_PASSWORD");
    let port = std::env::var("TEST_PGPORT").expect("TEST_PGPORT");
    let url = format!("postgres://authenticator:{password}@127.0.0.1:{port}/{}", app.db_name);
    let pool = gateway::core::db::pool::build(&url, 1, Duration::from_secs(5)).unwrap();
    let (returned_tx, returned) = mpsc::channel();
    let (taken, taken_rx) = mpsc::channel();
    let for_worker = pool.clone();
    let worker = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async move {
            let client = for_worker.get().await.unwrap();
            client.query_one("select 1", &[]).await.unwrap();
        });
        returned_tx.send(()).unwrap();
        taken_rx.recv().unwrap();
        // the worker's runtime is dropped here, while another task holds the connection it asked for
    });
    wait(move || returned.recv().unwrap()).await;
    let client = pool.get().await.unwrap();
    taken.send(()).unwrap();
    wait(move || worker.join().unwrap()).await;
    let row = client.query_one("select 41 + 1", &[]).await.expect("the pooled connection still works");
    assert_eq!(row.get::<_, i32>(0), 42);
}

async fn wait<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    tokio::task::spawn_blocking(f).await.unwrap()
}
