//! Where a self-contained batch (one that ends its transaction at its own Sync: a read, or a write committed by its
//! Sync) runs. On a free connection of the pool, as any batch: nothing changes at low load. With none free, behind
//! other batches on a connection already shared (a line, `line.rs`), the least loaded with room; with no room
//! anywhere it waits for a connection as before (joining a line instead if one makes room first, in arrival order),
//! and opens that connection as a line others may join.

use super::conn::TextRow;
use super::drain::Pooled;
use super::error::PgError;
use super::line::{self, Line, Reply};
use super::pool::{self, Pool, PoolError};
use super::step::Step;

/// Batches larger than this never share (their bytes could fill the socket while the server answers another's).
const MAX_SHARED_BYTES: usize = 8 * 1024;

/// Runs a self-contained batch of `steps` on `pool`: each step's rows, or the server's or connection's error; the
/// outer error is the pool's (no connection in time).
pub async fn run(pool: &Pool, steps: &[Step<'_>]) -> Result<Result<Vec<Vec<TextRow>>, PgError>, PoolError> {
    if let Some(mut conn) = pool::free(pool).await? {
        return Ok(conn.pipeline(steps).await);
    }
    if size(steps) > MAX_SHARED_BYTES {
        let mut conn = pool.get().await.map(Pooled::new)?;
        return Ok(conn.pipeline(steps).await);
    }
    let place = match wait_for_place(pool, steps).await? {
        Place::Joined(reply) => reply,
        Place::Own(conn) => return Ok(lead(pool, conn, steps).await),
    };
    Ok(match place {
        Ok(reply) => answer(reply).await,
        Err(e) => Err(e),
    })
}

/// Where a batch with no free connection goes: behind others on a line, or first on a connection of its own.
#[allow(clippy::large_enum_variant)] // one short-lived value per waiting batch, moved once: boxing would allocate
enum Place {
    Joined(Result<Reply, PgError>),
    Own(Pooled),
}

/// Waits for room on a line or for a connection, whichever comes first. First come, first served: a batch that
/// arrives while others wait leaves the room it sees to them, and waits its turn (woken one per place made).
async fn wait_for_place(pool: &Pool, steps: &[Step<'_>]) -> Result<Place, PoolError> {
    let behind_others = pool.lines().waiting() > 0;
    let _waiting = pool.lines().wait();
    let get = pool.get();
    tokio::pin!(get);
    let mut look = !behind_others;
    loop {
        // armed before looking, so room made after the look is not missed (a stored wake-up only costs a look)
        let room = pool.lines().room().notified();
        tokio::pin!(room);
        room.as_mut().enable();
        if look {
            if let Some(reply) = pool.lines().join(steps) {
                return Ok(Place::Joined(reply));
            }
        }
        look = true;
        tokio::select! {
            conn = &mut get => return Ok(Place::Own(Pooled::new(conn?))),
            () = &mut room => {}
        }
    }
}

/// Opens `conn` as a line with this batch first, and waits for its answer.
async fn lead(pool: &Pool, mut conn: Pooled, steps: &[Step<'_>]) -> Result<Vec<Vec<TextRow>>, PgError> {
    let line = Line::open(&mut conn, pool.lines().room().clone());
    let reply = line.join(steps);
    pool.lines().add(line.clone());
    tokio::spawn(line::drive(line, conn));
    match reply {
        Some(Ok(reply)) => answer(reply).await,
        Some(Err(e)) => Err(e),
        None => Err(PgError::Protocol("a new line refused its first batch".into())),
    }
}

async fn answer(reply: Reply) -> Result<Vec<Vec<TextRow>>, PgError> {
    reply.await.unwrap_or_else(|_| Err(PgError::Protocol("the shared connection went away".into())))
}

/// About the bytes the batch's messages take.
fn size(steps: &[Step<'_>]) -> usize {
    steps.iter().map(|s| 64 + 2 * s.sql.len() + s.params.iter().map(|p| 4 + p.map_or(0, str::len)).sum::<usize>()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_batch_does_not_share() {
        let small = [Step::new("select 1"), Step::with_params("select $1", vec![Some("x")])];
        assert!(size(&small) < MAX_SHARED_BYTES);
        let body = "x".repeat(MAX_SHARED_BYTES);
        assert!(size(&[Step::with_params("insert", vec![Some(&body)])]) > MAX_SHARED_BYTES);
    }
}
