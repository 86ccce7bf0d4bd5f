//! Runs one request's transaction: `BEGIN [READ ONLY]`, the preamble (role, claims, search_path, …) and the
//! statement are sent pipelined on one pooled connection with cached prepared statements; then COMMIT or
//! ROLLBACK as the response stage decides (pipelined too for read-only transactions). The work runs on its own
//! task so a client that disconnects never leaves a connection mid-transaction.

use crate::db::request_tx::{begin_sql, preamble, RequestSettings};
use crate::rest::error::Error;
use crate::rest::sql::fragment::Statement;
use deadpool_postgres::{Pool, PoolError};
use tokio_postgres::types::ToSql;
use tokio_postgres::Row;

/// Bound on distinct prepared statements kept per connection; past it, statements are prepared unnamed.
const MAX_CACHED_STATEMENTS: usize = 500;

/// How the transaction ends once the rows are known.
pub type Decide = Box<dyn FnOnce(&[Row]) -> Result<bool, Error> + Send>;

/// One request's database work.
pub struct TxJob {
    pub settings: RequestSettings,
    pub read_only: bool,
    /// Statements run after the preamble, before the statement (`PGRST_DB_PRE_REQUEST`, EXPLAIN settings).
    pub setup: Vec<String>,
    pub stmt: Statement,
    /// Run after `stmt` in the same transaction (the EXPLAIN behind a planned count).
    pub extra: Option<Statement>,
    /// Whether the role is not the anonymous one (42501 → 403 rather than 401).
    pub authenticated: bool,
}

/// Executes the job in a request transaction; `decide` returns whether to commit (or an error, which rolls
/// back). Returns the rows of the statement and of `extra`.
pub async fn run(pool: Pool, job: TxJob, decide: Decide) -> Result<(Vec<Row>, Vec<Row>), Error> {
    tokio::spawn(async move { run_inner(&pool, &job, decide).await })
        .await
        .map_err(|e| Error::Internal(format!("request task failed: {e}")))?
}

async fn run_inner(pool: &Pool, job: &TxJob, decide: Decide) -> Result<(Vec<Row>, Vec<Row>), Error> {
    let TxJob { settings, read_only, setup, stmt, extra, authenticated } = job;
    let (read_only, authenticated, extra) = (*read_only, *authenticated, extra.as_ref());
    let client = pool.get().await.map_err(|e| match e {
        PoolError::Timeout(_) => Error::PoolTimeout,
        other => Error::Connection(other.to_string()),
    })?;
    let pg = |e: tokio_postgres::Error| Error::from_pg(&e, authenticated);
    let (pre_sql, pre_params) = preamble(settings);
    let params: Vec<&(dyn ToSql + Sync)> = stmt.params.iter().map(|p| p as &(dyn ToSql + Sync)).collect();
    let cache_main = client.statement_cache.size() < MAX_CACHED_STATEMENTS;
    // BEGIN, the preamble and COMMIT never touch user schemas, so they may be prepared before the role switch.
    let (begin_st, pre_st, commit_st) = futures::try_join!(
        client.prepare_cached(begin_sql(read_only)),
        client.prepare_cached(&pre_sql),
        client.prepare_cached("COMMIT")
    )
    .map_err(pg)?;
    // try_join polls in order and each request is sent at its first poll, so the wire order is BEGIN, preamble,
    // then the statement's Parse (after the role switch: schema privileges apply) and Execute, then COMMIT —
    // which waits until the statement's Execute has gone out.
    let (sent, sent_rx) = tokio::sync::oneshot::channel::<()>();
    let begin = client.execute(&begin_st, &[]);
    let pre = client.execute(&pre_st, &pre_params);
    let main = async {
        for sql in setup {
            let st = client.prepare_cached(sql).await?;
            client.execute(&st, &[]).await?;
        }
        let st = if cache_main { client.prepare_cached(&stmt.sql).await? } else { client.prepare(&stmt.sql).await? };
        let mut query = std::pin::pin!(client.query(&st, &params));
        let first = futures::poll!(query.as_mut());
        let _ = sent.send(());
        match first {
            std::task::Poll::Ready(rows) => rows,
            std::task::Poll::Pending => query.await,
        }
    };
    let pipeline_commit = read_only && extra.is_none();
    let result = if pipeline_commit {
        let commit = async {
            match sent_rx.await {
                Ok(()) => client.execute(&commit_st, &[]).await,
                Err(_) => Ok(0),
            }
        };
        futures::try_join!(begin, pre, main, commit).map(|(_, _, rows, _)| rows).map_err(pg)
    } else {
        drop(sent_rx);
        futures::try_join!(begin, pre, main).map(|(_, _, rows)| rows).map_err(pg)
    };
    let result = match (result, extra) {
        (Ok(rows), Some(x)) => {
            let params: Vec<&(dyn ToSql + Sync)> = x.params.iter().map(|p| p as &(dyn ToSql + Sync)).collect();
            client.query(&x.sql, &params).await.map(|extra_rows| (rows, extra_rows)).map_err(pg)
        }
        (r, _) => r.map(|rows| (rows, vec![])),
    };
    let rows = match result {
        Ok(rows) => rows,
        Err(e) => {
            // the transaction may still be open (aborted); never return a connection inside it
            let _ = client.batch_execute("ROLLBACK").await;
            return Err(e);
        }
    };
    if pipeline_commit {
        // already committed (a read-only transaction has nothing to undo); still apply the checks
        decide(&rows.0)?;
        return Ok(rows);
    }
    match decide(&rows.0) {
        Ok(true) => {
            client.batch_execute("COMMIT").await.map_err(pg)?;
            Ok(rows)
        }
        Ok(false) => {
            // deferred constraints still report their violations, as PostgREST does
            let checked = client.batch_execute("SET CONSTRAINTS ALL IMMEDIATE").await;
            client.batch_execute("ROLLBACK").await.map_err(pg)?;
            checked.map_err(pg)?;
            Ok(rows)
        }
        Err(e) => {
            let _ = client.batch_execute("ROLLBACK").await;
            Err(e)
        }
    }
}
