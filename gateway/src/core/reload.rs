//! Keeps what is read from the catalog fresh: a dedicated connection LISTENs on `pgrst`; on `reload schema` (sent
//! by the platform's DDL event trigger) the roles' settings are read again and each API rebuilds what it keeps
//! (REST its schema cache, through the hook it registers), in the background, each swapped atomically.
//! Notifications that arrive during a rebuild trigger one more rebuild, so the last one always wins; requests
//! never wait.

use crate::core::state::Core;
use futures::future::BoxFuture;
use futures::StreamExt;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, NoTls};

/// An API's rebuild after a schema change.
pub type Hook = Arc<dyn Fn() -> BoxFuture<'static, ()> + Send + Sync>;

/// The core and the hooks of the APIs that keep something read from the catalog.
#[derive(Clone)]
pub struct Reloader {
    core: Core,
    hooks: Vec<Hook>,
}

impl Reloader {
    pub fn new(core: Core, hooks: Vec<Hook>) -> Self {
        Reloader { core, hooks }
    }

    /// Rereads the roles' settings and runs every hook; what fails keeps its previous state.
    pub async fn reload(&self) {
        self.core.reload_role_settings().await;
        for hook in &self.hooks {
            hook().await;
        }
        // cached plans may refer to dropped objects or changed row types
        self.core.pool.manager().statement_caches.clear();
    }

    /// Listens until the process ends.
    pub fn spawn(self) {
        tokio::spawn(run(self));
    }
}

/// Runs forever: listen, rebuild on notification, reconnect (and rebuild, notifications may have been missed)
/// when the connection drops.
async fn run(reloader: Reloader) {
    let mut backoff = Duration::from_millis(200);
    loop {
        match listen_once(&reloader).await {
            Ok(()) => backoff = Duration::from_millis(200),
            Err(e) => {
                tracing::warn!(error = %e, "schema listener connection failed");
                backoff = (backoff * 2).min(Duration::from_secs(10));
            }
        }
        tokio::time::sleep(backoff).await;
        reloader.reload().await;
    }
}

async fn listen_once(reloader: &Reloader) -> anyhow::Result<()> {
    let (client, mut connection) = tokio_postgres::connect(&reloader.core.config.db_uri, NoTls).await?;
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
                    tracing::warn!(error = %e, "schema listener connection error");
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
            reloader.reload().await;
        }
    }
    driver.abort();
    Ok(())
}

fn is_reload(payload: &str) -> bool {
    matches!(payload.trim(), "" | "reload schema")
}
