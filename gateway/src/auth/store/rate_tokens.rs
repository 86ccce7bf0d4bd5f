//! The shared token buckets of Auth's rate limiter (`gateway.take_rate_token`), so every instance counts alike.

use deadpool_postgres::Pool;

/// Takes one token from `key`'s bucket in `limiter`: whether there was one.
pub async fn take(pool: &Pool, limiter: &str, key: &str, per_second: f64, burst: f64) -> anyhow::Result<bool> {
    let client = pool.get().await.map_err(|e| anyhow::anyhow!("{e}"))?;
    let sql = "select gateway.take_rate_token($1, $2, $3, $4)";
    Ok(client.query_one(sql, &[&limiter, &key, &per_second, &burst]).await?.get::<_, bool>(0))
}
