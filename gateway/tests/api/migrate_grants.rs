//! `gateway migrate` with and without Supabase's default privileges on `public`, and `gateway lint` naming what
//! anon or authenticated can reach without row-level security: tables (granted whole or column by column), views
//! that run with their owner's rights (Supabase's `security_definer_view`) and materialized views.

use crate::typegen::fresh_database;
use gateway::core::db::lint::{self, Finding};
use gateway::core::db::migrate;
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

fn rules_and_objects(findings: &[Finding]) -> Vec<(&str, &str)> {
    let mut found: Vec<(&str, &str)> = findings.iter().map(|f| (f.rule, f.object.as_str())).collect();
    found.sort();
    found
}

#[tokio::test]
async fn lint_reports_column_grants_and_views_that_bypass_row_level_security() {
    // The migrated template, without a second `gateway migrate`; a schema of its own keeps the site's tables out.
    let db = fresh_database(true).await;
    db.batch_execute(
        "create schema lintcheck;
         grant usage on schema lintcheck to anon, authenticated;
         create table lintcheck.people (id int primary key, email text, secret text);
         grant select (id, email) on lintcheck.people to anon;
         create table lintcheck.notes (id int primary key, owner uuid, body text);
         alter table lintcheck.notes enable row level security;
         grant select on lintcheck.notes to authenticated;
         create view lintcheck.all_notes as select * from lintcheck.notes;
         grant select on lintcheck.all_notes to authenticated;
         create view lintcheck.my_notes with (security_invoker = on) as select * from lintcheck.notes;
         grant select on lintcheck.my_notes to authenticated;
         create view lintcheck.owner_only as select * from lintcheck.notes;
         create view lintcheck.note_emails as select id from lintcheck.notes;
         grant update (id) on lintcheck.note_emails to anon;
         create materialized view lintcheck.note_counts as select count(*) from lintcheck.notes;
         grant select on lintcheck.note_counts to anon;",
    )
    .await
    .unwrap();
    let schemas = ["lintcheck".to_string()];
    let findings = lint::run(&db, &schemas).await.unwrap();
    assert_eq!(
        rules_and_objects(&findings),
        [
            ("materialized_view_in_api", "lintcheck.note_counts"),
            ("rls_disabled", "lintcheck.people"),
            ("security_definer_view", "lintcheck.all_notes"),
            ("security_definer_view", "lintcheck.note_emails"),
        ],
        "{findings:?}"
    );
    // Each finding clears once fixed.
    db.batch_execute(
        "alter table lintcheck.people enable row level security;
         alter view lintcheck.all_notes set (security_invoker = on);
         revoke update (id) on lintcheck.note_emails from anon;
         revoke select on lintcheck.note_counts from anon;",
    )
    .await
    .unwrap();
    let findings = lint::run(&db, &schemas).await.unwrap();
    assert!(findings.is_empty(), "{findings:?}");
}
