//! The request core every API is built on: configuration, the pools and the pipelined request connection, the
//! key set and token verification, the identity cache, the one builder of the request context and the roles'
//! settings it applies, the caller a request is made by, mail and the outbox, the schema reload listener, the
//! HTTP workers and their connections. Nothing here knows any API; each API holds a [`Core`].

pub mod api_keys;
pub mod body;
pub mod caller;
pub mod catalog;
pub mod client_addr;
pub mod config;
pub mod conn;
pub mod context;
pub mod db;
pub mod hex;
pub mod identity;
pub mod keys;
pub mod location;
pub mod mail;
pub mod outbox;
pub mod private_fs;
pub mod raise;
pub mod reload;
pub mod revocation;
pub mod role_settings;
pub mod secret_eq;
pub mod shared;
mod state;
pub mod stopping;
#[cfg(test)]
pub mod testing;
pub mod workers;

pub use state::{Core, CoreState};
