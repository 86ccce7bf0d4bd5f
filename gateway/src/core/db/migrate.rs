//! `gateway migrate`: the platform schema embedded in the binary, then the app's migrations from a folder,
//! each recorded with a checksum. App migrations are append-only: a changed applied file is an error.

use sha2::{Digest, Sha256};
use std::path::Path;

/// The gateway's own schema, applied in this order on every `migrate` (each file is idempotent).
pub const PLATFORM: &[(&str, &str)] = &[
    ("0001_roles", include_str!("../../../migrations/0001_roles.sql")),
    ("0002_gateway_schema", include_str!("../../../migrations/0002_gateway_schema.sql")),
    ("0003_auth_schema", include_str!("../../../migrations/0003_auth_schema.sql")),
    ("0004_reload_schema_trigger", include_str!("../../../migrations/0004_reload_schema_trigger.sql")),
    ("0010_auth_admin_role", include_str!("../../../migrations/0010_auth_admin_role.sql")),
    ("0011_signing_keys_notify", include_str!("../../../migrations/0011_signing_keys_notify.sql")),
    ("0020_storage_schema", include_str!("../../../migrations/0020_storage_schema.sql")),
    ("0021_mail_outbox", include_str!("../../../migrations/0021_mail_outbox.sql")),
    ("0030_rest_explain_query_id", include_str!("../../../migrations/0030_rest_explain_query_id.sql")),
    ("0031_outbox_caps", include_str!("../../../migrations/0031_outbox_caps.sql")),
    ("0032_public_urls", include_str!("../../../migrations/0032_public_urls.sql")),
    ("0033_demo_marks", include_str!("../../../migrations/0033_demo_marks.sql")),
    ("0034_outbox_headers", include_str!("../../../migrations/0034_outbox_headers.sql")),
    ("0040_realtime_schema", include_str!("../../../migrations/0040_realtime_schema.sql")),
    ("0050_storage_sweep", include_str!("../../../migrations/0050_storage_sweep.sql")),
    ("0060_ready_probe", include_str!("../../../migrations/0060_ready_probe.sql")),
    ("0061_auth_rate_buckets", include_str!("../../../migrations/0061_auth_rate_buckets.sql")),
    ("0080_signing_keys_hs256", include_str!("../../../migrations/0080_signing_keys_hs256.sql")),
    ("0081_storage_sniff_content", include_str!("../../../migrations/0081_storage_sniff_content.sql")),
    ("0090_revocations", include_str!("../../../migrations/0090_revocations.sql")),
];

/// What `run` did.
#[derive(Debug, Default)]
pub struct Report {
    pub applied: Vec<String>,
    pub skipped: usize,
}

/// Applies the platform schema and then every app migration not yet recorded, each in its own transaction.
/// Supabase's default privileges on schema `public` (`GATEWAY_SUPABASE_DEFAULT_PRIVILEGES`): on, what the
/// migrating role creates there from now on — tables, sequences, functions — is granted to `anon`,
/// `authenticated` and `service_role`, so access is decided by row-level security alone, as on Supabase; off
/// (the default), nothing is added: a migration grants what it means to and a table without grants answers 42501
/// (turning it off later does not revoke what was set; `alter default privileges … revoke` does).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DefaultGrants {
    #[default]
    Off,
    Supabase,
}

impl DefaultGrants {
    /// The statements that give the migrating role's default privileges on `public` this choice.
    pub fn sql(self) -> &'static str {
        match self {
            DefaultGrants::Supabase => {
                "grant usage on schema public to anon, authenticated, service_role;
                 alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
                 alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
                 alter default privileges in schema public grant all on functions to anon, authenticated, service_role;"
            }
            // left as the database has them: a migration's own `alter default privileges` stays in force
            DefaultGrants::Off => "",
        }
    }
}

pub async fn run(client: &mut tokio_postgres::Client, app_dir: &Path, grants: DefaultGrants) -> anyhow::Result<Report> {
    // One migrator per database at a time.
    client.execute("select pg_advisory_lock(7261001)", &[]).await?;
    let result = apply_all(client, app_dir, grants).await;
    client.execute("select pg_advisory_unlock(7261001)", &[]).await?;
    result
}

async fn apply_all(
    client: &mut tokio_postgres::Client,
    app_dir: &Path,
    grants: DefaultGrants,
) -> anyhow::Result<Report> {
    for (name, sql) in PLATFORM {
        let tx = client.transaction().await?;
        // Re-applied on every start: its "already exists, skipping" notices are not news.
        tx.batch_execute("set local client_min_messages = warning").await?;
        tx.batch_execute(sql).await.map_err(|e| anyhow::anyhow!("platform migration {name}: {}", describe(&e)))?;
        tx.commit().await?;
    }
    client.batch_execute(grants.sql()).await.map_err(|e| anyhow::anyhow!("default privileges: {}", describe(&e)))?;
    let mut report = Report::default();
    for (name, sql) in app_migrations(app_dir)? {
        let checksum = crate::core::hex::lower(&Sha256::digest(sql.as_bytes()));
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
