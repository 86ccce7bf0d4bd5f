//! Integration tests: the real server on port 0 against a fresh database cloned from the migrated template of a
//! throwaway cluster (run through `scripts/with-test-db.sh`, as `make test` does).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

mod auth_admin;
mod auth_helpers;
mod auth_keys;
mod auth_otp;
mod auth_recover;
mod auth_signup;
mod auth_token;
mod auth_user;
mod auth_wire;
mod db_pipeline;
mod db_shared_pool;
mod helpers;
mod migrate_grants;
mod open_redirect;
mod outbox_delivery;
mod outbox_smtp_sink;
mod realtime;
mod realtime_bursts;
mod request_context;
mod rest_embed;
mod rest_fixtures;
mod rest_pool;
mod rest_raw_body;
mod rest_read;
mod rest_rpc;
mod rest_shared_connection;
mod rest_write;
mod s3_support;
mod security_accounts;
mod security_cancelled;
mod security_connections;
mod security_ipv6;
mod security_limits;
mod security_mail;
mod security_production;
mod security_support;
mod security_surface;
mod site;
mod smoke;
mod storage_applications;
mod storage_buckets;
mod storage_objects;
mod storage_render;
mod storage_retention;
mod storage_s3;
mod storage_support;
mod storage_sweep;
mod storage_wire;
mod token_rejections;
mod typegen;
