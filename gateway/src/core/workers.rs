//! HTTP workers: one thread per CPU, each running its own single-threaded runtime that accepts on a shared
//! listening socket and serves its connections to the end. A request then stays on one thread from the socket to
//! the database and back: no work stealing, no cross-thread wake-ups, no scheduler atomics on the hot path (a
//! multi-threaded runtime cost ~15 % more CPU per request in profiles). Each worker has its own data-API pool.
//!
//! Each runtime also keeps one timer armed at all times ([`keep_timer_armed`]): tokio's time driver wakes its own
//! thread (a write to the runtime's eventfd, and one more return from `epoll_wait`) whenever a new timer is earlier
//! than the earliest one it knew of when it last parked — always, when it parked with none. Every request starts
//! timers (hyper's header-read limit for the next request, the body's limits), and a worker whose connections were
//! all busy parked with none: about one wake-up syscall per two requests under load. With a timer due within a
//! second at every park, a request's timers (10 s and more by default) are never the earliest.

use std::cell::Cell;

thread_local! {
    static WORKER: Cell<usize> = const { Cell::new(0) };
}

/// The index of the HTTP worker running on this thread (0 elsewhere).
pub fn current() -> usize {
    WORKER.get()
}

/// Serves `app` on `listener` with `workers` threads until `shutdown` resolves, then lets each worker finish its
/// connections gracefully.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: impl crate::core::conn::App,
    workers: usize,
    limits: crate::core::conn::ConnLimits,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let listener = listener.into_std()?;
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let mut threads = Vec::with_capacity(workers);
    for index in 0..workers {
        let listener = listener.try_clone()?;
        let (app, limits) = (app.clone(), limits.clone());
        let stopped = stopped.clone();
        let thread =
            std::thread::Builder::new().name(format!("http-{index}")).spawn(move || -> anyhow::Result<()> {
                WORKER.set(index);
                let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
                runtime.block_on(async move {
                    tokio::spawn(keep_timer_armed());
                    let listener = tokio::net::TcpListener::from_std(listener)?;
                    crate::core::conn::serve(listener, app, limits, stopped).await?;
                    Ok(())
                })
            })?;
        threads.push(thread);
    }
    // each worker holds its own copy: once they close theirs on shutdown, new connections are refused
    drop(listener);
    shutdown.await;
    stop.send_replace(true);
    tokio::task::spawn_blocking(move || {
        for thread in threads {
            match thread.join() {
                Ok(Err(e)) => tracing::warn!(error = %e, "http worker stopped with an error"),
                Err(_) => tracing::error!("http worker panicked"),
                Ok(Ok(())) => {}
            }
        }
    })
    .await?;
    Ok(())
}

/// Keeps a timer due within a second on this runtime for as long as it runs (see the module's note).
async fn keep_timer_armed() {
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
    }
}
