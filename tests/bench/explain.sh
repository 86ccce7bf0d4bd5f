#!/usr/bin/env bash
# What the to-many page costs PostgreSQL: EXPLAIN (ANALYZE, BUFFERS) of the statement the gateway sends for
# `GET /items?select=id,name,price,bench_notes(id,body)&id=gte.N&order=id.asc&limit=25` (taken from the server's
# log, prepared and executed as the gateway does — a named statement with untyped parameters, run often enough that
# PostgreSQL settles on its generic plan) beside the hand-written SQL of page_to_many.pgbench, both as anon under
# RLS on the bench fixtures.
#   tests/bench/explain.sh        (GATEWAY_BIN: any build, the SQL does not depend on it; default the debug build)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
GATEWAY_BIN=${GATEWAY_BIN:-$(cd "${CARGO_TARGET_DIR:-$bench_root/target}" && pwd)/debug/gateway}
mkdir -p "$bench_root/tests/.tmp"; chmod 755 "$bench_root/tests/.tmp"
tmp=$(mktemp -d "$bench_root/tests/.tmp/explain-XXXXXX"); chmod 755 "$tmp"
trap bench_cleanup EXIT
trap 'exit 130' INT TERM
bench_cluster
bench_gateway_start
start=${EXPLAIN_START:-50000}
psql -qX "$admin/postgres" -c "alter system set log_min_duration_statement = 0" -c "select pg_reload_conf()" >/dev/null
curl -s -o /dev/null -H "apikey: $key" -H "Authorization: Bearer $key" \
  "$base/items?select=id,name,price,bench_notes(id,body)&id=gte.$start&order=id.asc&limit=25"
psql -qX "$admin/postgres" -c "alter system reset log_min_duration_statement" -c "select pg_reload_conf()" >/dev/null
# the data statement: the logged `execute <name>: WITH …` line and its parameters
stmt=$(grep -a 'execute [^:]*: WITH pgrst_source' "$tmp/pg/log" | tail -n 1 | sed -E 's/.*execute [^:]*: //')
params=$(grep -a -A1 'execute [^:]*: WITH pgrst_source' "$tmp/pg/log" | tail -n 1 | sed -nE 's/.*parameters: (.*)/\1/p')
[ -n "$stmt" ] || { echo "the gateway's statement was not found in the server's log" >&2; exit 1; }
args=$(sed -E "s/\\\$[0-9]+ = //g" <<<"$params")
hand=$(sed -n '/^SELECT coalesce(json_agg(t)/p' "$bench_dir/page_to_many.pgbench" | sed "s/:start/$start/")
as_anon="set role anon; select set_config('request.jwt.claims', '{\"role\":\"anon\"}', false);"
echo "## The gateway's statement (parameters: $params)"
echo
echo '```sql'; echo "$stmt"; echo '```'
echo
echo "EXPLAIN (ANALYZE, BUFFERS) EXECUTE after 10 executions (the plan the gateway's prepared statement runs):"
echo
echo '```'
q -c "$as_anon" -c "prepare gw as $stmt" -c '\o /dev/null' \
  -c "$(for _ in $(seq 1 10); do printf 'execute gw(%s);\n' "$args"; done)" -c '\o' \
  -c "explain (analyze, buffers) execute gw($args)" | grep -v '^set_config\|^{' || true
echo '```'
echo
echo "## The hand-written SQL (page_to_many.pgbench, start = $start)"
echo
echo '```sql'; echo "$hand"; echo '```'
echo
echo '```'
q -c "$as_anon" -c "explain (analyze, buffers) $hand" | grep -v '^set_config\|^{' || true
echo '```'
