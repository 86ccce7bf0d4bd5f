//! Where a data-API request's transaction runs. GET and HEAD — reads of tables and views, and functions called by
//! GET, which run read-only — go to a read replica when one is usable (`core::db::replicas`), unless the request
//! asks for the primary with `X-Read-From: primary` (to read its own writes); everything else runs on the primary.
//! A read the replica cannot answer (its connection or server failed, a conflict with recovery cancelled it, it
//! has not replayed an object yet) runs again on the primary, so a replica going away fails no request.

use super::error::Error;
use super::execute::{self, Decide, ReadError, TxJob};
use super::Rest;
use crate::core::db::pipeline::pool::PoolError;
use crate::core::db::pipeline::TextRow;
use crate::core::db::replicas::{fallback, Fallback};
use axum::http::{HeaderMap, HeaderName, Method};

/// Reads that may use a replica, by where they ran (`source`: `replica` or `primary`).
const READS: &str = "gateway_rest_reads_total";

/// The request header that sends a read to the primary.
pub const READ_FROM: &str = "x-read-from";

/// Where a request may run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Writes, and reads that asked for the primary.
    Primary,
    /// A read that a healthy replica may serve.
    AnyReplica,
}

/// GET and HEAD may read from a replica unless `X-Read-From: primary` asks otherwise.
pub fn source(method: &Method, headers: &HeaderMap) -> Source {
    let read = *method == Method::GET || *method == Method::HEAD;
    static READ_FROM_NAME: HeaderName = HeaderName::from_static(READ_FROM);
    let primary =
        headers.get(&READ_FROM_NAME).is_some_and(|v| v.as_bytes().trim_ascii().eq_ignore_ascii_case(b"primary"));
    if read && !primary {
        Source::AnyReplica
    } else {
        Source::Primary
    }
}

/// Runs the job where `source` allows (read-only jobs only ever leave the primary), falling back to the primary.
pub async fn run(
    rest: &Rest,
    source: Source,
    job: TxJob,
    decide: Decide,
) -> Result<(Vec<TextRow>, Vec<TextRow>), Error> {
    if source == Source::AnyReplica && job.read_only {
        if let Some(rows) = on_replica(rest, &job).await? {
            metrics::counter!(READS, "source" => "replica").increment(1);
            decide(&rows.0)?;
            return Ok(rows);
        }
        metrics::counter!(READS, "source" => "primary").increment(1);
    }
    execute::run(rest.pool(), job, decide).await
}

/// The rows from a usable replica, `None` when the primary must answer instead, or the request's own error.
async fn on_replica(rest: &Rest, job: &TxJob) -> Result<Option<(Vec<TextRow>, Vec<TextRow>)>, Error> {
    let Some(replica) = rest.replicas.pick() else { return Ok(None) }; // none configured, or none usable now
    match execute::read(replica.pool(), job).await {
        Ok(rows) => Ok(Some(rows)),
        // every connection busy: the primary takes the overflow
        Err(ReadError::Pool(PoolError::Timeout(_))) => Ok(None),
        Err(ReadError::Pool(PoolError::Backend(e))) => {
            replica.skip(&e);
            Ok(None)
        }
        Err(ReadError::Pool(_)) => Ok(None),
        Err(ReadError::Pg(e)) => match fallback(&e) {
            Fallback::None => Err(Error::from_pipeline(&e, job.authenticated)),
            Fallback::Primary => {
                tracing::debug!(error = %e, "rest: read replica refused a read; running it on the primary");
                Ok(None)
            }
            Fallback::PrimaryAndSkip => {
                replica.skip(&e);
                Ok(None)
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        pairs.iter().map(|(k, v)| (k.parse().unwrap(), v.parse().unwrap())).collect()
    }

    #[test]
    fn reads_may_use_a_replica_and_writes_never() {
        assert_eq!(source(&Method::GET, &headers(&[])), Source::AnyReplica);
        assert_eq!(source(&Method::HEAD, &headers(&[])), Source::AnyReplica);
        for m in [Method::POST, Method::PATCH, Method::PUT, Method::DELETE] {
            assert_eq!(source(&m, &headers(&[])), Source::Primary, "{m}");
        }
    }

    #[test]
    fn a_read_can_ask_for_the_primary() {
        assert_eq!(source(&Method::GET, &headers(&[("x-read-from", "primary")])), Source::Primary);
        assert_eq!(source(&Method::GET, &headers(&[("X-Read-From", " Primary ")])), Source::Primary);
        assert_eq!(source(&Method::GET, &headers(&[("x-read-from", "replica")])), Source::AnyReplica);
    }
}
