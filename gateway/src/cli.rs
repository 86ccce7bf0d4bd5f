//! The command line: `gateway [serve|migrate|keys|lint|types]`. Configuration comes from environment variables (see README).

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
    /// Demo content: `gateway demo remove` deletes the demo accounts (production refuses to start while they exist).
    Demo(DemoArgs),
    /// Generate client types from the database (as `supabase gen types`).
    Types(TypesArgs),
}

#[derive(Debug, Args)]
pub struct DemoArgs {
    #[command(subcommand)]
    pub action: DemoAction,
}

#[derive(Debug, Subcommand)]
pub enum DemoAction {
    /// Delete every account registered as demo content (gateway.demo_accounts).
    Remove,
}

#[derive(Debug, Args)]
pub struct TypesArgs {
    #[command(subcommand)]
    pub language: TypesLanguage,
}

#[derive(Debug, Subcommand)]
pub enum TypesLanguage {
    /// Print the `Database` type for supabase-js (`createClient<Database>()`), as `supabase gen types typescript`.
    Typescript {
        /// Schemas to include (comma-separated or repeated); default: the exposed schemas (PGRST_DB_SCHEMAS).
        #[arg(long, short, value_delimiter = ',')]
        schema: Vec<String>,
    },
}

#[derive(Debug, Args)]
pub struct KeysArgs {
    #[command(subcommand)]
    pub action: Option<KeysAction>,
}

#[derive(Debug, Subcommand)]
pub enum KeysAction {
    /// Print the anon and service_role API keys (the default). With GATEWAY_ENV=production only the anon key,
    /// unless --service-role asks for it; outside production the current key is marked as exposed.
    ApiKeys {
        /// Also print the service_role key in production.
        #[arg(long)]
        service_role: bool,
    },
    /// List the signing keys and their status.
    List,
    /// Create a standby key (published in the JWKS, not signing yet).
    Generate {
        /// ES256 (default) or RS256.
        #[arg(long, default_value = "ES256")]
        alg: String,
    },
    /// Make the newest standby key current and the current one previous (creating a standby key if none).
    Rotate {
        /// Algorithm of the key created when there is no standby key.
        #[arg(long, default_value = "ES256")]
        alg: String,
    },
    /// Revoke a key that does not sign: its tokens stop verifying and it leaves the JWKS.
    Revoke {
        /// The key id.
        kid: String,
    },
    /// Import private keys as standby: a JWK array (GOTRUE_JWT_KEYS format), one JWK, or a PEM file; without FILE,
    /// the value of GOTRUE_JWT_KEYS.
    Import {
        /// A file with the key(s).
        file: Option<String>,
        /// The kid for a PEM key (random otherwise).
        #[arg(long)]
        kid: Option<String>,
    },
    /// Print the stored keys as GOTRUE_JWT_KEYS (private JWKs: keep it secret).
    Export,
}
