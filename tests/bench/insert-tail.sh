#!/usr/bin/env bash
# Where the single insert's latency tail comes from (issue: p99 ≤ 10 ms at 32 connections): the insert scenario of
# `make bench` (POST /rest/v1/events, synchronous_commit=off, wrk -t1 -c32) under variants that each remove one
# suspect, in one run on one cluster, with what the database and the pool did during each window.
#   tests/bench/insert-tail.sh          (figures to compare, never asserted; BENCH_SECONDS per window, default 10)
# Variants: the default gateway; one HTTP worker (uneven split of connections between workers); a pool as large as
# the client count (waits for a connection); autovacuum off on the table (insert-triggered vacuum and analyze);
# 10 client connections (fewer than the pool: no queueing at all).
# Per window: req/s, p50, p90, p99, p99.9, max; the most requests seen waiting for a pool connection (the gateway's
# metrics, sampled every 50 ms); checkpoints, WAL buffer-full writes, backend-written buffers, autovacuum/analyze runs.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
secs=${BENCH_SECONDS:-10}
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 2; }
bench_gateway_bin
mkdir -p "$bench_root/tests/.tmp"; chmod 755 "$bench_root/tests/.tmp"
tmp=$(mktemp -d "$bench_root/tests/.tmp/insert-tail-XXXXXX"); chmod 755 "$tmp"
trap bench_cleanup EXIT
trap 'exit 130' INT TERM
bench_cluster
psql -qX "$admin/postgres" -c "alter system set synchronous_commit = off" -c "select pg_reload_conf()" >/dev/null

# Database counters that can stall an insert, as one line of numbers.
db_counters() {
  q -F ' ' -c "select (select checkpoints_timed + checkpoints_req from pg_stat_bgwriter),
    (select wal_buffers_full from pg_stat_wal), (select buffers_backend from pg_stat_bgwriter),
    (select autovacuum_count + autoanalyze_count from pg_stat_user_tables where relname = 'events')"
}
# The largest gateway_db_pool_waiting seen while $1 (a pid) runs, sampled from the metrics port.
max_pool_waiting() {
  local most=0 now
  while kill -0 "$1" 2>/dev/null; do
    now=$(curl -s "http://$metrics/metrics" | awk '/^gateway_db_pool_waiting/ {s += $2} END {print s + 0}')
    [ "${now%.*}" -gt "$most" ] && most=${now%.*}
    sleep 0.05
  done
  echo "$most"
}

rows=()
variant() { # LABEL CONNECTIONS [VAR=VALUE ...]
  local label=$1 conns=$2; shift 2
  metrics=127.0.0.1:$(bench_free_port)
  bench_gateway_start GATEWAY_METRICS_ADDR="$metrics" "$@"
  bench_wrk "$tmp/warm.txt" insert.lua 3 "$conns" "http://127.0.0.1:$port"
  local before after waiting out=$tmp/wrk-$((${#rows[@]} + 1)).txt
  before=($(db_counters))
  bench_wrk "$out" insert.lua "$secs" "$conns" "http://127.0.0.1:$port" &
  local load=$!
  waiting=$(max_pool_waiting "$load")
  wait "$load" || true
  after=($(db_counters))
  bench_gateway_stop
  rows+=("| $label | $(bench_figure "$out" rps) | $(bench_figure "$out" 50%) | $(bench_figure "$out" 90%) | $(bench_figure "$out" 99%) | $(bench_figure "$out" p99.9) | $(bench_figure "$out" max) | $(bench_figure "$out" non2xx) | $waiting | $((after[0] - before[0])) | $((after[1] - before[1])) | $((after[2] - before[2])) | $((after[3] - before[3])) |")
}

variant "default (workers: one per CPU, pool 10), 32 connections" 32
variant "one HTTP worker" 32 GATEWAY_HTTP_WORKERS=1
variant "pool 32 (no wait for a connection)" 32 PGRST_DB_POOL=32
q -c "alter table public.events set (autovacuum_enabled = false)"
variant "autovacuum off on the table" 32
q -c "alter table public.events reset (autovacuum_enabled)"
variant "10 connections (fewer than the pool)" 10

{
  echo "# Insert tail $(date -u +%FT%TZ)"
  echo
  echo "Machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); gateway built $(date -u -r "$GATEWAY_BIN" +%FT%TZ) (tree $(cd "$bench_root" && git rev-parse --short HEAD)); POST /rest/v1/events, synchronous_commit=off, wrk -t1 -d${secs}s after a 3 s warm-up, a new gateway per variant."
  echo
  echo "| Variant | req/s | p50 | p90 | p99 | p99.9 | max | non-2xx | most waiting for a connection | checkpoints | WAL buffers full | buffers written by backends | autovacuum + analyze runs |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} | tee "$bench_dir/last-insert-tail.md"
