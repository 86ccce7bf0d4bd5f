//! `gateway migrate` with and without Supabase's default privileges on `public`, and `gateway lint` naming a table
//! that anon or authenticated can reach without row-level security.

use crate::typegen::fresh_database;
use gateway::core::db::{lint, migrate};
use tokio_postgres::Client;

/// Migrates with `grants` (no app migrations), then creates a table the way a Supabase migration does: no grants.
async fn table_after_migrate(grants: migrate::DefaultGrants) -> Client {
    let mut db = fresh_database(true).await;
    let empty = std::env::temp_dir().join(format!("gw-migrations-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&empty).unwrap();
    migrate::run(&mut db, &empty, grants).await.expect("migrate");
    std::fs::remove_dir_all(&empty).unwrap();
    db.batch_execute("create table public.notes (id bigint generated always as identity primary key, body text)")
        .await
        .unwrap();
    db
}

async fn anon_may(db: &Client, what: &str) -> bool {
    db.query_one(what, &[]).await.unwrap().get(0)
}

// One test, both settings in turn: `gateway migrate` alters cluster-wide roles (platform migration 0001), and two
// migrations at once in one cluster fail with "tuple concurrently updated".
#[tokio::test]
async fn default_privileges_on_and_off() {
    supabase_default_privileges_grant_new_tables_to_the_api_roles().await;
    without_the_setting_a_new_table_is_not_granted().await;
}

async fn supabase_default_privileges_grant_new_tables_to_the_api_roles() {
    let db = table_after_migrate(migrate::DefaultGrants::Supabase).await;
    assert!(anon_may(&db, "select has_table_privilege('anon', 'public.notes', 'select,insert')").await);
    assert!(anon_may(&db, "select has_table_privilege('authenticated', 'public.notes', 'update,delete')").await);
    assert!(anon_may(&db, "select has_sequence_privilege('anon', 'public.notes_id_seq', 'usage')").await);
    // lint names the table anon can reach without row-level security, and stops once RLS is on
    let findings = lint::run(&db, &["public".to_string()]).await.unwrap();
    assert!(findings.iter().any(|f| f.rule == "rls_disabled" && f.object == "public.notes"), "{findings:?}");
    db.batch_execute("alter table public.notes enable row level security").await.unwrap();
    let findings = lint::run(&db, &["public".to_string()]).await.unwrap();
    assert!(!findings.iter().any(|f| f.object == "public.notes"), "{findings:?}");
}

async fn without_the_setting_a_new_table_is_not_granted() {
    let db = table_after_migrate(migrate::DefaultGrants::Off).await;
    assert!(!anon_may(&db, "select has_table_privilege('anon', 'public.notes', 'select')").await);
    assert!(!anon_may(&db, "select has_table_privilege('authenticated', 'public.notes', 'select')").await);
}
