//! `gateway migrate`: the platform schema embedded in the binary, then the app's migrations from a folder,
//! each recorded with a checksum. App migrations are append-only: a changed applied file is an error.

use sha2::{Digest, Sha256};
use std::path::Path;

/// The gateway's own schema, applied in this order on every `migrate` (each file is idempotent).
pub const PLATFORM: &[(&str, &str)] = &[
    ("0001_roles", include_str!("../../migrations/0001_roles.sql")),
    ("0002_gateway_schema", include_str!("../../migrations/0002_gateway_schema.sql")),
    ("0003_auth_schema", include_str!("../../migrations/0003_auth_schema.sql")),
    ("0004_reload_schema_trigger", include_str!("../../migrations/0004_reload_schema_trigger.sql")),
    ("0010_auth_admin_role", include_str!("../../migrations/0010_auth_admin_role.sql")),
    ("0011_signing_keys_notify", include_str!("../../migrations/0011_signing_keys_notify.sql")),
    ("0020_storage_schema", include_str!("../../migrations/0020_storage_schema.sql")),
    ("0021_mail_outbox", include_str!("../../migrations/0021_mail_outbox.sql")),
    ("0030_rest_explain_query_id", include_str!("../../migrations/0030_rest_explain_query_id.sql")),
    ("0040_realtime_schema", include_str!("../../migrations/0040_realtime_schema.sql")),
    ("0050_storage_sweep", include_str!("../../migrations/0050_storage_sweep.sql")),
    ("0080_signing_keys_hs256", include_str!("../../migrations/0080_signing_keys_hs256.sql")),
];

/// What `run` did.
#[derive(Debug, Default)]
pub struct Report {
    pub applied: Vec<String>,
    pub skipped: usize,
}

/// Applies the platform schema and then every app migration not yet recorded, each in its own transaction.
pub async fn run(client: &mut tokio_postgres::Client, app_dir: &Path) -> anyhow::Result<Report> {
    // One migrator per database at a time.
    client.execute("select pg_advisory_lock(7261001)", &[]).await?;
    let result = apply_all(client, app_dir).await;
    client.execute("select pg_advisory_unlock(7261001)", &[]).await?;
    result
}

async fn apply_all(client: &mut tokio_postgres::Client, app_dir: &Path) -> anyhow::Result<Report> {
    for (name, sql) in PLATFORM {
        let tx = client.transaction().await?;
        tx.batch_execute(sql).await.map_err(|e| anyhow::anyhow!("platform migration {name}: {}", describe(&e)))?;
        tx.commit().await?;
    }
    let mut report = Report::default();
    for (name, sql) in app_migrations(app_dir)? {
        let checksum = hex(&Sha256::digest(sql.as_bytes()));
        let row = client.query_opt("select checksum from gateway.schema_migrations where name = $1", &[&name]).await?;
        match row {
            Some(r) => {
                let applied: String = r.get(0);
                if applied != checksum {
                    anyhow::bail!("migration {name} was changed after it was applied; add a new migration instead");
                }
                report.skipped += 1;
            }
            None => {
                let tx = client.transaction().await?;
                tx.batch_execute(&sql).await.map_err(|e| anyhow::anyhow!("migration {name}: {}", describe(&e)))?;
                tx.execute(
                    "insert into gateway.schema_migrations (name, checksum) values ($1, $2)",
                    &[&name, &checksum],
                )
                .await?;
                tx.commit().await?;
                report.applied.push(name);
            }
        }
    }
    Ok(report)
}

/// The `*.sql` files of a folder in name order, as (name without extension, contents).
pub fn app_migrations(dir: &Path) -> anyhow::Result<Vec<(String, String)>> {
    if !dir.exists() {
        return Ok(vec![]);
    }
    let mut files: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "sql"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            Ok((name, std::fs::read_to_string(&p)?))
        })
        .collect()
}

fn describe(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!(
            "{} ({}){}",
            db.message(),
            db.code().code(),
            db.detail().map(|d| format!(": {d}")).unwrap_or_default()
        ),
        None => e.to_string(),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
