//! Integration tests: the real server on port 0 against a fresh database cloned from the migrated template of a
//! throwaway cluster (run through `scripts/with-test-db.sh`, as `make test` does).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

mod helpers;
mod rest_embed;
mod rest_fixtures;
mod rest_pool;
mod rest_read;
mod rest_rpc;
mod rest_write;
mod smoke;
