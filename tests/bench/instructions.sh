#!/usr/bin/env bash
# The gateway's own instructions per request, counted by callgrind (user space only; the kernel's share shows in
# the CPU split of run.sh and ab.sh): a figure that does not move with the machine's load, so two builds compare
# exactly. Per scenario the gateway runs under `valgrind --tool=callgrind` with instrumentation off, answers a warm-up
# (every statement prepared, every connection open), then counts while wrk sends requests for a fixed time; the
# count is divided by the requests wrk saw answered. The PostgreSQL connections the gateway opened while counting
# (each a SCRAM handshake in the count; those alive at the end, as a pool keeps them) are shown beside it. Also
# writes the top functions (exclusive and inclusive) of each scenario to OUT_DIR/<scenario>.txt.
#   tests/bench/instructions.sh BIN [OUT_DIR]   (BENCH_SCENARIOS default: get_one page_embed page_to_many insert;
#                                                BENCH_SECONDS counted per scenario, default 20; 4 connections)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
GATEWAY_BIN=${1:?gateway binary}; out_dir=${2:-}
secs=${BENCH_SECONDS:-20}
scenarios=${BENCH_SCENARIOS:-get_one page_embed page_to_many insert}
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)" >&2; exit 2; }
[ -z "$out_dir" ] || mkdir -p "$out_dir"
bench_scratch instructions
bench_cluster_async_commit
rows=()
for scenario in $scenarios; do
  BENCH_GATEWAY_WRAPPER="valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=$tmp/cg.$scenario.out" \
    bench_gateway_start
  bench_wrk "$tmp/warm.txt" "$scenario.lua" 5 32 "http://127.0.0.1:$port"
  mark=$(psql -qXAt "$admin/postgres" -c "select now()")
  callgrind_control -i on "$gateway_pid" >/dev/null
  bench_wrk "$tmp/$scenario.txt" "$scenario.lua" "$secs" 4 "http://127.0.0.1:$port"
  callgrind_control -i off "$gateway_pid" >/dev/null
  opened=$(psql -qXAt "$admin/postgres" -c "select count(*) from pg_stat_activity
    where usename = 'authenticator' and backend_start >= '$mark'")
  bench_gateway_stop
  n=$(awk '/requests in/ {print $1}' "$tmp/$scenario.txt")
  [ "$(bench_figure "$tmp/$scenario.txt" non2xx)" = 0 ] || echo "$scenario: non-2xx answers: $(bench_figure "$tmp/$scenario.txt" non2xx)" >&2
  ir=$(callgrind_annotate "$tmp/cg.$scenario.out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
  rows+=("| $scenario | $n | $ir | $(awk -v i="$ir" -v n="$n" 'BEGIN {printf "%.0f", i / n}') | $opened |")
  if [ -n "$out_dir" ]; then
    { echo "# $scenario: $(basename "$GATEWAY_BIN"), $n requests, $ir instructions"; echo
      echo "## exclusive"; callgrind_annotate --threshold=95 "$tmp/cg.$scenario.out" 2>/dev/null | sed -n '/^--* *$/,$p' | head -n 60 || true
      echo; echo "## inclusive"; callgrind_annotate --inclusive=yes --threshold=99 "$tmp/cg.$scenario.out" 2>/dev/null \
        | sed -n '/^--* *$/,$p' | head -n 80 || true; } > "$out_dir/$scenario.txt"
    # BENCH_KEEP_CALLGRIND=1 keeps the raw profile too (for callgrind_annotate --tree=caller on one function)
    [ -z "${BENCH_KEEP_CALLGRIND:-}" ] || cp "$tmp/cg.$scenario.out" "$out_dir/cg.$scenario.out"
  fi
done
{
  echo "# Gateway instructions per request $(date -u +%FT%TZ)"
  echo
  echo "\`$GATEWAY_BIN\` under callgrind; wrk -t1 -c4 -d${secs}s counted after a 5 s warm-up; user-space instructions only."
  echo
  echo "| Scenario | requests | instructions | per request | connections opened while counting |"
  echo "|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
}
