//! Probes on the main port, unauthenticated and cheap: `GET /health` (the process serves: 200, no database) and
//! `GET /ready` (200 when the database answers within a second and every app migration in the folder is applied,
//! else 503 with the reason; 503 too once a stop signal came, while the gateway still serves for
//! `GATEWAY_SHUTDOWN_DELAY_SECS`), as load balancers and orchestrators expect.

use crate::core::Core;
use axum::extract::{FromRef, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

/// How long `/ready` waits for the database before answering 503.
const READY_WAIT: Duration = Duration::from_secs(1);

/// The two probes; the app migrations expected are read from the folder once, here.
pub fn router<S>(core: &Core) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Core: FromRef<S>,
{
    let dir = std::path::Path::new(&core.config.migrations_dir);
    let expected: Arc<Vec<String>> = Arc::new(match crate::core::db::migrate::app_migrations(dir) {
        Ok(files) => files.into_iter().map(|(name, _)| name).collect(),
        Err(e) => {
            tracing::warn!(error = %e, "ready probe: cannot read the migrations folder; not checking migrations");
            vec![]
        }
    });
    Router::new()
        .route("/health", get(|| async { Json(json!({ "status": "ok" })) }))
        .route("/ready", get(move |core: State<Core>| ready(core, expected.clone())))
}

async fn ready(State(core): State<Core>, expected: Arc<Vec<String>>) -> Response {
    if core.stopping.has_begun() {
        return unavailable(json!({ "reason": "shutting down" }));
    }
    match tokio::time::timeout(READY_WAIT, applied_migrations(&core)).await {
        Ok(Ok(applied)) => match pending(&expected, &applied) {
            pending if pending.is_empty() => Json(json!({ "status": "ready" })).into_response(),
            pending => unavailable(json!({ "reason": "migrations pending", "pending": pending })),
        },
        Ok(Err(e)) => unavailable(json!({ "reason": "database unavailable", "detail": e.to_string() })),
        Err(_) => unavailable(json!({ "reason": "database unavailable", "detail": "no answer within 1 s" })),
    }
}

async fn applied_migrations(core: &Core) -> anyhow::Result<Vec<String>> {
    let client = core.pool.get().await?;
    let row = client.query_one("select coalesce(array_agg(name), '{}') from gateway.schema_migrations", &[]).await?;
    Ok(row.get(0))
}

/// The expected migrations not yet applied, in order.
fn pending(expected: &[String], applied: &[String]) -> Vec<String> {
    expected.iter().filter(|name| !applied.contains(name)).cloned().collect()
}

fn unavailable(mut body: serde_json::Value) -> Response {
    body["status"] = json!("unavailable");
    (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_lists_what_is_not_applied_in_order() {
        let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(pending(&s(&["0001_a", "0002_b", "0003_c"]), &s(&["0002_b", "0001_a"])), s(&["0003_c"]));
        assert!(pending(&s(&["0001_a"]), &s(&["0001_a", "0000_old"])).is_empty());
    }
}
