#!/usr/bin/env bash
# The gateway's system calls per request: after a warm-up, `strace -f -c` attaches to the running gateway while wrk
# sends requests for a fixed time; each call's count is divided by the requests wrk saw answered. strace slows the
# gateway a lot, so only the counts mean something (not the times). Writes the per-scenario table to OUT_DIR.
#   tests/bench/syscalls.sh BIN [OUT_DIR]   (BENCH_SCENARIOS default: get_one page_to_many insert;
#                                            BENCH_SECONDS counted per scenario, default 5; 4 connections)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
GATEWAY_BIN=${1:?gateway binary}; out_dir=${2:-}
secs=${BENCH_SECONDS:-5}
scenarios=${BENCH_SCENARIOS:-get_one page_to_many insert}
command -v strace >/dev/null || { echo "strace is needed (apt-get install strace)" >&2; exit 2; }
[ -z "$out_dir" ] || mkdir -p "$out_dir"
bench_scratch syscalls
bench_cluster_async_commit
for scenario in $scenarios; do
  bench_gateway_start
  bench_wrk "$tmp/warm.txt" "$scenario.lua" 3 32 "http://127.0.0.1:$port"
  strace -f -c -o "$tmp/strace.$scenario.txt" -p "$gateway_pid" 2>/dev/null &
  tracer=$!
  sleep 1
  bench_wrk "$tmp/$scenario.txt" "$scenario.lua" "$secs" 4 "http://127.0.0.1:$port"
  kill -INT "$tracer"; wait "$tracer" 2>/dev/null || true
  bench_gateway_stop
  n=$(awk '/requests in/ {print $1}' "$tmp/$scenario.txt")
  {
    echo "# $scenario: $(basename "$GATEWAY_BIN"), $n requests, system calls per request (strace -f -c)"
    echo
    echo "| call | per request |"
    echo "|---|---|"
    awk -v n="$n" '$1 ~ /^[0-9.]+$/ && NF >= 5 { calls = $4; name = $NF; if (name != "total") printf "| %s | %.2f |\n", name, calls / n }
      $NF == "total" { printf "| **total** | **%.2f** |\n", $4 / n }' "$tmp/strace.$scenario.txt"
  } | tee ${out_dir:+"$out_dir/syscalls.$scenario.md"}
done
