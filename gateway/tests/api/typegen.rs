//! `gateway types typescript` against real databases: a fixture schema printed exactly as postgres-meta v0.96.6
//! (the Supabase CLI's typegen) prints it, and the site's committed types file equal to what its migrations give.

use tokio_postgres::{Client, NoTls};

/// A superuser connection to a new database: a copy of the migrated template, or an empty one.
pub(crate) async fn fresh_database(migrated: bool) -> Client {
    let admin = std::env::var("TEST_ADMIN_URL").expect("run through scripts/with-test-db.sh");
    let template = std::env::var("TEST_TEMPLATE_DB").expect("TEST_TEMPLATE_DB");
    let name = format!("t_{}", uuid::Uuid::new_v4().simple());
    let (client, conn) = tokio_postgres::connect(&admin, NoTls).await.expect("connect");
    tokio::spawn(conn);
    let template = if migrated { template } else { "template1".into() };
    client.batch_execute(&format!("create database \"{name}\" template \"{template}\"")).await.expect("create");
    let (db, conn) = tokio_postgres::connect(&crate::helpers::admin_url_for(&name), NoTls).await.expect("db");
    tokio::spawn(conn);
    db
}

fn repo_file(path: &str) -> String {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// The first differing line, for a readable failure.
fn first_difference(want: &str, got: &str) -> String {
    let line = want
        .lines()
        .zip(got.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(want.lines().count().min(got.lines().count()));
    format!(
        "line {}:\n  want: {:?}\n  got:  {:?}",
        line + 1,
        want.lines().nth(line).unwrap_or("<end>"),
        got.lines().nth(line).unwrap_or("<end>")
    )
}

#[tokio::test]
async fn the_fixture_prints_as_supabase_gen_types_does() {
    let db = fresh_database(false).await;
    db.batch_execute(&repo_file("gateway/tests/fixtures/typegen.sql")).await.expect("load fixture");
    let got = gateway::typegen::typescript(&db, &["public".into(), "other".into()]).await.expect("typegen");
    let want = repo_file("gateway/tests/fixtures/typegen.expected.ts");
    assert!(got == want, "differs from postgres-meta's output at {}", first_difference(&want, &got));
}

#[tokio::test]
async fn unknown_schemas_are_left_out_and_an_empty_schema_has_empty_sections() {
    let db = fresh_database(false).await;
    db.batch_execute("create schema empty_one").await.unwrap();
    let got = gateway::typegen::typescript(&db, &["empty_one".into(), "no_such_schema".into()]).await.unwrap();
    assert!(!got.contains("no_such_schema"));
    assert!(got.contains("  empty_one: {\n    Tables: {\n      [_ in never]: never\n    }\n"), "{got}");
    assert!(got.contains("export const Constants = {\n  empty_one: {\n    Enums: {},\n  },\n} as const\n\n"));
}

#[tokio::test]
async fn the_sites_types_file_matches_its_migrations() {
    let db = fresh_database(true).await;
    let got = gateway::typegen::typescript(&db, &["public".into()]).await.expect("typegen");
    let want = repo_file("web/src/lib/database.types.ts");
    assert!(
        got == want,
        "web/src/lib/database.types.ts is out of date ({}); regenerate it with `scripts/gen-types.sh`",
        first_difference(&want, &got)
    );
}
