//! The floor under the gateway's CPU per request (issue 29): the least an HTTP server built on the gateway's own
//! libraries and runtime model spends to answer `make bench`'s requests with one PostgreSQL round trip each.
//!
//! It does only what no correct server can skip: hyper reads and parses the request, one pooled tokio-postgres
//! connection carries the same pipelined transaction as the scenario's pgbench twin (`tests/bench/*.pgbench`, sent
//! as one simple-query message), and hyper writes PostgreSQL's JSON text back. No key check, no planning, no
//! headers beyond hyper's own: whatever the gateway spends above this is its own; what this spends, any server on
//! this machine spends. `FLOOR_MODE=static` answers `[]` without PostgreSQL (the HTTP side alone).
//!
//! It speaks just enough of the gateway's command line for `tests/bench/lib.sh` to start it in its place:
//! `bench-floor keys` and `bench-floor serve` (PORT, GATEWAY_HOST, DATABASE_URL, PGRST_DB_POOL,
//! GATEWAY_HTTP_WORKERS). A benchmark tool, never a server to deploy.

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Method, Request, Response, StatusCode};
use std::convert::Infallible;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The pgbench twins, read at build time so the floor sends exactly what pgbench does.
const GET_ONE: &str = include_str!("../../get_one.pgbench");
const PAGE_TO_MANY: &str = include_str!("../../page_to_many.pgbench");
const INSERT: &str = include_str!("../../insert.pgbench");

fn main() -> anyhow::Result<()> {
    match std::env::args().nth(1).as_deref() {
        Some("keys") => {
            // lib.sh reads an anon key to hand to wrk; this server checks none
            println!("anon key: floor\nservice_role key: floor");
            Ok(())
        }
        Some("serve") => serve(),
        _ => anyhow::bail!("usage: bench-floor keys | serve"),
    }
}

fn var<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// One thread per worker, each with its own single-threaded runtime, its share of the pool and a clone of the
/// listening socket: the gateway's model (`gateway/src/core/workers.rs`).
fn serve() -> anyhow::Result<()> {
    let host: String = var("GATEWAY_HOST", "127.0.0.1".to_string());
    let port: u16 = var("PORT", 3000);
    let cores = std::thread::available_parallelism().map(usize::from).unwrap_or(1);
    let workers: usize = var("GATEWAY_HTTP_WORKERS", cores).max(1);
    let pool_total: usize = var("PGRST_DB_POOL", 10);
    let with_db = std::env::var("FLOOR_MODE").as_deref() != Ok("static");
    let url: String = var("DATABASE_URL", String::new());
    let listener = std::net::TcpListener::bind((host.as_str(), port))?;
    listener.set_nonblocking(true)?;
    println!("bench-floor listening on {host}:{port}");
    let threads = (0..workers)
        .map(|i| {
            let listener = listener.try_clone()?;
            let size = (pool_total / workers + usize::from(i < pool_total % workers)).max(1);
            let url = url.clone();
            Ok(std::thread::spawn(move || worker(listener, with_db.then_some((url, size)))))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    for thread in threads {
        thread.join().map_err(|_| anyhow::anyhow!("worker panicked"))??;
    }
    Ok(())
}

fn worker(listener: std::net::TcpListener, db: Option<(String, usize)>) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async move {
        let pool = match db {
            Some((url, size)) => Some(pool(&url, size)?),
            None => None,
        };
        let listener = tokio::net::TcpListener::from_std(listener)?;
        loop {
            let (stream, _) = listener.accept().await?;
            stream.set_nodelay(true)?;
            let pool = pool.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req| answer(pool.clone(), req));
                let io = hyper_util::rt::TokioIo::new(stream);
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(io, service).await;
            });
        }
    })
}

fn pool(url: &str, size: usize) -> anyhow::Result<deadpool_postgres::Pool> {
    let config: tokio_postgres::Config = url.parse()?;
    let manager = deadpool_postgres::Manager::from_config(
        config,
        tokio_postgres::NoTls,
        deadpool_postgres::ManagerConfig { recycling_method: deadpool_postgres::RecyclingMethod::Fast },
    );
    Ok(deadpool_postgres::Pool::builder(manager).max_size(size).build()?)
}

/// The scenario's pgbench transaction for this request, or None for a request `make bench` does not send.
fn transaction(method: &Method, path: &str, query: &str) -> Option<String> {
    let number = |prefix: &str| -> Option<u32> {
        let rest = query.split('&').find_map(|pair| pair.strip_prefix(prefix))?;
        rest.parse().ok()
    };
    match (method, path) {
        (&Method::GET, "/rest/v1/items") => match number("id=eq.") {
            Some(id) => Some(statements(GET_ONE).replace(":id", &id.to_string())),
            None => Some(statements(PAGE_TO_MANY).replace(":start", &number("id=gte.")?.to_string())),
        },
        (&Method::POST, "/rest/v1/events") => Some(statements(INSERT)),
        _ => None,
    }
}

/// A pgbench script's SQL as one simple-query text: its meta-commands (`\set`, `\startpipeline` …) and comments
/// left out, its variables (`:id`) still in place.
fn statements(script: &str) -> String {
    let sql = script.lines().filter(|l| !l.starts_with('\\') && !l.starts_with("--") && !l.trim().is_empty());
    sql.collect::<Vec<_>>().join(" ")
}

async fn answer(
    pool: Option<deadpool_postgres::Pool>,
    req: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let (parts, body) = req.into_parts();
    // the body is read whole, as any server must; the insert's values are the pgbench twin's
    let _ = body.collect().await;
    let Some(pool) = pool else { return Ok(reply(StatusCode::OK, Bytes::from_static(b"[]"))) };
    let Some(sql) = transaction(&parts.method, parts.uri.path(), parts.uri.query().unwrap_or("")) else {
        return Ok(reply(StatusCode::NOT_FOUND, Bytes::new()));
    };
    Ok(match run(&pool, &sql).await {
        Ok(Some(json)) => reply(StatusCode::OK, Bytes::from(json)),
        Ok(None) => reply(StatusCode::CREATED, Bytes::new()),
        Err(e) => reply(StatusCode::SERVICE_UNAVAILABLE, Bytes::from(e.to_string())),
    })
}

/// The transaction in one round trip; the text of the last row of the result's one text column, if any.
async fn run(pool: &deadpool_postgres::Pool, sql: &str) -> anyhow::Result<Option<String>> {
    let client = pool.get().await?;
    let messages = client.simple_query(sql).await?;
    Ok(messages.iter().rev().find_map(|m| match m {
        tokio_postgres::SimpleQueryMessage::Row(row)
            if row.columns().first().is_some_and(|c| c.name() != "set_config") =>
        {
            row.get(0).map(str::to_owned)
        }
        _ => None,
    }))
}

fn reply(status: StatusCode, body: Bytes) -> Response<Full<Bytes>> {
    let mut res = Response::new(Full::new(body));
    *res.status_mut() = status;
    res.headers_mut().insert(hyper::header::CONTENT_TYPE, hyper::header::HeaderValue::from_static("application/json"));
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_scenario_gets_its_pgbench_twin_and_nothing_else_is_answered() {
        let get = transaction(&Method::GET, "/rest/v1/items", "select=*&id=eq.42").unwrap();
        assert!(get.starts_with("BEGIN READ ONLY;") && get.contains("WHERE id = 42") && get.ends_with("COMMIT;"));
        assert!(!get.contains('\\') && !get.contains(":id"), "no pgbench meta-command or variable left: {get}");
        let page =
            transaction(&Method::GET, "/rest/v1/items", "select=id,name&id=gte.7&order=id.asc&limit=25").unwrap();
        assert!(page.contains("i.id >= 7") && page.contains("LIMIT 25"));
        let insert = transaction(&Method::POST, "/rest/v1/events", "").unwrap();
        assert!(insert.contains("INSERT INTO public.events") && insert.ends_with("COMMIT;"));
        assert_eq!(
            transaction(&Method::GET, "/rest/v1/items", "id=eq.1;drop table items"),
            None,
            "ids are numbers only"
        );
        assert_eq!(transaction(&Method::GET, "/rest/v1/other", "id=eq.1"), None);
        assert_eq!(transaction(&Method::DELETE, "/rest/v1/events", ""), None);
    }
}
