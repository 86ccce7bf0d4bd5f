#!/usr/bin/env bash
# Where the gateway's CPU goes, natively: `perf record` of a running gateway while wrk loads it at 32 connections, per
# scenario, in two windows — one of plain cpu-clock samples (little overhead: the self time of each frame, user and
# kernel) with the gateway's CPU per request read from /proc over the same window, and one with DWARF call stacks for
# the time of each frame with its callees. Writes OUT_DIR/<scenario>.txt: requests, CPU per request, the top frames
# by self time as a share and as µs per request (share × CPU per request), and the top frames by total time.
# Meant for the `release` build (its symbol table is kept; `debug = false` does not strip). CPU per request moves with
# the machine's load; the shares much less.
#   tests/bench/perf.sh BIN OUT_DIR   (BENCH_SCENARIOS default: get_one page_to_many insert; BENCH_SECONDS recorded
#                                      per window, default 8; BENCH_PERF_HZ sampling rate, default 999;
#                                      BENCH_TRANSPORT tcp or unix as in run.sh)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
GATEWAY_BIN=${1:?gateway binary}; out_dir=${2:?output folder}
secs=${BENCH_SECONDS:-8}; hz=${BENCH_PERF_HZ:-999}
scenarios=${BENCH_SCENARIOS:-get_one page_to_many insert}
command -v perf >/dev/null || { echo "perf is needed (apt-get install linux-perf)" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 2; }
mkdir -p "$out_dir"
bench_scratch perf
bench_cluster_async_commit
bench_gateway_start
# perf record PERF_ARGS… for $secs while wrk loads SCENARIO; sets n_rec (requests answered while recording) and
# t0/t1 (the gateway's CPU ticks around the recording)
recorded() { # SCENARIO DATA PERF_ARGS…
  local scenario=$1 data=$2; shift 2
  bench_wrk "$tmp/wrk.txt" "$scenario.lua" "$((secs + 2))" 32 "http://127.0.0.1:$port" &
  local wrk_pid=$! n
  sleep 1
  t0=$(cpu_ticks "$gateway_pid")
  perf record -q -F "$hz" "$@" -p "$gateway_pid" -o "$data" -- sleep "$secs" 2>/dev/null
  t1=$(cpu_ticks "$gateway_pid")
  wait "$wrk_pid"
  n=$(awk '/requests in/ {print $1}' "$tmp/wrk.txt")
  n_rec=$(awk -v n="$n" -v s="$secs" -v w="$((secs + 2))" 'BEGIN {printf "%d", n * s / w}')
}
tidy() { sed -E 's/[[:space:]]+-[[:space:]]+-[[:space:]]*$//; s/[[:space:]]+$//'; }
for scenario in $scenarios; do
  bench_wrk "$tmp/warm.txt" "$scenario.lua" 5 32 "http://127.0.0.1:$port"
  recorded "$scenario" "$tmp/self.data"; n=$n_rec
  us=$(awk -v t="$((t1 - t0))" -v hz="$(getconf CLK_TCK)" -v n="$n" 'BEGIN {printf "%.1f", t / hz * 1e6 / n}')
  recorded "$scenario" "$tmp/calls.data" --call-graph dwarf,16384; n_dwarf=$n_rec
  {
    echo "# $scenario: $(basename "$GATEWAY_BIN"), perf record -F $hz, ${secs} s windows at 32 connections"
    echo
    echo "Self-time window: $n requests answered while recording, gateway CPU $us µs per request (/proc, user + system)."
    echo "Call-stack window: $n_dwarf requests (DWARF unwinding slows the gateway; its shares are indicative)."
    echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
    echo
    echo "## exclusive (self time), top frames: µs per request, share, object, symbol"
    perf report -i "$tmp/self.data" --stdio --no-children --sort dso,symbol -g none --percent-limit 0.4 2>/dev/null \
      | grep -E '^ +[0-9.]+%' | awk 'NR <= 60' | tidy \
      | awk -v t="$us" '{p = $1; sub("%", "", p); printf "%7.2f µs  %s\n", p * t / 100, $0}'
    echo
    echo "## inclusive (with callees), top frames: share with callees, share self, symbol"
    perf report -i "$tmp/calls.data" --stdio --children --sort symbol -g none --percent-limit 3 2>/dev/null \
      | grep -E '^ +[0-9.]+%' | grep -v '0xffffffffffffffff' | awk 'NR <= 70' | tidy
  } > "$out_dir/$scenario.txt"
  echo "$scenario: $n requests, $us µs gateway CPU per request" >&2
done
