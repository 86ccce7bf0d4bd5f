#!/usr/bin/env bash
# `make run` never leaves its private PostgreSQL running (issue 30, finding 10): STOPS times (default 50) `make run`
# is started in its own process group and the group is sent SIGTERM, SIGINT or SIGHUP at a random moment of its
# start-up or of serving (uniform over the measured start-up time plus 1 s); half the time a second signal follows
# within 0.3 s (make forwards one to its child; an impatient user presses Ctrl-C twice). After each stop neither
# make, scripts/run.sh, the gateway nor a PostgreSQL server of the data folder may be left. Debug gateway, empty
# site, as tests/security/make-run.sh (which runs this on its own data folder and port). Last, scripts/run.sh is
# killed outright (SIGKILL, no trap runs) while serving: its supervisor must stop the gateway and the cluster.
#   tests/security/make-run-stops.sh [DATA_DIR PORT]   (prints `N passed, N failed` and SUITE-COUNTS)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd); cd "$root"
export GATEWAY_BIN=${GATEWAY_BIN:-$root/target/debug/gateway}
[ -x "$GATEWAY_BIN" ] || cargo build -q -p gateway --bin gateway || exit 1
STOPS=${STOPS:-50}

tmp=$(mktemp -d /tmp/gw-stops-XXXXXX); chmod 755 "$tmp"
data=${1:-$tmp/data}; port=${2:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')}
site=$tmp/site; mkdir -p "$site" "$data"
DATA_DIR=$(cd "$data" && pwd); source scripts/lib/stack.sh; pgdir=$(stack_pg_dir)
passed=0; failed=0; run_pid=

server_left() {
  { [ -f "$pgdir/data/postmaster.pid" ] && kill -0 "$(head -n1 "$pgdir/data/postmaster.pid")" 2>/dev/null; } ||
    pgrep -f -- "postgres -D $pgdir/data( |$)" >/dev/null
}
gateway_left() { pgrep -f -- "^$GATEWAY_BIN serve" >/dev/null && ss -ltn | grep -q ":$port "; }
guard_running() { local g; g=$(cat "$data/run-guard.pid" 2>/dev/null) && [ -n "$g" ] && kill -0 "$g" 2>/dev/null; }
start() {
  env GATEWAY_BIN="$GATEWAY_BIN" DATA_DIR="$data" GATEWAY_SITE_DIR="$site" PORT="$port" \
    python3 tests/security/lib/new-session.py make -s run >"$tmp/run.log" 2>&1 &
  run_pid=$!
  disown "$run_pid"   # watched through its process group; no job notice when a signal ends it
  # signal only once make leads its own process group (the new session exists)
  for _ in $(seq 1 200); do [ "$(ps -o pgid= -p "$run_pid" | tr -d ' ')" = "$run_pid" ] && break; sleep 0.01; done
}
# Where each process of a run that did not stop is waiting: its process line, its kernel stack and its user stack.
stuck_state() {
  ps -o pid,ppid,stat,wchan:24,args -g "$run_pid" | sed 's/^/      /'
  local p
  for p in $(pgrep -g "$run_pid"); do
    echo "      -- $p kernel: $(tr '\n' ' ' < "/proc/$p/stack" 2>/dev/null)"
    timeout 20 gdb -p "$p" -batch -ex bt 2>/dev/null | grep '^#' | head -n 12 | sed "s/^/      -- $p /"
  done
}
# Waits for make's process group (make, run.sh, what they started) to end, then for the run's supervisor; true when
# nothing of the run is left.
settled() {
  for _ in $(seq 1 150); do pgrep -g "$run_pid" >/dev/null || break; sleep 0.2; done
  if pgrep -g "$run_pid" >/dev/null; then
    echo "still running 30 s after the signal: $(pgrep -g "$run_pid" -l | tr '\n' ' ')"; stuck_state
    kill -KILL -- "-$run_pid" 2>/dev/null; return 1
  fi
  for _ in $(seq 1 150); do guard_running || break; sleep 0.2; done
  local left=""
  guard_running && left+=" supervisor"
  gateway_left && left+=" gateway"
  server_left && left+=" PostgreSQL"
  [ -z "$left" ] && return 0
  echo "left:$left"
  # what the supervisor and any gateway of this binary are doing (the supervisor waits 30 s for a gateway to stop)
  local pids; pids=$( { cat "$data/run-guard.pid"; pgrep -f -- "^$GATEWAY_BIN serve"; } 2>/dev/null | paste -sd, -)
  [ -z "$pids" ] || ps -o pid,ppid,stat,etimes,wchan:24,args -p "$pids" | sed 's/^/      /'
  return 1
}
cleanup() {
  [ -n "$run_pid" ] && kill -KILL -- "-$run_pid" 2>/dev/null
  scripts/pg-cluster.sh stop "$pgdir" >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT

# A full start (the first one also creates and seeds the database) measures the start-up, then a plain stop.
t0=$(date +%s%N); start
for _ in $(seq 1 600); do grep -q '^Serving on' "$tmp/run.log" && break; kill -0 "$run_pid" 2>/dev/null || break; sleep 0.1; done
startup_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
if ! grep -q '^Serving on' "$tmp/run.log"; then
  echo "not ok - make run serves before the stops"; sed 's/^/    /' "$tmp/run.log" | tail -n 20
  echo "SUITE-COUNTS passed=0 failed=1"; echo "0 passed, 1 failed"; exit 1
fi
kill -TERM -- "-$run_pid"; settled >/dev/null || true
# restarts skip the seeding: measure the start-up again on a seeded folder
t0=$(date +%s%N); start
for _ in $(seq 1 600); do grep -q '^Serving on' "$tmp/run.log" && break; kill -0 "$run_pid" 2>/dev/null || break; sleep 0.1; done
startup_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
kill -TERM -- "-$run_pid"; settled >/dev/null || true
window_ms=$((startup_ms + 1000))
echo "# start-up to serving: ${startup_ms} ms; stops at random moments within ${window_ms} ms"

began=$(date +%s)
signals=(TERM INT HUP)
for i in $(seq 1 "$STOPS"); do
  sig=${signals[$((RANDOM % 3))]}
  at_ms=$(( (RANDOM * 32768 + RANDOM) % window_ms ))
  start
  sleep "$(printf '%d.%03d' $((at_ms / 1000)) $((at_ms % 1000)))"
  phase=start-up; grep -q '^Serving on' "$tmp/run.log" && phase=serving
  kill "-$sig" -- "-$run_pid" 2>/dev/null
  twice=""
  if [ $((RANDOM % 2)) = 0 ]; then
    sleep "0.$(printf '%03d' $((RANDOM % 300)))"; kill "-$sig" -- "-$run_pid" 2>/dev/null; twice=" twice"
  fi
  name="stop $i: SIG$sig$twice after ${at_ms} ms ($phase) leaves nothing running"
  if why=$(settled); then
    passed=$((passed + 1)); echo "ok - $name"
  else
    failed=$((failed + 1)); echo "not ok - $name"; echo "    $why"; sed 's/^/    /' "$tmp/run.log" | tail -n 8
    scripts/pg-cluster.sh stop "$pgdir" >/dev/null 2>&1
  fi
done
echo "# $STOPS stops in $(( $(date +%s) - began )) s"

# The supervisor's own case: scripts/run.sh killed outright (no trap can run) while serving.
start
for _ in $(seq 1 600); do grep -q '^Serving on' "$tmp/run.log" && break; sleep 0.1; done
kill -KILL "$(pgrep -g "$run_pid" -f scripts/run.sh | head -n1)" 2>/dev/null
name="SIGKILL to scripts/run.sh while serving: its supervisor stops the gateway and PostgreSQL"
if why=$(settled); then passed=$((passed + 1)); echo "ok - $name"; else failed=$((failed + 1)); echo "not ok - $name"; echo "    $why"; fi
run_pid=
echo "SUITE-COUNTS passed=$passed failed=$failed"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
