//! The gateway: Supabase's wire protocols (PostgREST under `/rest/v1`, Auth under `/auth/v1`, Storage under
//! `/storage/v1`, Realtime under `/realtime/v1`) over PostgreSQL, plus the static site, in one binary.

pub mod app;
pub mod auth;
pub mod body;
pub mod cli;
pub mod client_addr;
pub mod commands;
pub mod config;
pub mod conn;
pub mod context;
pub mod db;
pub mod health;
pub mod identity;
pub mod keystore;
pub mod location;
pub mod mail;
pub mod monitoring;
pub mod outbox;
pub mod private_fs;
pub mod production;
pub mod realtime;
pub mod rest;
pub mod role_settings;
pub mod site;
pub mod state;
pub mod storage;
pub mod telemetry;
pub mod typegen;
pub mod workers;

pub use app::{router, Application};
