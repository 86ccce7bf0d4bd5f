//! Realtime's configuration, read under Supabase Realtime's own variable names where it has one (`TENANT_MAX_*`,
//! `CHANNEL_ERROR_BACKOFF_MS`, …) so an existing env file carries over; `REALTIME_*` names are ours.

use crate::core::config::Vars;
use std::time::Duration;

#[derive(Debug, Clone)]
pub struct RealtimeConfig {
    /// Sockets per gateway instance (`TENANT_MAX_CONCURRENT_USERS`).
    pub max_concurrent_users: usize,
    /// Channels one socket may join (`TENANT_MAX_CHANNELS_PER_CLIENT`).
    pub max_channels_per_client: usize,
    /// Joins per second per instance, averaged over 10 s (`TENANT_MAX_JOINS_PER_SECOND`).
    pub max_joins_per_second: u32,
    /// Client messages per second per instance, averaged over 10 s (`TENANT_MAX_EVENTS_PER_SECOND`).
    pub max_events_per_second: u32,
    /// Presence calls per channel per window (`CLIENT_PRESENCE_MAX_CALLS`, `CLIENT_PRESENCE_WINDOW_MS`).
    pub presence_max_calls: u32,
    pub presence_window: Duration,
    /// Largest broadcast or presence payload (`TENANT_MAX_PAYLOAD_SIZE_IN_KB`; Realtime adds 500 bytes).
    pub max_payload_bytes: usize,
    /// Wait before every join error reply: supabase-js rejoins forever (`CHANNEL_ERROR_BACKOFF_MS`).
    pub channel_error_backoff: Duration,
    /// Wait before refusing an upgrade (`CONNECT_ERROR_BACKOFF_MS`).
    pub connect_error_backoff: Duration,
    /// A socket that sends nothing for this long is closed (Phoenix's transport timeout).
    pub idle_timeout: Duration,
    /// Messages queued for one socket before it is treated as too slow and closed.
    pub socket_queue: usize,
    /// The replication connection (a role with REPLICATION); falls back to the owner, then the pool connection.
    pub replication_db_uri: String,
    /// How long the replication slot stays open after the last postgres_changes subscriber left.
    pub slot_idle_stop: Duration,
    /// How long another instance's slot must stay inactive, its instance unheard, before it is dropped.
    pub slot_orphan_after: Duration,
    /// How long the dispatcher gathers further transactions after the first before judging them as one batch:
    /// each (role, claims) set is one query per batch, so under load larger batches cost PostgreSQL less per change.
    pub changes_batch_window: Duration,
    /// Publication whose tables produce postgres_changes.
    pub publication: String,
    /// Rows of `realtime.messages` older than this are deleted (Realtime keeps 72 h for replay).
    pub messages_retention: Duration,
}

impl RealtimeConfig {
    pub fn from_vars(vars: &Vars, db_uri: &str, admin_db_uri: Option<&str>) -> Self {
        let ms = |names: &[&str], default: u64| Duration::from_millis(vars.num(names, default));
        RealtimeConfig {
            max_concurrent_users: vars.num(&["TENANT_MAX_CONCURRENT_USERS", "REALTIME_MAX_CONCURRENT_USERS"], 10_000),
            max_channels_per_client: vars.num(&["TENANT_MAX_CHANNELS_PER_CLIENT"], 100),
            max_joins_per_second: vars.num(&["TENANT_MAX_JOINS_PER_SECOND"], 500),
            max_events_per_second: vars.num(&["TENANT_MAX_EVENTS_PER_SECOND"], 10_000),
            presence_max_calls: vars.num(&["CLIENT_PRESENCE_MAX_CALLS"], 5),
            presence_window: ms(&["CLIENT_PRESENCE_WINDOW_MS"], 30_000),
            max_payload_bytes: vars.num(&["TENANT_MAX_PAYLOAD_SIZE_IN_KB"], 3000usize) * 1000 + 500,
            channel_error_backoff: ms(&["CHANNEL_ERROR_BACKOFF_MS"], 5000),
            connect_error_backoff: ms(&["CONNECT_ERROR_BACKOFF_MS"], 2000),
            idle_timeout: ms(&["REALTIME_IDLE_TIMEOUT_MS"], 60_000),
            socket_queue: vars.num(&["REALTIME_SOCKET_QUEUE"], 4096),
            replication_db_uri: vars
                .first(&["REALTIME_REPLICATION_DB_URI"])
                .or_else(|| admin_db_uri.map(str::to_string))
                .unwrap_or_else(|| db_uri.to_string()),
            slot_idle_stop: ms(&["REALTIME_SLOT_IDLE_MS"], 30_000),
            slot_orphan_after: ms(&["REALTIME_SLOT_ORPHAN_MS"], 60_000),
            changes_batch_window: ms(&["REALTIME_CHANGES_BATCH_MS"], 10),
            publication: vars.first(&["REALTIME_PUBLICATION"]).unwrap_or_else(|| "supabase_realtime".into()),
            messages_retention: Duration::from_secs(vars.num(&["REALTIME_MESSAGES_RETENTION_SECS"], 72 * 3600)),
        }
    }
}
