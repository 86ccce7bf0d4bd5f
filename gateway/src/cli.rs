//! The command line: `gateway [serve|migrate|keys|lint]`. Configuration comes from environment variables (see README).

use clap::{Args, Parser, Subcommand};

/// One binary that speaks Supabase's wire protocols (PostgREST, Auth, Storage) over PostgreSQL.
#[derive(Debug, Parser)]
#[command(name = "gateway", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the APIs and the site on PORT (the default command).
    Serve,
    /// Apply the platform schema, then the app migrations in GATEWAY_MIGRATIONS_DIR, using GATEWAY_ADMIN_DB_URI.
    Migrate,
    /// List, create, rotate, revoke or import signing keys, and print the anon and service_role API keys.
    Keys(KeysArgs),
    /// Report risky access rules in the exposed schemas (tables without RLS, permissive write policies, ...).
    Lint,
}

#[derive(Debug, Args)]
pub struct KeysArgs {
    #[command(subcommand)]
    pub action: Option<KeysAction>,
}

#[derive(Debug, Subcommand)]
pub enum KeysAction {
    /// Print the anon and service_role API keys (the default).
    ApiKeys,
    /// List the signing keys and their status.
    List,
}
