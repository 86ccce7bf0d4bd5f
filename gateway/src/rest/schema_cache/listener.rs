//! Keeps the schema cache fresh: a dedicated connection LISTENs on `pgrst`; on `reload schema` (sent by the
//! platform's DDL event trigger) the cache is rebuilt in the background and swapped atomically. Notifications
//! that arrive during a rebuild trigger one more rebuild, so the last one always wins; requests never wait.

use crate::state::AppState;
use futures::StreamExt;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, NoTls};

/// Runs forever: listen, rebuild on notification, reconnect (and rebuild, notifications may have been missed)
/// when the connection drops.
pub async fn run(state: AppState) {
    let mut backoff = Duration::from_millis(200);
    loop {
        match listen_once(&state).await {
            Ok(()) => backoff = Duration::from_millis(200),
            Err(e) => {
                tracing::warn!(error = %e, "rest: schema listener connection failed");
                backoff = (backoff * 2).min(Duration::from_secs(10));
            }
        }
        tokio::time::sleep(backoff).await;
        reload(&state).await;
    }
}

async fn listen_once(state: &AppState) -> anyhow::Result<()> {
    let (client, mut connection) = tokio_postgres::connect(&state.config.db_uri, NoTls).await?;
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let driver = tokio::spawn(async move {
        let mut messages = futures::stream::poll_fn(move |cx| connection.poll_message(cx));
        while let Some(message) = messages.next().await {
            match message {
                Ok(AsyncMessage::Notification(n)) => {
                    if tx.send(n.payload().to_string()).is_err() {
                        break;
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "rest: schema listener connection error");
                    break;
                }
            }
        }
    });
    client.batch_execute("LISTEN pgrst").await?;
    while let Some(payload) = rx.recv().await {
        let mut wanted = is_reload(&payload);
        // coalesce a burst: everything queued now is covered by one rebuild
        while let Ok(more) = rx.try_recv() {
            wanted |= is_reload(&more);
        }
        if wanted {
            reload(state).await;
        }
    }
    driver.abort();
    Ok(())
}

async fn reload_role_settings(state: &AppState) {
    let roles = crate::core::role_settings::api_roles(&state.config);
    let loaded = match state.pool.get().await {
        Ok(client) => crate::core::role_settings::RoleSettings::load(&**client, &roles).await,
        Err(e) => Err(e.into()),
    };
    match loaded {
        Ok(settings) => state.role_settings.store(std::sync::Arc::new(settings)),
        Err(e) => tracing::error!(error = %e, "role settings reload failed; keeping the previous ones"),
    }
}

fn is_reload(payload: &str) -> bool {
    matches!(payload.trim(), "" | "reload schema")
}

/// Rebuilds the cache and rereads the roles' settings, and swaps them in; on failure the old ones stay.
pub async fn reload(state: &AppState) {
    reload_role_settings(state).await;
    match state.rest.load_cache(&state.pool).await {
        Ok(cache) => {
            state.rest.cache.store(std::sync::Arc::new(cache));
            // cached plans may refer to dropped objects or changed row types
            state.pool.manager().statement_caches.clear();
            tracing::info!("rest: schema cache reloaded");
        }
        Err(e) => tracing::error!(error = %e, "rest: schema cache reload failed; keeping the previous cache"),
    }
}
