#!/usr/bin/env bash
# `make bench`: the REST hot paths against their database limit, per performance.md §7, on a throwaway cluster;
# password sign-ins (§8.5) alone and alongside the GET; then tests/bench/storage.sh (10 MB up/download, peak RSS).
#   tests/bench/run.sh
# Env: BENCH_SECONDS (per wrk/pgbench window, default 10), BENCH_CONNECTIONS (default 32), BENCH_SIGNIN_CONNECTIONS
# (default 4), GATEWAY_BIN (skip the release build), BENCH_POOL (gateway pool size, default: the gateway's own
# default), BENCH_WORKERS (the gateway's HTTP worker threads, default: its own, one per core), BENCH_TRANSPORT (tcp,
# the default, or unix: the gateway and pgbench both reach PostgreSQL through its Unix socket), BENCH_STORAGE_RUNS
# (10 MB uploads and downloads, default 10; 0 skips the storage benchmark),
# BENCH_SCENARIOS (space-separated subset of: get_one page_embed page_to_many insert rpc sign_in; default all — e.g.
# `BENCH_SCENARIOS=get_one BENCH_STORAGE_RUNS=0` for the GET, its repeat and pgbench only), BENCH_GATEWAY_WRAPPER
# (a command the gateway runs under, e.g. `valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out` for
# instruction counts per function; rates are then meaningless).
# Prints a markdown report and writes it to tests/bench/last-report.md (ignored by git).
# Scenarios: GET one row by PK as anon (RLS on), a 25-row page with a to-one embed, a 25-row page of 100,000 items
# each with its array of notes (a to-many embed), a single insert, a scalar RPC; then pgbench of the best
# hand-written transaction for each of the first four (pipelined, prepared) with the same client count; R = gateway
# req/s ÷ pgbench tps; RSS idle and after load. Every window reports the CPU per request of the gateway, of
# PostgreSQL (postmaster and backends) and of the load generator (wrk or pgbench), from /proc and time(1).
# Sign-ins: POST /auth/v1/token?grant_type=password for one confirmed user (bcrypt cost 10) with few connections, then
# the GET by PK again while the same sign-in load runs, as a ratio to the GET alone (hashing must not starve reads).
# Each scenario first passes a correctness gate (status and body compared with what SQL says); a scenario that fails
# it is reported as "not measured" rather than timed (error paths are fast, and would look like successes).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bench=$root/tests/bench
secs=${BENCH_SECONDS:-10}
conns=${BENCH_CONNECTIONS:-32}
signin_conns=${BENCH_SIGNIN_CONNECTIONS:-4}
storage_runs=${BENCH_STORAGE_RUNS:-10}
report_file=$bench/last-report.md
scenarios=" ${BENCH_SCENARIOS:-get_one page_embed page_to_many insert rpc sign_in} "
wanted() { [[ "$scenarios" == *" $1 "* ]]; }

source "$bench/lib.sh"
need_tool() {
  command -v "$1" >/dev/null && return
  echo "installing $2 ..." >&2
  local s=(); [ "$(id -u)" = 0 ] || s=(sudo)
  "${s[@]}" apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive "${s[@]}" apt-get install -y -qq "$2" >&2
}
need_tool wrk wrk
need_tool pgbench postgresql-client
need_tool curl curl
bench_gateway_bin

mkdir -p "$root/tests/.tmp"; chmod 755 "$root/tests/.tmp"
tmp=$(mktemp -d "$root/tests/.tmp/bench-XXXXXX"); chmod 755 "$tmp"
trap bench_cleanup EXIT
trap 'exit 130' INT TERM

bench_cluster
pool_env=(); [ -n "${BENCH_POOL:-}" ] && pool_env=(PGRST_DB_POOL="$BENCH_POOL")
[ -n "${BENCH_WORKERS:-}" ] && pool_env+=(GATEWAY_HTTP_WORKERS="$BENCH_WORKERS")
bench_gateway_start "${pool_env[@]}"
# The sign-in user: created and confirmed through the admin API, so its hash is the gateway's own (bcrypt cost 10).
export BENCH_SIGNIN_EMAIL=bench.signin@example.com BENCH_SIGNIN_PASSWORD=bench-password-10
signin_user=$(curl -s -H "apikey: $service_key" -H "Authorization: Bearer $service_key" -H 'Content-Type: application/json' \
  --data "{\"email\":\"$BENCH_SIGNIN_EMAIL\",\"password\":\"$BENCH_SIGNIN_PASSWORD\",\"email_confirm\":true}" \
  "http://127.0.0.1:$port/auth/v1/admin/users" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("id", ""))' 2>/dev/null || true)

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$gateway_pid/status" 2>/dev/null || echo 0; }
hwm_kb() { awk '/^VmHWM:/ {print $2}' "/proc/$gateway_pid/status" 2>/dev/null || echo 0; }
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
want_to_many=$(q -c "set role anon" -c "select coalesce(json_agg(x), '[]') from (select i.id, i.name, i.price,
  coalesce((select json_agg(n) from (select n.id, n.body from public.bench_notes n where n.item_id = i.id) n), '[]') as bench_notes
  from public.items i where i.id >= 500 order by i.id limit 25) x")
check page_to_many 200 "$want_to_many" GET "/items?select=id,name,price,bench_notes(id,body)&id=gte.500&order=id.asc&limit=25"
check insert 201 "" POST "/events" '{"kind":"bench","payload":{"n":1}}'
check rpc 200 "5" POST "/rpc/add_them" '{"a":2,"b":3}'
# Sign-in gate: the user exists with a cost-10 bcrypt hash and is confirmed, and one sign-in returns a session for it.
hash_cost=$(q -c "select substr(encrypted_password, 1, 7) from auth.users where id = '${signin_user:-00000000-0000-0000-0000-000000000000}' and email_confirmed_at is not null")
signin_sub=$(curl -s -X POST -H "apikey: $key" -H 'Content-Type: application/json' \
  --data "{\"email\":\"$BENCH_SIGNIN_EMAIL\",\"password\":\"$BENCH_SIGNIN_PASSWORD\"}" \
  "http://127.0.0.1:$port/auth/v1/token?grant_type=password" \
  | python3 -c 'import json,sys; b=json.load(sys.stdin); print(b["user"]["id"] if b.get("access_token") and b.get("refresh_token") else "")' 2>/dev/null || true)
if [[ "$hash_cost" =~ ^\$2[aby]\$10\$$ ]] && [ -n "$signin_user" ] && [ "$signin_sub" = "$signin_user" ]; then
  gate[sign_in]=ok
else
  gate[sign_in]="user ${signin_user:-not created}, hash prefix ${hash_cost:-none}, session for ${signin_sub:-nobody}"
  echo "correctness gate failed for sign_in: ${gate[sign_in]}" >&2
fi
gate[sign_in_with_get]=${gate[sign_in]}
gate[get_during_sign_in]=${gate[get_one]}
[ "${gate[sign_in]}" = ok ] || gate[get_during_sign_in]=${gate[sign_in]}

# wrk: requests/s, p50, p99, non-2xx, CPU per request of the gateway, PostgreSQL and wrk itself.
declare -A rps p50 p99 bad cpu pgcpu gencpu reqs
wrk_to_file() { # NAME LUA SECONDS CONNECTIONS: raw wrk output in $tmp/wrk-NAME.txt, its CPU seconds in $tmp/time-NAME
  /usr/bin/time -f '%U %S' -o "$tmp/time-$1" wrk -t1 -c"$4" -d"$3s" --latency -s "$bench/wrk/$2" "http://127.0.0.1:$port" \
    >"$tmp/wrk-$1.txt" 2>&1 || true
}
# CPU µs per request of a finished load generator: gen_cpu NAME COUNT (from /usr/bin/time's user and system seconds)
gen_cpu() { awk -v n="$2" '{printf "%.0f", ($1 + $2) * 1e6 / n}' "$tmp/time-$1" 2>/dev/null || true; }
parse_wrk() { # NAME: fills rps, p50, p99, reqs, bad from $tmp/wrk-NAME.txt
  local name=$1 out non2xx errs
  out=$(cat "$tmp/wrk-$name.txt")
  rps[$name]=$(awk '/^Requests\/sec:/ {printf "%.0f", $2}' <<<"$out")
  p50[$name]=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99[$name]=$(awk '$1 == "99%" {print $2}' <<<"$out")
  reqs[$name]=$(awk '/requests in/ {print $1}' <<<"$out")
  non2xx=$(awk -F': *' '/Non-2xx or 3xx responses/ {print $2}' <<<"$out"); errs=$(awk '/Socket errors/ {sub(/.*Socket errors: /, ""); print}' <<<"$out")
  bad[$name]=${non2xx:-0}${errs:+ (socket errors: $errs)}
}
hz=$(getconf CLK_TCK)
per_req() { awk -v a="$1" -v b="$2" -v n="$3" -v hz="$hz" 'BEGIN {printf "%.0f", (b - a) / hz * 1e6 / n}'; }
run_wrk() { # NAME LUA [SECONDS] [CONNECTIONS]
  local name=$1 t0 t1 p0 p1
  t0=$(cpu_ticks "$gateway_pid"); p0=$(pg_cpu_ticks)
  wrk_to_file "$name" "$2" "${3:-$secs}" "${4:-$conns}"
  t1=$(cpu_ticks "$gateway_pid"); p1=$(pg_cpu_ticks)
  parse_wrk "$name"
  if [ -n "${reqs[$name]}" ] && [ "${reqs[$name]}" -gt 0 ]; then
    cpu[$name]=$(per_req "$t0" "$t1" "${reqs[$name]}")
    pgcpu[$name]=$(per_req "$p0" "$p1" "${reqs[$name]}")
    gencpu[$name]=$(gen_cpu "$name" "${reqs[$name]}")
  fi
}
if [ "${gate[get_one]}" = ok ]; then run_wrk warmup get_one.lua 3; fi
wanted get_one && [ "${gate[get_one]}" = ok ] && run_wrk get_one get_one.lua
wanted page_embed && [ "${gate[page_embed]}" = ok ] && run_wrk page_embed page_embed.lua
wanted page_to_many && [ "${gate[page_to_many]}" = ok ] && run_wrk page_to_many page_to_many.lua
sync_commit() { psql -qX "$admin/postgres" -c "alter system $1" -c "select pg_reload_conf()" >/dev/null; }
if wanted insert && [ "${gate[insert]}" = ok ]; then
  sync_commit "set synchronous_commit = off"
  before=$(q -c "select count(*) from public.events")
  run_wrk insert insert.lua
  after=$(q -c "select count(*) from public.events")
  inserted=$((after - before))
  sync_commit "reset synchronous_commit"
fi
wanted rpc && [ "${gate[rpc]}" = ok ] && run_wrk rpc rpc.lua
if wanted sign_in && [ "${gate[sign_in]}" = ok ]; then
  run_wrk sign_in sign_in.lua "$secs" "$signin_conns"
  # The GET again while the same sign-in load runs (started first, and outlasting the GET window by a second each side).
  wrk_to_file sign_in_with_get sign_in.lua $((secs + 2)) "$signin_conns" &
  signin_load=$!
  sleep 1
  run_wrk get_during_sign_in get_one.lua
  wait "$signin_load" || true
  parse_wrk sign_in_with_get
  cpu[get_during_sign_in]=  # gateway CPU then includes the hashing: not a per-GET cost
fi
gate[get_one_again]=${gate[get_one]}
wanted get_one && [ "${gate[get_one]}" = ok ] && run_wrk get_one_again get_one.lua
rss_after=$(rss_kb); hwm=$(hwm_kb)

# pgbench: the same client count, one thread, prepared statements, the pipelined transaction; median of 3 runs.
# Sets pgb_tps[NAME] (median), pgb_runs_of[NAME] (all runs), pgb_cpu_of[NAME] (PostgreSQL CPU µs per transaction),
# pgb_gen_of[NAME] (pgbench's own CPU µs per transaction) and pgb_p99_of[NAME] (its p99 latency), each run's figure
# in order. The latency comes from pgbench's log of a 5 % sample of transactions (--sampling-rate), which costs it
# next to nothing.
declare -A pgb_tps pgb_runs_of pgb_cpu_of pgb_gen_of pgb_p99_of
# The median of space-separated whole numbers (anything else, such as "–", ignored); nothing for none.
median_of() { tr ' ' '\n' | grep -E '^[0-9]+$' | sort -n | awk '{a[NR] = $1} END {if (NR) print a[int((NR + 1) / 2)]}'; }
pgbench_median() { # NAME SCRIPT
  local runs=() cpus=() gens=() p99s=() out run_tps run_tx p0 p1
  for run in 1 2 3; do
    p0=$(pg_cpu_ticks)
    rm -f "$tmp/pgblog.$1.$run".*
    out=$(cd "$tmp" && PGPASSWORD=$AUTHENTICATOR_PASSWORD /usr/bin/time -f 'cpu %U %S' pgbench -n -M prepared -c "$conns" -j 1 -T "$secs" \
      -l --sampling-rate=0.05 --log-prefix="pgblog.$1.$run" \
      -h "$(bench_pg_host)" -p "$PGPORT" -U authenticator -f "$bench/$2" "$db" 2>&1) || true
    p99s+=("$(cat "$tmp/pgblog.$1.$run".* 2>/dev/null | pgbench_p99)")
    run_tps=$(awk '/^tps = / {printf "%.0f", $3}' <<<"$out")
    p1=$(pg_cpu_ticks); run_tx=$(awk '/^number of transactions actually processed: / {print $6}' <<<"$out")
    if [ -n "$run_tx" ] && [ "$run_tx" -gt 0 ]; then
      cpus+=("$(per_req "$p0" "$p1" "$run_tx")")
      gens+=("$(awk -v n="$run_tx" '$1 == "cpu" {printf "%.0f", ($2 + $3) * 1e6 / n}' <<<"$out")")
    fi
    if [ -n "$run_tps" ]; then runs+=("$run_tps"); else echo "pgbench $2 failed: $(tail -n 3 <<<"$out")" >&2; fi
  done
  if [ ${#runs[@]} -gt 0 ]; then pgb_tps[$1]=$(median_of <<<"${runs[*]}"); fi
  pgb_runs_of[$1]="${runs[*]:-none}"; pgb_cpu_of[$1]="${cpus[*]:-–}"; pgb_gen_of[$1]="${gens[*]:-–}"
  pgb_p99_of[$1]="${p99s[*]:-–}"
}
# The 99th percentile of a pgbench log's latencies (third field, µs), in ms as wrk prints it ("–" for no lines).
pgbench_p99() {
  awk '{print $3}' | sort -n | awk '{a[NR] = $1}
    END {i = int(NR * 0.99 + 0.5); if (i < 1) i = 1; if (NR) printf "%.2fms", a[i] / 1000; else print "–"}'
}
wanted get_one && pgbench_median get_one get_one.pgbench
wanted page_embed && pgbench_median page_embed page_embed.pgbench
wanted page_to_many && pgbench_median page_to_many page_to_many.pgbench
if wanted insert; then
  sync_commit "set synchronous_commit = off"
  pgbench_median insert insert.pgbench
  sync_commit "reset synchronous_commit"
fi

# Storage: its own script and cluster (release binary), 10 MB up/downloads and the peak RSS while streaming.
storage_lines=()
if [ "$storage_runs" -gt 0 ]; then
  if storage_out=$(GATEWAY_BIN=$GATEWAY_BIN "$bench/storage.sh" "$storage_runs" 2>"$tmp/storage.err"); then
    mapfile -t storage_lines < <(sed -n 's/^storage //p; s/^\(gateway RSS: .*\)/\1/p' <<<"$storage_out")
  else
    echo "storage benchmark failed: $(tail -n 5 "$tmp/storage.err")" >&2
    storage_lines=("failed: $(tail -n 1 "$tmp/storage.err" | tr '|' '/')")
  fi
fi

# Report.
ratio() { [ -n "${1:-}" ] && [ -n "${2:-}" ] && [ "$2" != 0 ] && awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}' || echo "–"; }
row() { # LABEL NAME
  local name=$2
  if [ "${gate[$name]:-ok}" != ok ]; then
    echo "| $1 | not measured: correctness gate failed (${gate[$name]//|/\\|}) | | | | | | |"
  elif [ -n "${rps[$name]:-}" ]; then
    echo "| $1 | ${rps[$name]} | ${p50[$name]:-–} | ${p99[$name]:-–} | ${bad[$name]} | ${cpu[$name]:-–} | ${pgcpu[$name]:-–} | ${gencpu[$name]:-–} |"
  else
    echo "| $1 | not run (not in BENCH_SCENARIOS, or wrk failed: see output) | | | | | | |"
  fi
}
twin() { # LABEL NAME TARGET: one row of the ratio table
  local name=$2
  [ -n "${pgb_tps[$name]:-}${rps[$name]:-}" ] || return 0
  echo "| $1 | ${rps[$name]:-–} | ${pgb_tps[$name]:-failed} (${pgb_runs_of[$name]:-none}) | $(ratio "${rps[$name]:-}" "${pgb_tps[$name]:-}") (≥ $3) | ${pgb_cpu_of[$name]:-–} | ${pgb_gen_of[$name]:-–} | ${p99[$name]:-–} / ${pgb_p99_of[$name]:-–} | $(cpu_bound "$name") |"
}
# What the two cores allow, from the CPU per request alone (both sides saturate the cores): the ratio R would be
# if each side's throughput were 2 cores ÷ its CPU per request, i.e. pgbench's CPU per transaction (PostgreSQL's and
# its own) ÷ the gateway side's (the gateway's, PostgreSQL's and wrk's); then the same with the gateway's own CPU
# taken as nothing, the most any change inside the gateway could give.
cpu_bound() { # NAME
  local name=$1 pg gen
  pg=$(median_of <<<"${pgb_cpu_of[$name]:-}"); gen=$(median_of <<<"${pgb_gen_of[$name]:-}")
  if [ -z "$pg" ] || [ -z "$gen" ] || [ -z "${cpu[$name]:-}" ] || [ -z "${pgcpu[$name]:-}" ] || [ -z "${gencpu[$name]:-}" ]; then echo "– | –"; return; fi
  awk -v t="$((pg + gen))" -v g="${cpu[$name]}" -v p="${pgcpu[$name]}" -v w="${gencpu[$name]}" \
    'BEGIN {printf "%.2f (%d ÷ %d) | %.2f (%d ÷ %d)", t / (g + p + w), t, g + p + w, t / (p + w), t, p + w}'
}
drift="–"
get_alone=
if [ -n "${rps[get_one]:-}" ] && [ -n "${rps[get_one_again]:-}" ]; then
  get_alone=$(( (rps[get_one] + rps[get_one_again]) / 2 ))
fi
if [ -n "${rps[get_one]:-}" ] && [ -n "${rps[get_one_again]:-}" ]; then
  drift=$(awk -v a="${rps[get_one]}" -v b="${rps[get_one_again]}" 'BEGIN {d = (b - a) / a * 100; printf "%+.1f %%%s", d, (d > 3 || d < -3) ? " (over 3 %: machine load changed; compare ratios from a quieter run)" : ""}')
fi
{
  echo "# Gateway benchmark $(date -u +%FT%TZ)"
  echo
  echo "Machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); PostgreSQL $(q -c 'show server_version'), shared_buffers $(q -c 'show shared_buffers');"
  echo "gateway \`$(basename "$GATEWAY_BIN")\` built $(date -u -r "$GATEWAY_BIN" +%FT%TZ) (tree $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo '?')$(cd "$root" && git diff --quiet HEAD -- gateway jwks 2>/dev/null || echo ' + uncommitted changes')); wrk -t1 -c$conns -d${secs}s --latency; pgbench -M prepared -c $conns -j 1 -T $secs (3 runs, median); PostgreSQL reached over ${BENCH_TRANSPORT:-tcp}${BENCH_POOL:+, pool $BENCH_POOL}${BENCH_WORKERS:+, $BENCH_WORKERS HTTP workers}."
  echo
  echo "| Scenario (anon key, RLS on) | req/s | p50 | p99 | non-2xx | gateway CPU µs/req | PostgreSQL CPU µs/req | wrk CPU µs/req |"
  echo "|---|---|---|---|---|---|---|---|"
  row "GET one row by PK" get_one
  row "GET 25-row page + to-one embed" page_embed
  row "GET 25-row page + to-many embed (100,000 items, 200,000 notes)" page_to_many
  row "POST single insert (synchronous_commit=off)" insert
  row "POST scalar RPC" rpc
  row "GET one row by PK while sign-ins run ($signin_conns connections, below)" get_during_sign_in
  row "GET one row by PK (repeat)" get_one_again
  echo
  echo "| Ratio to the database's limit: the gateway ÷ pgbench of the best hand-written transaction (pipelined, prepared, same clients) | gateway req/s | pgbench tps (median; runs) | R (target) | PostgreSQL CPU µs/tx (runs) | pgbench CPU µs/tx (runs) | p99 gateway / pgbench (runs) | R the CPU allows: pgbench's µs/tx ÷ the gateway side's µs/req (gateway + PostgreSQL + wrk) | R if the gateway cost no CPU (÷ PostgreSQL + wrk) |"
  echo "|---|---|---|---|---|---|---|---|---|"
  twin "GET one row by PK (get_one.pgbench)" get_one 0.8
  twin "25-row page + to-one embed (page_embed.pgbench)" page_embed 0.8
  twin "25-row page + to-many embed (page_to_many.pgbench)" page_to_many 0.8
  twin "single insert, synchronous_commit=off (insert.pgbench)" insert 0.6
  echo
  echo "| Other figures | Value |"
  echo "|---|---|"
  echo "| drift of the repeated first scenario | $drift |"
  echo "| GET one row while sign-ins run ÷ GET alone (mean of the first and repeated runs, which bracket it) | $(ratio "${rps[get_during_sign_in]:-}" "$get_alone")${get_alone:+ ($get_alone req/s alone)} |"
  if [ -n "${inserted:-}" ]; then echo "| rows inserted vs insert responses counted by wrk | $inserted vs ${reqs[insert]} |"; fi
  echo "| gateway RSS idle → after load (peak) | $(mb "$rss_idle") MB → $(mb "$rss_after") MB ($(mb "$hwm") MB) |"
  echo
  echo "| Sign-ins: POST /auth/v1/token?grant_type=password, one confirmed user, bcrypt cost 10, wrk -c$signin_conns | sign-ins/s | p50 | p99 | non-2xx | gateway CPU µs/req | PostgreSQL CPU µs/req |"
  echo "|---|---|---|---|---|---|---|"
  row "alone" sign_in
  row "while the GET above runs at $conns connections (window ${secs}+2 s; CPU not separable)" sign_in_with_get
  if [ ${#storage_lines[@]} -gt 0 ]; then
    echo
    echo "| Storage (tests/bench/storage.sh $storage_runs, 10 MB object, same binary, own cluster) | Value |"
    echo "|---|---|"
    for line in "${storage_lines[@]}"; do
      label=${line%%: *}; [ "$label" = "gateway RSS" ] && label="gateway RSS (one stream at a time, then 4 concurrent downloads)"
      echo "| $label | ${line#*: } |"
    done
  fi
} > "$report_file"
cat "$report_file"
