//! The request core every API is built on: configuration, the pools and the pipelined request connection, the
//! key set and token verification, the identity cache, the one builder of the request context, the roles'
//! settings, mail and the outbox, the HTTP workers and their connections. No module here knows any API.

pub mod body;
pub mod client_addr;
pub mod config;
pub mod conn;
pub mod context;
pub mod db;
pub mod identity;
pub mod keys;
pub mod location;
pub mod mail;
pub mod outbox;
pub mod private_fs;
pub mod role_settings;
pub mod workers;
