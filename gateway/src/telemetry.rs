//! Logging: `RUST_LOG` filters (`info` when unset or unreadable; a list of `level` and `target=level`, e.g.
//! `warn,gateway=debug`), `GATEWAY_LOG_FORMAT=json` for JSON lines. Colours only on a terminal (never raw escape
//! codes in a log file or a pipe) and never with `NO_COLOR` set.

use std::io::IsTerminal;
use tracing::Level;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::{fmt, prelude::*};

/// `RUST_LOG` as targets and levels (tracing-subscriber's `Targets`: the common `EnvFilter` directives, without
/// span and field filters, which would bring a regular-expression engine into the build).
fn filter(rust_log: Option<&str>) -> Targets {
    let default = || Targets::new().with_default(Level::INFO);
    match rust_log.map(str::trim) {
        Some(text) if !text.is_empty() => text.parse().unwrap_or_else(|_| default()),
        _ => default(),
    }
}

pub fn init() {
    let filter = filter(std::env::var("RUST_LOG").ok().as_deref());
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let layer = fmt::layer().with_writer(std::io::stderr).with_ansi(colour);
    let registry = tracing_subscriber::registry().with(filter);
    let _ = if std::env::var("GATEWAY_LOG_FORMAT").as_deref() == Ok("json") {
        registry.with(layer.json()).try_init()
    } else {
        registry.with(layer).try_init()
    };
}

#[cfg(test)]
mod tests {
    use super::filter;
    use tracing::Level;

    #[test]
    fn rust_log_levels_and_targets() {
        assert!(filter(None).would_enable("gateway", &Level::INFO));
        assert!(!filter(None).would_enable("gateway", &Level::DEBUG));
        assert!(filter(Some(" ")).would_enable("gateway", &Level::INFO));
        assert!(!filter(Some("warn")).would_enable("gateway", &Level::INFO));
        let f = filter(Some("warn,gateway::rest=debug"));
        assert!(f.would_enable("gateway::rest::read", &Level::DEBUG));
        assert!(!f.would_enable("gateway::auth", &Level::INFO));
        assert!(filter(Some("gateway=[nonsense")).would_enable("gateway", &Level::INFO));
    }
}
