//! A dedicated connection that `LISTEN`s on `gateway_outbox` and wakes the worker; it reconnects after errors.

use futures::StreamExt;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;
use tokio_postgres::AsyncMessage;

pub async fn listen(db_uri: String, wake: Arc<Notify>) {
    loop {
        if let Err(e) = listen_once(&db_uri, &wake).await {
            tracing::debug!(error = %e, "outbox listener disconnected");
        }
        // Whatever was missed meanwhile is picked up by the worker's poll; wake it once now.
        wake.notify_one();
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
}

async fn listen_once(db_uri: &str, wake: &Notify) -> anyhow::Result<()> {
    let (client, mut connection) = tokio_postgres::connect(db_uri, tokio_postgres::NoTls).await?;
    let mut messages = futures::stream::poll_fn(move |cx| connection.poll_message(cx));
    let listen = client.batch_execute("LISTEN gateway_outbox");
    tokio::pin!(listen);
    // Drive the connection while LISTEN runs.
    loop {
        tokio::select! {
            r = &mut listen => {
                r?;
                // Anything queued before LISTEN took effect sent its notification to nobody: look now.
                wake.notify_one();
                break;
            }
            m = messages.next() => match m {
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(e.into()),
                None => return Ok(()),
            }
        }
    }
    while let Some(message) = messages.next().await {
        if let AsyncMessage::Notification(_) = message? {
            wake.notify_one();
        }
    }
    Ok(())
}
