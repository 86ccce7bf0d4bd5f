//! `GET /rest/v1/`: the Swagger 2.0 document PostgREST serves at its root — the tables, views and functions of
//! the requested schema the caller's role may use (PostgREST's `follow-privileges` mode), with column types,
//! formats, required fields, defaults and descriptions from comments.

pub mod catalog;
mod definitions;
pub mod document;
mod paths;
pub mod serve;
mod swagger_types;

pub use document::{document, ForeignKeys, Mode, Options};
