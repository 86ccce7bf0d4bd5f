//! The gateway: Supabase's wire protocols (PostgREST under `/rest/v1`, Auth under `/auth/v1`, Storage under
//! `/storage/v1`, Realtime under `/realtime/v1`) over PostgreSQL, plus the static site, in one binary.

pub mod app;
#[cfg(test)]
mod architecture_walks;
pub mod auth;
pub mod cli;
pub mod commands;
pub mod core;
pub mod health;
pub mod monitoring;
pub mod production;
pub mod realtime;
pub mod rest;
pub mod site;
pub mod storage;
pub mod telemetry;
pub mod typegen;

pub use app::{router, Application};
