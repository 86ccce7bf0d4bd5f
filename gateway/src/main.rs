//! The `gateway` binary: parses the command line and runs one command.

use clap::Parser;
use gateway::cli::{Cli, Command};
use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    gateway::telemetry::init();
    let result = match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => gateway::commands::serve().await,
        Command::Migrate => gateway::commands::migrate().await,
        Command::Keys(args) => gateway::commands::keys(args).await,
        Command::Lint => gateway::commands::lint().await,
        Command::Demo(args) => gateway::commands::demo(args).await,
        Command::Types(args) => match args.language {
            gateway::cli::TypesLanguage::Typescript { schema } => gateway::typegen::command(schema).await,
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gateway: {e:#}");
            ExitCode::FAILURE
        }
    }
}
