#!/usr/bin/env bash
# The machine's best gateway configuration: `make bench`'s ratio scenarios (tests/bench/run.sh) once per pool size ×
# HTTP worker count, one after another on this machine, and one table of R (gateway ÷ pgbench of the best
# hand-written transaction, both in the same run), the gateway's CPU per request and the p99 per configuration.
#   tests/bench/configs.sh     (BENCH_CONFIGS: POOLxWORKERS list, default "10x2 4x2 20x2 10x1 4x1", the gateway's
#                               default first; BENCH_SCENARIOS default "get_one page_to_many insert"; GATEWAY_BIN
#                               and the other settings as run.sh; each configuration's full report is kept beside the
#                               table in tests/bench/last-configs/)
# Figures to compare, never asserted. Writes the table to tests/bench/last-configs.md (ignored by git).
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
configs=${BENCH_CONFIGS:-10x2 4x2 20x2 10x1 4x1}
export BENCH_SCENARIOS=${BENCH_SCENARIOS:-get_one page_to_many insert} BENCH_STORAGE_RUNS=0
out=$bench/last-configs; rm -rf "$out"; mkdir -p "$out"
# FIELD of the ratio row or the scenario row whose label starts with LABEL in REPORT
ratio_of() { awk -F' \\| ' -v l="$2" 'index($1, "| " l) == 1 && /pgbench\)/ {split($4, r, " "); print r[1]; exit}' "$1"; }
scenario_field() { awk -F' \\| ' -v l="$2" -v f="$3" 'index($1, "| " l) == 1 && !/pgbench\)/ {print $f; exit}' "$1"; }
rows=()
for c in $configs; do
  pool=${c%x*}; workers=${c#*x}
  echo "== pool $pool, workers $workers" >&2
  BENCH_POOL=$pool BENCH_WORKERS=$workers "$bench/run.sh" >/dev/null
  cp "$bench/last-report.md" "$out/pool$pool-workers$workers.md"
  r=$out/pool$pool-workers$workers.md
  rows+=("| $pool | $workers | $(ratio_of "$r" "GET one row by PK") | $(scenario_field "$r" "GET one row by PK" 6) \
| $(ratio_of "$r" "25-row page + to-many") | $(scenario_field "$r" "GET 25-row page + to-many" 6) \
| $(ratio_of "$r" "single insert") | $(scenario_field "$r" "POST single insert" 6) | $(scenario_field "$r" "POST single insert" 4) |")
done
{
  echo "# Gateway configurations $(date -u +%FT%TZ)"
  echo
  echo "Machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); one \`tests/bench/run.sh\` per row (scenarios: $BENCH_SCENARIOS), reports in \`tests/bench/last-configs/\`."
  echo
  echo "| pool | HTTP workers | R GET | gateway µs/GET | R to-many page | gateway µs/page | R insert | gateway µs/insert | insert p99 |"
  echo "|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} | tee "$bench/last-configs.md"
