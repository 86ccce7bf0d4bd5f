//! Runs one request's transaction on a pipelined connection, in one round trip where it can:
//! - reads: the preamble (made read-only; role, claims, search_path, …), setup statements and the statement under
//!   a single Sync, which ends the implicit transaction they share — no BEGIN or COMMIT to send;
//! - writes whose outcome cannot change the decision: the preamble and the statement under one Sync too, in the
//!   implicit transaction it commits (as a `COMMIT` would: deferred constraints are checked then, and their error is
//!   the answer) — two statements for PostgreSQL instead of four with `BEGIN` and `COMMIT`; the connection's
//!   defaults (`startup`) make it READ COMMITTED and read-write, as `BEGIN READ WRITE` did;
//! - other writes (singular, max-affected, `tx=rollback`, EXPLAIN): `BEGIN READ WRITE`, preamble and statement,
//!   then COMMIT or ROLLBACK as the response stage decides, in a second round trip.
//!
//! A caller that goes away mid-flight leaves the batch in flight; the pool's connection guard settles it in the
//! background (finishes or cancels it, rolls back what was open) and hands the connection back (`core::db::pipeline`).

use crate::core::context::RequestContext;
use crate::core::db::pipeline::{self, PgConn, PgError, Step, TextRow, TxStatus};
use crate::core::db::request_tx::{preamble_text, BEGIN_READ_WRITE};
use crate::rest::error::Error;
use crate::rest::fragment::Statement;

/// How the transaction ends once the rows are known.
pub type Decide = Box<dyn FnOnce(&[TextRow]) -> Result<bool, Error> + Send>;

/// One request's database work.
pub struct TxJob {
    pub context: RequestContext,
    pub read_only: bool,
    /// Statements run after the preamble, before the statement (`PGRST_DB_PRE_REQUEST`, EXPLAIN settings).
    pub setup: Vec<String>,
    pub stmt: Statement,
    /// Run after `stmt` in the same transaction (the EXPLAIN behind a planned count).
    pub extra: Option<Statement>,
    /// Whether the role is not the anonymous one (42501 → 403 rather than 401).
    pub authenticated: bool,
    /// A write that commits whatever the rows say (`decide` can only confirm): committed by the flight's Sync.
    pub commit_in_flight: bool,
}

/// Executes the job in a request transaction; `decide` returns whether to commit (or an error, which rolls
/// back). Returns the rows of the statement and of `extra`. A job that ends its transaction at its Sync (a read, or a
/// write committed in flight) may share a connection with others when none is free (`pipeline::share`).
pub async fn run(pool: &pipeline::Pool, job: TxJob, decide: Decide) -> Result<(Vec<TextRow>, Vec<TextRow>), Error> {
    let pool_error = |e| match e {
        pipeline::pool::PoolError::Timeout(_) => Error::PoolTimeout,
        other => Error::Connection(other.to_string()),
    };
    if self_contained(&job) {
        let rows = share(pool, &job).await.map_err(pool_error)?;
        let rows = rows.map_err(|e| Error::from_pipeline(&e, job.authenticated))?;
        decide(&rows.0)?;
        return Ok(rows);
    }
    let mut conn = pipeline::pool::checkout(pool).await.map_err(pool_error)?;
    run_on(&mut conn, &job, decide).await
}

/// Whether the job's single batch ends its own transaction (at its Sync), so it may share a connection.
fn self_contained(job: &TxJob) -> bool {
    job.read_only || job.commit_in_flight
}

fn step(stmt: &Statement) -> Step<'_> {
    Step::with_params(&stmt.sql, stmt.params.iter().map(|p| p.0.as_deref()).collect())
}

/// Why a read on a given pool produced no rows: no connection, or the database's answer.
pub enum ReadError {
    Pool(pipeline::pool::PoolError),
    Pg(PgError),
}

/// Runs a read-only job on `pool` as it is, without mapping errors, so the caller may run it elsewhere instead (a
/// read replica that failed). `decide` is not called.
pub async fn read(pool: &pipeline::Pool, job: &TxJob) -> Result<(Vec<TextRow>, Vec<TextRow>), ReadError> {
    debug_assert!(job.read_only);
    share(pool, job).await.map_err(ReadError::Pool)?.map_err(ReadError::Pg)
}

/// Runs a self-contained job's batch, on a connection of its own or one shared (`pipeline::share`).
async fn share(
    pool: &pipeline::Pool,
    job: &TxJob,
) -> Result<Result<(Vec<TextRow>, Vec<TextRow>), PgError>, pipeline::pool::PoolError> {
    let (pre_sql, pre_params) = preamble_text(&job.context, job.read_only);
    let steps = steps(job, &pre_sql, &pre_params);
    let results = pipeline::share::run(pool, &steps).await?;
    Ok(results.map(|results| rows_of(job, results, steps.len())))
}

/// The job's steps (BEGIN for a write that decides later, the preamble, setup, the statement and its extra).
fn steps<'a>(job: &'a TxJob, pre_sql: &'a str, pre_params: &[&'a String]) -> Vec<Step<'a>> {
    let mut steps = Vec::with_capacity(4 + job.setup.len());
    // reads and writes committed in flight run in the implicit transaction the Sync ends
    if !self_contained(job) {
        steps.push(Step::new(BEGIN_READ_WRITE));
    }
    // the statement is parsed inside the pipeline after the role switch, so schema privileges apply to it
    steps.push(Step::with_params(pre_sql, pre_params.iter().map(|p| Some(p.as_str())).collect()));
    steps.extend(job.setup.iter().map(|sql| Step::new(sql)));
    steps.push(step(&job.stmt));
    if let Some(extra) = &job.extra {
        steps.push(step(extra));
    }
    steps
}

/// The rows of the statement and of `extra` among the results of the job's `count` steps.
fn rows_of(job: &TxJob, mut results: Vec<Vec<TextRow>>, count: usize) -> (Vec<TextRow>, Vec<TextRow>) {
    let main = if job.extra.is_some() { count - 2 } else { count - 1 };
    let extra_rows = if job.extra.is_some() { results.get_mut(main + 1).map(std::mem::take) } else { None };
    let rows = results.get_mut(main).map(std::mem::take).unwrap_or_default();
    (rows, extra_rows.unwrap_or_default())
}

/// The job's steps as one pipeline on `conn`; the rows of the statement and of `extra`.
async fn send(conn: &mut PgConn, job: &TxJob) -> Result<(Vec<TextRow>, Vec<TextRow>), PgError> {
    let (pre_sql, pre_params) = preamble_text(&job.context, job.read_only);
    let steps = steps(job, &pre_sql, &pre_params);
    let results = conn.pipeline(&steps).await?;
    Ok(rows_of(job, results, steps.len()))
}

async fn run_on(conn: &mut PgConn, job: &TxJob, decide: Decide) -> Result<(Vec<TextRow>, Vec<TextRow>), Error> {
    let pg = |e: PgError| Error::from_pipeline(&e, job.authenticated);
    let (rows, extra_rows) = match send(conn, job).await {
        Ok(results) => results,
        Err(e) => {
            rollback_if_open(conn).await;
            return Err(pg(e));
        }
    };
    if job.read_only || job.commit_in_flight {
        // already ended: a read-only transaction has nothing to undo, and this write commits regardless
        decide(&rows)?;
        return Ok((rows, extra_rows));
    }
    end(conn, job, decide(&rows)).await?;
    Ok((rows, extra_rows))
}

/// Ends a write's transaction as `decision` says: COMMIT, ROLLBACK (deferred constraints still checked), or
/// ROLLBACK with the decision's error.
async fn end(conn: &mut PgConn, job: &TxJob, decision: Result<bool, Error>) -> Result<(), Error> {
    let pg = |e: PgError| Error::from_pipeline(&e, job.authenticated);
    match decision {
        Ok(true) => {
            if let Err(e) = conn.execute("COMMIT").await {
                rollback_if_open(conn).await;
                return Err(pg(e));
            }
            Ok(())
        }
        Ok(false) => {
            // deferred constraints still report their violations, as PostgREST does
            let checked = conn.pipeline(&[Step::new("SET CONSTRAINTS ALL IMMEDIATE"), Step::new("ROLLBACK")]).await;
            rollback_if_open(conn).await;
            checked.map(|_| ()).map_err(pg)
        }
        Err(e) => {
            rollback_if_open(conn).await;
            Err(e)
        }
    }
}

/// Never hands a connection back inside a transaction: a failed ROLLBACK leaves it broken, so it is discarded.
async fn rollback_if_open(conn: &mut PgConn) {
    if conn.is_broken() || conn.tx_status() == TxStatus::Idle {
        return;
    }
    if conn.execute("ROLLBACK").await.is_err() || conn.tx_status() != TxStatus::Idle {
        tracing::warn!("rest: ROLLBACK failed; the connection will be discarded");
        conn.discard();
    }
}
