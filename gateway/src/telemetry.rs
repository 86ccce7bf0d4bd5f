//! Logging: `RUST_LOG` filters (default `info`), `GATEWAY_LOG_FORMAT=json` for JSON lines. Colours only on a
//! terminal (never raw escape codes in a log file or a pipe) and never with `NO_COLOR` set.

use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(colour);
    let _ = if std::env::var("GATEWAY_LOG_FORMAT").as_deref() == Ok("json") {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}
