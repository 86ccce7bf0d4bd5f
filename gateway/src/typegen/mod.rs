//! `gateway types typescript`: prints the `Database` type that `supabase gen types typescript` (postgres-meta's
//! template) produces for the same schemas, so `createClient<Database>()` type-checks queries against this database.

mod catalog;
mod collate;
mod doc;
mod functions;
pub mod model;
mod render;
mod ts;
mod types;

pub use render::render;

/// Reads the catalog of `schemas` over `client` and renders the TypeScript file.
pub async fn typescript<C: tokio_postgres::GenericClient>(client: &C, schemas: &[String]) -> anyhow::Result<String> {
    let catalog = catalog::load(client, schemas).await?;
    Ok(render(&catalog))
}

/// The command: the database of GATEWAY_ADMIN_DB_URI (else the pool's), the schemas given or the exposed ones.
pub async fn command(schemas: Vec<String>) -> anyhow::Result<()> {
    let vars = crate::core::config::Vars::from_env();
    let uri =
        crate::core::config::env_first(&["GATEWAY_ADMIN_DB_URI", "PGRST_DB_URI", "DATABASE_URL", "GATEWAY_DB_URI"])
            .ok_or_else(|| anyhow::anyhow!("set GATEWAY_ADMIN_DB_URI or DATABASE_URL to the database to read"))?;
    let schemas = if schemas.is_empty() { crate::core::config::exposed_schemas(&vars) } else { schemas };
    let client = crate::core::db::pool::connect(&uri).await?;
    print!("{}", typescript(&client, &schemas).await?);
    Ok(())
}
