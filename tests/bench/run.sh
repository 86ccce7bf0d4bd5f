#!/usr/bin/env bash
# `make bench`: the REST hot paths against their database limit, per performance.md §7, on a throwaway cluster.
#   tests/bench/run.sh
# Env: BENCH_SECONDS (per wrk/pgbench window, default 10), BENCH_CONNECTIONS (default 32), GATEWAY_BIN (skip the
# release build), BENCH_POOL (gateway pool size, default: the gateway's own default).
# Prints a markdown report and writes it to tests/bench/last-report.md (ignored by git).
# Scenarios: GET one row by PK as anon (RLS on), a 25-row page with one embed, a single insert, a scalar RPC; then
# pgbench of the minimal correct transaction for the first one (BEGIN READ ONLY; set_config role + claims; the row as
# JSON; COMMIT; pipelined) with the same client count; R = gateway req/s ÷ pgbench tps; RSS idle and after load.
# Each scenario first passes a correctness gate (status and body compared with what SQL says); a scenario that fails
# it is reported as "not measured" rather than timed (error paths are fast, and would look like successes).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bench=$root/tests/bench
secs=${BENCH_SECONDS:-10}
conns=${BENCH_CONNECTIONS:-32}
report_file=$bench/last-report.md

need_tool() {
  command -v "$1" >/dev/null && return
  echo "installing $2 ..." >&2
  local s=(); [ "$(id -u)" = 0 ] || s=(sudo)
  "${s[@]}" apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive "${s[@]}" apt-get install -y -qq "$2" >&2
}
need_tool wrk wrk
need_tool pgbench postgresql-client
need_tool curl curl

if [ -z "${GATEWAY_BIN:-}" ]; then
  echo "building the gateway (release) ..." >&2
  (cd "$root" && cargo build -q --release -p gateway --bin gateway)
  GATEWAY_BIN=${CARGO_TARGET_DIR:-$root/target}/release/gateway
fi
[ -x "$GATEWAY_BIN" ] || { echo "no gateway binary at $GATEWAY_BIN" >&2; exit 2; }

mkdir -p "$root/tests/.tmp"; chmod 755 "$root/tests/.tmp"
tmp=$(mktemp -d "$root/tests/.tmp/bench-XXXXXX"); chmod 755 "$tmp"
gateway_pid=
cleanup() {
  if [ -n "$gateway_pid" ] && kill -0 "$gateway_pid" 2>/dev/null; then
    kill "$gateway_pid" 2>/dev/null || true; wait "$gateway_pid" 2>/dev/null || true
  fi
  "$root/scripts/pg-cluster.sh" stop "$tmp/pg" || true
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Cluster with the protocol's settings (shared_buffers needs a restart).
eval "$("$root/scripts/pg-cluster.sh" start "$tmp/pg")"
admin="postgres://postgres@127.0.0.1:$PGPORT"
psql -qX "$admin/postgres" -c "alter system set shared_buffers = '256MB'" >/dev/null
"$root/scripts/pg-cluster.sh" stop "$tmp/pg"
eval "$("$root/scripts/pg-cluster.sh" start "$tmp/pg")"
db=bench
q() { psql -qAtX -v ON_ERROR_STOP=1 "$admin/$db" "$@"; }
psql -qX -v ON_ERROR_STOP=1 "$admin/postgres" -c "create database $db" >/dev/null
mkdir -p "$tmp/no-app-migrations"
GATEWAY_ADMIN_DB_URI="$admin/$db" GATEWAY_MIGRATIONS_DIR="$tmp/no-app-migrations" "$GATEWAY_BIN" migrate >"$tmp/migrate.log" 2>&1 \
  || { cat "$tmp/migrate.log" >&2; exit 1; }
psql -qX -v ON_ERROR_STOP=1 "$admin/postgres" -c "alter role authenticator password '$AUTHENTICATOR_PASSWORD'" >/dev/null
q -f "$bench/fixtures.sql" >/dev/null

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
pool_env=(); [ -n "${BENCH_POOL:-}" ] && pool_env=(PGRST_DB_POOL="$BENCH_POOL")
env DATABASE_URL="postgres://authenticator:$AUTHENTICATOR_PASSWORD@127.0.0.1:$PGPORT/$db" \
  GATEWAY_ADMIN_DB_URI="$admin/$db" GATEWAY_MIGRATIONS_DIR="$tmp/no-app-migrations" GATEWAY_HOST=127.0.0.1 PORT="$port" \
  PGRST_DB_SCHEMAS=public RUST_LOG=warn "${pool_env[@]}" "$GATEWAY_BIN" serve >"$tmp/gateway.log" 2>&1 &
gateway_pid=$!
for _ in $(seq 1 300); do
  grep -q 'listening on' "$tmp/gateway.log" && break
  kill -0 "$gateway_pid" 2>/dev/null || { cat "$tmp/gateway.log" >&2; exit 1; }
  sleep 0.1
done
grep -q 'listening on' "$tmp/gateway.log" || { cat "$tmp/gateway.log" >&2; echo "gateway did not start" >&2; exit 1; }
base="http://127.0.0.1:$port/rest/v1"
key=$(GATEWAY_ADMIN_DB_URI="$admin/$db" "$GATEWAY_BIN" keys | sed -n 's/^anon key: //p')
export BENCH_KEY=$key BENCH_LUA_DIR=$bench/wrk

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$gateway_pid/status" 2>/dev/null || echo 0; }
hwm_kb() { awk '/^VmHWM:/ {print $2}' "/proc/$gateway_pid/status" 2>/dev/null || echo 0; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$gateway_pid/stat" 2>/dev/null || echo 0; }
mb() { awk -v k="$1" 'BEGIN {printf "%.1f", k / 1024}'; }
sleep 0.5
rss_idle=$(rss_kb)

# Correctness gate: one request per scenario, compared (as parsed JSON) with what SQL returns for the same read.
same_json() { python3 -c 'import json,sys; sys.exit(0 if json.loads(sys.argv[1]) == json.loads(sys.argv[2]) else 1)' "$1" "$2" 2>/dev/null; }
call() { # METHOD PATH [BODY] -> sets code, body
  local args=(-s -o "$tmp/body" -w '%{http_code}' -X "$1" -H "apikey: $key" -H "Authorization: Bearer $key")
  if [ -n "${3:-}" ]; then args+=(-H 'Content-Type: application/json' -H 'Content-Profile: public' --data "$3"); fi
  code=$(curl "${args[@]}" "$base$2" || echo 000); body=$(cat "$tmp/body" 2>/dev/null || true)
}
declare -A gate
check() { # NAME WANT_CODE WANT_BODY (empty = empty body) METHOD PATH [BODY]
  local name=$1 want_code=$2 want_body=$3; shift 3
  call "$@"
  if [ "$code" = "$want_code" ] && { if [ -z "$want_body" ]; then [ -z "$body" ]; else same_json "$body" "$want_body"; fi; }; then
    gate[$name]=ok
  else
    gate[$name]="got $code ${body:0:120}"
    echo "correctness gate failed for $name: want $want_code, got $code: ${body:0:300}" >&2
  fi
}
want_one=$(q -c "set role anon" -c "select coalesce(json_agg(t), '[]') from (select * from public.items where id = 7) t")
check get_one 200 "$want_one" GET "/items?select=*&id=eq.7"
want_page=$(q -c "set role anon" -c "select coalesce(json_agg(x), '[]') from (select i.id, i.name, i.price,
  json_build_object('id', c.id, 'name', c.name) as category from public.items i join public.categories c on c.id = i.category_id
  order by i.id offset 100 limit 25) x")
check page_embed 200 "$want_page" GET "/items?select=id,name,price,category:categories(id,name)&order=id.asc&offset=100&limit=25"
check insert 201 "" POST "/events" '{"kind":"bench","payload":{"n":1}}'
check rpc 200 "5" POST "/rpc/add_them" '{"a":2,"b":3}'

# wrk: requests/s, p50, p99, non-2xx, gateway CPU per request.
declare -A rps p50 p99 bad cpu reqs
run_wrk() { # NAME LUA [SECONDS]
  local name=$1 lua=$2 d=${3:-$secs} t0 t1 out
  t0=$(cpu_ticks)
  out=$(wrk -t1 -c"$conns" -d"${d}s" --latency -s "$bench/wrk/$lua" "http://127.0.0.1:$port" 2>&1) || true
  t1=$(cpu_ticks)
  echo "$out" > "$tmp/wrk-$name.txt"
  rps[$name]=$(awk '/^Requests\/sec:/ {printf "%.0f", $2}' <<<"$out")
  p50[$name]=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99[$name]=$(awk '$1 == "99%" {print $2}' <<<"$out")
  reqs[$name]=$(awk '/requests in/ {print $1}' <<<"$out")
  local non2xx errs
  non2xx=$(awk -F': *' '/Non-2xx or 3xx responses/ {print $2}' <<<"$out"); errs=$(awk '/Socket errors/ {sub(/.*Socket errors: /, ""); print}' <<<"$out")
  bad[$name]=${non2xx:-0}${errs:+ (socket errors: $errs)}
  local hz; hz=$(getconf CLK_TCK)
  if [ -n "${reqs[$name]}" ] && [ "${reqs[$name]}" -gt 0 ]; then
    cpu[$name]=$(awk -v a="$t0" -v b="$t1" -v n="${reqs[$name]}" -v hz="$hz" 'BEGIN {printf "%.0f", (b - a) / hz * 1e6 / n}')
  fi
}
if [ "${gate[get_one]}" = ok ]; then run_wrk warmup get_one.lua 3; fi
[ "${gate[get_one]}" = ok ] && run_wrk get_one get_one.lua
[ "${gate[page_embed]}" = ok ] && run_wrk page_embed page_embed.lua
if [ "${gate[insert]}" = ok ]; then
  psql -qX "$admin/postgres" -c "alter system set synchronous_commit = off" -c "select pg_reload_conf()" >/dev/null
  before=$(q -c "select count(*) from public.events")
  run_wrk insert insert.lua
  after=$(q -c "select count(*) from public.events")
  inserted=$((after - before))
  psql -qX "$admin/postgres" -c "alter system reset synchronous_commit" -c "select pg_reload_conf()" >/dev/null
fi
[ "${gate[rpc]}" = ok ] && run_wrk rpc rpc.lua
gate[get_one_again]=${gate[get_one]}
[ "${gate[get_one]}" = ok ] && run_wrk get_one_again get_one.lua
rss_after=$(rss_kb); hwm=$(hwm_kb)

# pgbench: the same client count, one thread, prepared statements, the pipelined transaction; median of 3 runs.
pgb_runs=()
for _ in 1 2 3; do
  pgb_out=$(PGPASSWORD=$AUTHENTICATOR_PASSWORD pgbench -n -M prepared -c "$conns" -j 1 -T "$secs" -h 127.0.0.1 -p "$PGPORT" \
    -U authenticator -f "$bench/get_one.pgbench" "$db" 2>&1) || true
  run_tps=$(awk '/^tps = / {printf "%.0f", $3}' <<<"$pgb_out")
  if [ -n "$run_tps" ]; then pgb_runs+=("$run_tps"); else echo "pgbench failed: $(tail -n 3 <<<"$pgb_out")" >&2; fi
done
tps=
if [ ${#pgb_runs[@]} -gt 0 ]; then tps=$(printf '%s\n' "${pgb_runs[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'); fi
pgb_lat="runs: ${pgb_runs[*]:-none}"

# Report.
ratio() { [ -n "${1:-}" ] && [ -n "${2:-}" ] && [ "$2" != 0 ] && awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}' || echo "–"; }
row() { # LABEL NAME
  local name=$2
  if [ "${gate[$name]:-ok}" != ok ]; then
    echo "| $1 | not measured: correctness gate failed (${gate[$name]//|/\\|}) | | | | |"
  elif [ -n "${rps[$name]:-}" ]; then
    echo "| $1 | ${rps[$name]} | ${p50[$name]:-–} | ${p99[$name]:-–} | ${bad[$name]} | ${cpu[$name]:-–} |"
  else
    echo "| $1 | wrk failed (see output) | | | | |"
  fi
}
drift="–"
if [ -n "${rps[get_one]:-}" ] && [ -n "${rps[get_one_again]:-}" ]; then
  drift=$(awk -v a="${rps[get_one]}" -v b="${rps[get_one_again]}" 'BEGIN {d = (b - a) / a * 100; printf "%+.1f %%%s", d, (d > 3 || d < -3) ? " (over 3 %: machine load changed; compare ratios from a quieter run)" : ""}')
fi
{
  echo "# Gateway benchmark $(date -u +%FT%TZ)"
  echo
  echo "Machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); PostgreSQL $(q -c 'show server_version'), shared_buffers $(q -c 'show shared_buffers');"
  echo "gateway \`$(basename "$GATEWAY_BIN")\` built $(date -u -r "$GATEWAY_BIN" +%FT%TZ) (tree $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo '?')$(cd "$root" && git diff --quiet HEAD -- gateway jwks 2>/dev/null || echo ' + uncommitted changes')); wrk -t1 -c$conns -d${secs}s --latency; pgbench -M prepared -c $conns -j 1 -T $secs (3 runs, median)."
  echo
  echo "| Scenario (anon key, RLS on) | req/s | p50 | p99 | non-2xx | gateway CPU µs/req |"
  echo "|---|---|---|---|---|---|"
  row "GET one row by PK" get_one
  row "GET 25-row page + 1 embed" page_embed
  row "POST single insert (synchronous_commit=off)" insert
  row "POST scalar RPC" rpc
  row "GET one row by PK (repeat)" get_one_again
  echo
  echo "| Limit and ratio | Value |"
  echo "|---|---|"
  echo "| pgbench tps, pipelined BEGIN READ ONLY; set_config role+claims; row as JSON; COMMIT | ${tps:-failed} (median; ${pgb_lat}) |"
  echo "| R = GET one row req/s ÷ pgbench tps (goal ≥ 0.60) | $(ratio "${rps[get_one]:-}" "${tps:-}") |"
  echo "| drift of the repeated first scenario | $drift |"
  if [ -n "${inserted:-}" ]; then echo "| rows inserted vs insert responses counted by wrk | $inserted vs ${reqs[insert]} |"; fi
  echo "| gateway RSS idle → after load (peak) | $(mb "$rss_idle") MB → $(mb "$rss_after") MB ($(mb "$hwm") MB) |"
} > "$report_file"
cat "$report_file"
