#!/usr/bin/env bash
# Two gateway builds side by side on one cluster, alternating windows (A, B, A, B …), so the machine's load moves
# both alike: per scenario req/s, p99 and the CPU per request of each gateway, of PostgreSQL and of wrk. On a
# shared machine the CPU per request is the figure to compare; req/s only as the ratio B ÷ A within this run.
#   tests/bench/ab.sh A_BIN B_BIN      (BENCH_SECONDS per window, default 10; BENCH_CONNECTIONS 32; BENCH_ROUNDS
#                                       windows per build, default 2; BENCH_SCENARIOS default: get_one page_embed
#                                       page_to_many insert; BENCH_A_ENV / BENCH_B_ENV: VAR=VALUE settings for
#                                       each gateway, e.g. BENCH_B_ENV="PGRST_DB_POOL=4" with one binary twice;
#                                       BENCH_A_TRANSPORT / BENCH_B_TRANSPORT: tcp (default) or unix, how each
#                                       gateway reaches PostgreSQL — see lib.sh)
# Figures to compare, never asserted. Both gateways keep their default pool; only one serves at a time.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
secs=${BENCH_SECONDS:-10}
conns=${BENCH_CONNECTIONS:-32}
rounds=${BENCH_ROUNDS:-2}
scenarios=${BENCH_SCENARIOS:-get_one page_embed page_to_many insert}
bin_a=${1:?A_BIN}; bin_b=${2:?B_BIN}
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 2; }
GATEWAY_BIN=$bin_a
mkdir -p "$bench_root/tests/.tmp"; chmod 755 "$bench_root/tests/.tmp"
tmp=$(mktemp -d "$bench_root/tests/.tmp/ab-XXXXXX"); chmod 755 "$tmp"
declare -A pid url
stop_both() { for s in a b; do if [ -n "${pid[$s]:-}" ]; then kill "${pid[$s]}" 2>/dev/null || true; wait "${pid[$s]}" 2>/dev/null || true; fi; done; }
trap 'stop_both; bench_cleanup' EXIT
trap 'exit 130' INT TERM
bench_cluster
for s in a b; do
  GATEWAY_BIN=$([ $s = a ] && echo "$bin_a" || echo "$bin_b")
  env_of=BENCH_${s^^}_ENV
  # shellcheck disable=SC2086 # space-separated VAR=VALUE settings
  transport_of=BENCH_${s^^}_TRANSPORT
  BENCH_TRANSPORT=${!transport_of:-tcp} bench_gateway_start ${!env_of:-}
  mv "$tmp/gateway.log" "$tmp/gateway-$s.log"
  pid[$s]=$gateway_pid; url[$s]="http://127.0.0.1:$port"; gateway_pid=
  [ $s = a ] && key_a=$BENCH_KEY
done
export BENCH_KEY=$key_a  # A's anon key (the cluster is A's; B may be tests/bench/floor, which checks none)
psql -qX "$admin/postgres" -c "alter system set synchronous_commit = off" -c "select pg_reload_conf()" >/dev/null

sys_ticks() { awk '{print $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
hz=$(getconf CLK_TCK)
declare -A sum_rps sum_gw sum_sys sum_pg sum_gen p99s
for scenario in $scenarios; do
  for s in a b; do  # warm-up: each statement shape prepared, each connection open
    BENCH_PREFIX=/rest/v1 bench_wrk "$tmp/warm.txt" "$scenario.lua" 2 "$conns" "${url[$s]}"
  done
  for round in $(seq 1 "$rounds"); do
    for s in a b; do
      out=$tmp/$scenario-$s-$round.txt
      g0=$(cpu_ticks "${pid[$s]}"); s0=$(sys_ticks "${pid[$s]}"); p0=$(pg_cpu_ticks)
      /usr/bin/time -f '%U %S' -o "$tmp/time" wrk -t1 -c"$conns" -d"${secs}s" --latency -s "$bench_dir/wrk/$scenario.lua" \
        "${url[$s]}" >"$out" 2>&1 || true
      g1=$(cpu_ticks "${pid[$s]}"); s1=$(sys_ticks "${pid[$s]}"); p1=$(pg_cpu_ticks)
      n=$(awk '/requests in/ {print $1}' "$out"); n=${n:-0}
      [ "$n" -gt 0 ] || { echo "$s $scenario: no requests: $(tail -n 3 "$out")" >&2; continue; }
      [ "$(bench_figure "$out" non2xx)" = 0 ] || echo "$s $scenario: $(bench_figure "$out" non2xx) non-2xx answers" >&2
      k=$scenario-$s
      sum_rps[$k]=$(( ${sum_rps[$k]:-0} + $(bench_figure "$out" rps) ))
      sum_gw[$k]=$(awk -v s="${sum_gw[$k]:-0}" -v a="$g0" -v b="$g1" -v n="$n" -v hz="$hz" 'BEGIN {print s + (b - a) / hz * 1e6 / n}')
      sum_sys[$k]=$(awk -v s="${sum_sys[$k]:-0}" -v a="$s0" -v b="$s1" -v n="$n" -v hz="$hz" 'BEGIN {print s + (b - a) / hz * 1e6 / n}')
      sum_pg[$k]=$(awk -v s="${sum_pg[$k]:-0}" -v a="$p0" -v b="$p1" -v n="$n" -v hz="$hz" 'BEGIN {print s + (b - a) / hz * 1e6 / n}')
      sum_gen[$k]=$(awk -v s="${sum_gen[$k]:-0}" -v n="$n" '{print s + ($1 + $2) * 1e6 / n}' "$tmp/time")
      p99s[$k]="${p99s[$k]:-}$(bench_figure "$out" 99%) "
    done
  done
done

avg() { awk -v s="$1" -v r="$rounds" 'BEGIN {printf "%.0f", s / r}'; }
{
  echo "# Two gateway builds, alternating $(date -u +%FT%TZ)"
  echo
  echo "Machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); A \`$bin_a\`${BENCH_A_ENV:+ ($BENCH_A_ENV)} over ${BENCH_A_TRANSPORT:-tcp}, B \`$bin_b\`${BENCH_B_ENV:+ ($BENCH_B_ENV)} over ${BENCH_B_TRANSPORT:-tcp}; wrk -t1 -c$conns -d${secs}s, $rounds windows each, alternating; synchronous_commit=off throughout."
  echo
  echo "| Scenario | A req/s | B req/s | B ÷ A | A / B p99 (each window) | A / B gateway CPU µs/req (kernel part) | A / B PostgreSQL CPU µs/req | A / B wrk CPU µs/req |"
  echo "|---|---|---|---|---|---|---|---|"
  for scenario in $scenarios; do
    a=$scenario-a; b=$scenario-b
    [ -n "${sum_rps[$a]:-}" ] && [ -n "${sum_rps[$b]:-}" ] || { echo "| $scenario | not measured | | | | | | |"; continue; }
    ra=$(( sum_rps[$a] / rounds )); rb=$(( sum_rps[$b] / rounds ))
    echo "| $scenario | $ra | $rb | $(awk -v a="$ra" -v b="$rb" 'BEGIN {printf "%.2f", b / a}') | ${p99s[$a]}/ ${p99s[$b]}| $(avg "${sum_gw[$a]}") ($(avg "${sum_sys[$a]}")) / $(avg "${sum_gw[$b]}") ($(avg "${sum_sys[$b]}")) | $(avg "${sum_pg[$a]}") / $(avg "${sum_pg[$b]}") | $(avg "${sum_gen[$a]}") / $(avg "${sum_gen[$b]}") |"
  done
} | tee "$bench_dir/last-ab.md"
