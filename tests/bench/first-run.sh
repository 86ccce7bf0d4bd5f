#!/usr/bin/env bash
# A newcomer's first `make run`, timed: a fresh clone of this repository at REV (with ../shared beside it), `make run`,
# and the seconds until both `/` and `/jobs` answer 200; then the machine's CPU over that time (user + system, the
# hypervisor's steal, idle) and when the `gateway` crate started compiling and the build ended. Stops the stack after.
#   tests/bench/first-run.sh [REV] (default HEAD; FIRST_RUN_DIR default /tmp/first-run; FIRST_RUN_PORT default 58500)
# Run on a quiet machine: builds from an empty target folder, so it takes minutes and both cores.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rev=${1:-HEAD}; dir=${FIRST_RUN_DIR:-/tmp/first-run}; port=${FIRST_RUN_PORT:-58500}
rm -rf "$dir" && mkdir -p "$dir" && git clone -q "$repo" "$dir/main" && ln -s "$(cd "$repo/../shared" && pwd)" "$dir/shared"
cd "$dir/main" && git checkout -q "$rev"
read -r _ u0 n0 s0 i0 _ q0 sq0 st0 _ < /proc/stat
start=$EPOCHREALTIME
(PORT=$port setsid make run 2>&1 | while IFS= read -r l; do
  printf '%6.1f %s\n' "$(echo "$EPOCHREALTIME - $start" | bc)" "$l"; done > "$dir/run.log" &)
ok=no
for _ in $(seq 1 1200); do
  r=$(curl -s -o /dev/null -o /dev/null -w '%{http_code} ' "http://127.0.0.1:$port/" "http://127.0.0.1:$port/jobs")
  if [ "$r" = "200 200 " ]; then ok=yes; break; fi
  sleep 0.5
done
end=$EPOCHREALTIME
read -r _ u1 n1 s1 i1 _ q1 sq1 st1 _ < /proc/stat
tck=$(getconf CLK_TCK)
echo "revision $(git rev-parse --short HEAD): first 200 of / and /jobs after $(echo "$end - $start" | bc) s (answered: $ok)"
echo "machine CPU s: user+sys $(( (u1+n1+s1+q1+sq1-u0-n0-s0-q0-sq0)/tck )), steal $(( (st1-st0)/tck )), idle $(( (i1-i0)/tck ))"
grep -E "Compiling gateway|Finished" "$dir/run.log" | head -3
pkill -TERM -f "make run" 2>/dev/null; sleep 3
