#!/usr/bin/env bash
# The supervisor of `make run` (scripts/run.sh starts it in its own session, so no signal meant for make run's
# process group reaches it): when the run it watches has ended, however it ended — its own clean-up, a signal in any
# order, SIGKILL, a crash — it stops the gateway if one is left, then the private PostgreSQL cluster, including a
# cluster still starting (pg_ctl killed before the server wrote its pid file). Its pid is in DATA_DIR/run-guard.pid
# while it runs, so the next `make run` waits for it before reusing the cluster.
#   scripts/lib/run-guard.sh RUN_PID PG_DIR DATA_DIR
set -u
trap '' INT TERM HUP QUIT
run_pid=$1; pgdir=$2; data=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
echo $$ > "$data/run-guard.pid"

# A process's start time (field 22 of /proc/PID/stat, read after the command name, which may hold spaces), so a
# recycled pid is never taken for the run; nothing for a zombie. An init that does not reap orphans (a container's
# or a VM's first process may not) keeps an exited gateway or run as a zombie for good, and `kill -0` succeeds on it.
started() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '$1 != "Z" { print $20 }'; }
# Running and not a zombie.
alive() { [ -n "$(started "$1")" ]; }
run_started=$(started "$run_pid")
[ -n "$run_started" ] || run_started=gone
while [ "$(started "$run_pid")" = "$run_started" ]; do sleep 0.2; done

# The gateway the run started, if it outlived the run (its pid file names it; its start time vouches for it). A file
# without a start time names a gateway that had already ended when run.sh read it: `started` of it is empty too.
if read -r gw_pid gw_started < "$data/run-gateway.pid" 2>/dev/null && [ -n "$gw_started" ] &&
   [ "$(started "$gw_pid")" = "$gw_started" ]; then
  kill -TERM "$gw_pid" 2>/dev/null
  for _ in $(seq 1 150); do [ "$(started "$gw_pid")" = "$gw_started" ] || break; sleep 0.2; done
  [ "$(started "$gw_pid")" = "$gw_started" ] && kill -KILL "$gw_pid" 2>/dev/null
fi
rm -f "$data/run-gateway.pid"

# The cluster's server: the one its pid file names, or one still starting (its command line names the folder).
server_alive() {
  [ -f "$pgdir/data/postmaster.pid" ] && alive "$(head -n1 "$pgdir/data/postmaster.pid")" && return 0
  pgrep -f -- "postgres -D $pgdir/data( |$)" >/dev/null
}
for _ in $(seq 1 300); do
  server_alive || break
  "$root/scripts/pg-cluster.sh" stop "$pgdir" >/dev/null 2>&1
  server_alive || break
  sleep 0.2
done
rm -f "$data/run-guard.pid"
