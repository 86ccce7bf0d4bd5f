//! Keeping every running gateway's key set in step with `gateway.signing_keys`: `LISTEN gateway_keys` (a trigger
//! on the table notifies) and a poll every `GATEWAY_KEYS_REFRESH_SECS`.

use crate::core::config::Config;
use arc_swap::ArcSwap;
use deadpool_postgres::Pool;
use futures::StreamExt;
use jwks::KeySet;
use std::sync::Arc;
use std::time::Duration;
use tokio_postgres::{AsyncMessage, NoTls};

/// Keeps `keys` in step with the table (not when the keys come from `GOTRUE_JWT_KEYS`).
pub fn spawn_reloader(config: &Arc<Config>, pool: &Pool, keys: &Arc<ArcSwap<KeySet>>) {
    if config.vars.first(&["GOTRUE_JWT_KEYS"]).is_some() {
        return;
    }
    let stored = Stored { config: config.clone(), pool: pool.clone(), keys: keys.clone() };
    let every = Duration::from_secs(config.vars.num(&["GATEWAY_KEYS_REFRESH_SECS"], 30u64).max(1));
    tokio::spawn(async move {
        loop {
            let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<()>();
            let listener = match tokio_postgres::connect(&stored.config.db_uri, NoTls).await {
                Ok((client, mut connection)) => {
                    let mut messages = futures::stream::poll_fn(move |cx| connection.poll_message(cx));
                    tokio::spawn(async move {
                        while let Some(Ok(message)) = messages.next().await {
                            if let AsyncMessage::Notification(_) = message {
                                let _ = tx.send(());
                            }
                        }
                    });
                    client.batch_execute("listen gateway_keys").await.ok().map(|_| client)
                }
                Err(e) => {
                    tracing::warn!(error = %e, "key reload listener cannot connect; polling only");
                    None
                }
            };
            loop {
                let notified = tokio::select! {
                    n = rx.recv() => n.is_some(),
                    _ = tokio::time::sleep(every) => true,
                };
                stored.reload().await;
                if !notified || listener.as_ref().is_some_and(|c| c.is_closed()) {
                    break; // reconnect the listener
                }
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    });
}

/// The key set in force and where its keys are stored.
struct Stored {
    config: Arc<Config>,
    pool: Pool,
    keys: Arc<ArcSwap<KeySet>>,
}

impl Stored {
    /// Reloads the stored keys and swaps them in when anything changed.
    async fn reload(&self) {
        let client = match self.pool.get().await {
            Ok(c) => c,
            Err(e) => return tracing::warn!(error = %e, "cannot reload signing keys"),
        };
        match super::load(&client, self.config.jwt_secret.as_deref()).await {
            Ok(set) if set.current().is_some() && set.fingerprint() != self.keys.load().fingerprint() => {
                tracing::info!(keys = %set.fingerprint(), "signing keys reloaded");
                self.keys.store(Arc::new(set));
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "cannot reload signing keys"),
        }
    }
}
