//! Records the configured public URLs (`API_EXTERNAL_URL`, the auth site URL) in `gateway.public_urls` at start, so
//! SQL that writes links (e.g. notification mail) follows the configuration instead of a hard-coded address.

use deadpool_postgres::Pool;

/// Stores `api` and `site`; a database not yet migrated to have the table only gets a warning.
pub async fn record(pool: &Pool, api: &str, site: &str) {
    let result = async {
        let client = pool.get().await?;
        client.execute("select gateway.record_public_urls($1, $2)", &[&api, &site]).await?;
        anyhow::Ok(())
    }
    .await;
    if let Err(e) = result {
        tracing::warn!(error = %e, "could not record the public URLs for SQL (run `gateway migrate`)");
    }
}
