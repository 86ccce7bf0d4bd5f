#!/usr/bin/env bash
# Realtime benchmark (not a test: figures to compare, never asserted): a throwaway cluster with wal_level=logical, a
# release gateway, and tests/bench/realtime.mjs — idle sockets (RSS per socket), broadcast fan-out (deliveries/s,
# p50/p99, losses), postgres_changes at a fixed rate under an RLS policy (commit→client p50/p99, losses, PostgreSQL
# CPU per change). Prints the JSON figures and writes them to tests/bench/last-realtime.json (ignored by git).
#   tests/bench/realtime.sh
# Env: GATEWAY_BIN (skip the release build), BENCH_IDLE_SOCKETS (10000), BENCH_FANOUT_SUBSCRIBERS (1000),
# BENCH_FANOUT_RATE (20 msg/s), BENCH_FANOUT_MESSAGES (200), BENCH_FANOUT_BURST (100), BENCH_CHANGE_SUBSCRIBERS (100),
# BENCH_CHANGE_RATE (500/s), BENCH_CHANGE_SECONDS (10). BENCH_SMOKE=1: small defaults for all of these (200 idle
# sockets, 50 subscribers, 10 change subscribers at 50/s for 2 s) — checks the script end to end in about a
# minute; its figures mean nothing. `BENCH_REALTIME=1 make bench` runs this after the REST benchmark.
set -euo pipefail
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
  export BENCH_IDLE_SOCKETS=${BENCH_IDLE_SOCKETS:-200} BENCH_FANOUT_SUBSCRIBERS=${BENCH_FANOUT_SUBSCRIBERS:-50} \
    BENCH_FANOUT_MESSAGES=${BENCH_FANOUT_MESSAGES:-20} BENCH_FANOUT_BURST=${BENCH_FANOUT_BURST:-10} \
    BENCH_CHANGE_SUBSCRIBERS=${BENCH_CHANGE_SUBSCRIBERS:-10} BENCH_CHANGE_RATE=${BENCH_CHANGE_RATE:-50} \
    BENCH_CHANGE_SECONDS=${BENCH_CHANGE_SECONDS:-2}
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "${GATEWAY_BIN:-}" ]; then
  (cd "$root" && cargo build -q --release -p gateway --bin gateway)
  GATEWAY_BIN=${CARGO_TARGET_DIR:-$root/target}/release/gateway
fi
(cd "$root/tests" && [ -d node_modules/ws ] || npm ci --no-audit --no-fund --loglevel=error)
tmp=$(mktemp -d /tmp/gateway-rtbench-XXXXXX); chmod 755 "$tmp"
gateway_pid=
cleanup() {
  [ -n "$gateway_pid" ] && kill "$gateway_pid" 2>/dev/null && wait "$gateway_pid" 2>/dev/null
  "$root/scripts/pg-cluster.sh" stop "$tmp/pg" || true
  rm -rf "$tmp"
}
trap cleanup EXIT
eval "$("$root/scripts/pg-cluster.sh" start "$tmp/pg")"
export PGPASSFILE # the cluster's roles have passwords: psql, the gateway and the driver find them here
admin="postgres://postgres@127.0.0.1:$PGPORT"
psql -qX "$admin/postgres" -c "create database bench" >/dev/null
GATEWAY_ADMIN_DB_URI="$admin/bench" GATEWAY_MIGRATIONS_DIR="$root/sql/migrations" "$GATEWAY_BIN" migrate >/dev/null
psql -qX "$admin/postgres" -c "alter role authenticator password '$AUTHENTICATOR_PASSWORD'" >/dev/null
psql -qX -v ON_ERROR_STOP=1 "$admin/bench" >/dev/null <<'SQL'
create table public.bench_changes (
  id bigint generated always as identity primary key, owner uuid not null,
  sent_at timestamptz not null default clock_timestamp(), body text not null default 'x');
alter table public.bench_changes enable row level security;
grant select on public.bench_changes to authenticated;
create policy "own rows" on public.bench_changes for select to authenticated using (owner = (select auth.uid()));
alter publication supabase_realtime add table public.bench_changes;
-- n rows, one transaction each, paced at per_second, owners round-robin
create procedure public.bench_insert(n int, per_second int, owners uuid[]) language plpgsql as $$
declare started timestamptz := clock_timestamp();
begin
  for i in 1..n loop
    insert into public.bench_changes (owner) values (owners[1 + (i % array_length(owners, 1))]);
    commit;
    perform pg_sleep_until(started + (i * interval '1 second') / per_second);
  end loop;
end $$;
SQL
ulimit -n 65536 2>/dev/null || true
DATABASE_URL="postgres://authenticator:$AUTHENTICATOR_PASSWORD@127.0.0.1:$PGPORT/bench" GATEWAY_ADMIN_DB_URI="$admin/bench" \
  PORT=0 RUST_LOG=warn TENANT_MAX_CONCURRENT_USERS=100000 TENANT_MAX_JOINS_PER_SECOND=1000000 \
  TENANT_MAX_EVENTS_PER_SECOND=10000000 REALTIME_IDLE_TIMEOUT_MS=600000 PGRST_DB_POOL=8 GATEWAY_MAX_CONNECTIONS_PER_PEER=0 \
  "$GATEWAY_BIN" serve > "$tmp/gateway.out" 2>"$tmp/gateway.err" &
gateway_pid=$!
for _ in $(seq 100); do grep -q 'listening on' "$tmp/gateway.out" 2>/dev/null && break; sleep 0.1; done
addr=$(grep -oE 'listening on [0-9.:]+' "$tmp/gateway.out" | awk '{print $3}')
anon=$(GATEWAY_ADMIN_DB_URI="$admin/bench" "$GATEWAY_BIN" keys | sed -n 's/^anon key: //p')
cd "$root/tests"
BENCH_URL="http://$addr" BENCH_ANON="$anon" BENCH_DB="$admin/bench" GATEWAY_PID=$gateway_pid \
  node --max-old-space-size=4096 bench/realtime.mjs | tee "$root/tests/bench/last-realtime.json"
