//! Keeping a gateway's [`Revocations`] in step with `gateway.revocations`: a dedicated connection LISTENs on
//! `gateway_revocations` (each notification names one revocation: `<kind> <id> <unix seconds>`), and every time it
//! (re)connects the recent rows are read again after the LISTEN, so a notification missed while disconnected
//! cannot leave a revoked token accepted.

use super::{Kind, Revocations, Revoked};
use crate::core::config::Config;
use futures::StreamExt;
use std::sync::Arc;
use std::time::Duration;
use tokio_postgres::{AsyncMessage, NoTls};
use uuid::Uuid;

const CHANNEL: &str = "gateway_revocations";

/// The revocations recorded within the hold, read over `client`.
pub async fn load(client: &tokio_postgres::Client, hold_secs: i64) -> anyhow::Result<Vec<Revoked>> {
    let rows = client
        .query(
            "select kind, id, floor(extract(epoch from revoked_at))::int8 from gateway.revocations \
             where revoked_at > now() - make_interval(secs => $1::int8::float8)",
            &[&hold_secs],
        )
        .await
        .map_err(|e| anyhow::anyhow!("cannot read gateway.revocations (run `gateway migrate`): {e}"))?;
    Ok(rows.iter().filter_map(|r| Some(Revoked { kind: Kind::parse(r.get(0))?, id: r.get(1), at: r.get(2) })).collect())
}

/// One notification's revocation.
pub fn parse(payload: &str) -> Option<Revoked> {
    let mut words = payload.split_whitespace();
    let kind = Kind::parse(words.next()?)?;
    let id = Uuid::parse_str(words.next()?).ok()?;
    let at = words.next()?.parse::<f64>().ok()?.floor() as i64;
    Some(Revoked { kind, id, at })
}

/// Listens until the process ends, reconnecting (and reloading) after a failure.
pub fn spawn(config: &Arc<Config>, revocations: &Arc<Revocations>) {
    let (config, revocations) = (config.clone(), revocations.clone());
    tokio::spawn(async move {
        let mut backoff = Duration::from_millis(200);
        loop {
            match listen_once(&config, &revocations).await {
                Ok(()) => backoff = Duration::from_millis(200),
                Err(e) => {
                    tracing::warn!(error = %e, "revocation listener failed; reconnecting");
                    backoff = (backoff * 2).min(Duration::from_secs(10));
                }
            }
            tokio::time::sleep(backoff).await;
        }
    });
}

async fn listen_once(config: &Config, revocations: &Revocations) -> anyhow::Result<()> {
    let (client, mut connection) = tokio_postgres::connect(&config.db_uri, NoTls).await?;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let driver = tokio::spawn(async move {
        let mut messages = futures::stream::poll_fn(move |cx| connection.poll_message(cx));
        while let Some(Ok(message)) = messages.next().await {
            if let AsyncMessage::Notification(n) = message {
                if tx.send(n.payload().to_string()).is_err() {
                    break;
                }
            }
        }
    });
    client.batch_execute(&format!("listen {CHANNEL}")).await?;
    // after the LISTEN: whatever was revoked while no one listened is in the table
    let now = chrono::Utc::now().timestamp();
    revocations.replace(load(&client, revocations.hold_secs()).await?, now);
    while let Some(payload) = rx.recv().await {
        match parse(&payload) {
            Some(r) => revocations.add([r], chrono::Utc::now().timestamp()),
            None => tracing::warn!(payload, "unreadable revocation notification"),
        }
    }
    driver.abort();
    anyhow::bail!("the listener's connection ended")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notifications_name_one_revocation() {
        let id = Uuid::new_v4();
        assert_eq!(
            parse(&format!("session {id} 1700000000.75")),
            Some(Revoked { kind: Kind::Session, id, at: 1700000000 })
        );
        assert_eq!(parse(&format!("user {id} 5")).map(|r| r.kind), Some(Kind::User));
        assert_eq!(parse("user not-a-uuid 5"), None);
        assert_eq!(parse(&format!("token {id} 5")), None);
        assert_eq!(parse(""), None);
    }
}
