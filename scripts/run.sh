#!/usr/bin/env bash
# `make run`: builds what is missing, starts a private PostgreSQL cluster under the data folder unless DATABASE_URL is
# given, migrates, loads demo content into a new database (never when GATEWAY_ENV=production), and serves the APIs and
# the site on PORT (default 54321). Ctrl-C or SIGTERM stops the gateway and the private cluster; state survives
# restarts. Everything under the data folder is readable by this OS user only (and the cluster's own user). A
# supervisor in its own session (scripts/lib/run-guard.sh) stops the gateway and the private cluster when this script
# ends however it ends (signals in any order, SIGKILL), so no run leaves its PostgreSQL behind.
# GATEWAY_BIN skips the build and runs that binary; GATEWAY_SITE_DIR skips building the site and serves that folder.
set -euo pipefail
umask 077
root=$(cd "$(dirname "$0")/.." && pwd); cd "$root"
export PORT=${PORT:-54321}
DATA_DIR=${DATA_DIR:-$root/.data}; mkdir -p "$DATA_DIR"; DATA_DIR=$(cd "$DATA_DIR" && pwd)
# Private to this user; as root, searchable (not listable) so the postgres user reaches the cluster folder inside.
if [ "$(id -u)" = 0 ]; then chmod 711 "$DATA_DIR"; else chmod 700 "$DATA_DIR"; fi

source scripts/lib/stack.sh
need() { command -v "$1" >/dev/null 2>&1; }
apt_install() {
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"; fi
}
need psql || apt_install postgresql-client
need node || apt_install nodejs npm

# The site builds beside the gateway (the gateway's build leaves a core idle for most of its last minute).
web_build=
if [ -z "${GATEWAY_SITE_DIR:-}" ] && [ -x scripts/build-web.sh ] && { [ ! -f web/dist/index.html ] || \
   [ -n "$(find web/src web/content web/public web/index.html -newer web/dist/index.html 2>/dev/null | head -n1)" ]; }; then
  echo "building the site (log: $DATA_DIR/build-web.log)..."
  # at the lowest CPU priority: it then takes what the gateway's build leaves idle (mostly one core while the gateway
  # crate itself compiles, at the end) instead of slowing the build down
  nice -n 19 scripts/build-web.sh --no-typecheck >"$DATA_DIR/build-web.log" 2>&1 &
  web_build=$!
fi
if [ -z "${GATEWAY_BIN:-}" ]; then
  need cargo || { echo "Rust (cargo) is required: https://rustup.rs" >&2; exit 1; }
  # built for build time and without S3 (stack_build_gateway, scripts/lib/stack.sh; STORAGE_BACKEND=s3 stops this
  # build with how to get one that has it); `make build` gives production's build
  echo "building the gateway (the first build takes a few minutes)..."
  stack_build_gateway || { [ -z "$web_build" ] || kill "$web_build" 2>/dev/null; exit 1; }
  GATEWAY_BIN=$(stack_gateway_bin)
fi
if [ -n "$web_build" ]; then
  wait "$web_build" || { tail -n 30 "$DATA_DIR/build-web.log" >&2; echo "the site's build failed (above)" >&2; exit 1; }
fi

# Stop what was started, however the run ends: normal exit, Ctrl-C, SIGTERM or SIGHUP (to this script or its group).
cleanup=()
gateway_pid=
gateway_launch=   # set just before the gateway is started: the value $! had then ("none" if no job had started)
# Running while the gateway's process is (a child that already exited is reaped by bash at once).
gateway_alive() { kill -0 "$gateway_pid" 2>/dev/null; }
# SIGTERM, then SIGKILL if the gateway outlives its own drain bound (GATEWAY_SHUTDOWN_TIMEOUT_SECS, default 30 s)
# by 5 s: its graceful stop keeps all of that time, and a gateway that cannot stop cannot hold the run open.
stop_gateway() {
  local polls; polls=$(awk -v s="${GATEWAY_SHUTDOWN_TIMEOUT_SECS:-30}" 'BEGIN {printf "%d", (s + 0) * 10 + 50}')
  kill -TERM "$gateway_pid" 2>/dev/null || true
  for _ in $(seq 1 "$polls"); do gateway_alive || break; sleep 0.1; done
  gateway_alive && kill -KILL "$gateway_pid" 2>/dev/null
  wait "$gateway_pid" 2>/dev/null || true
}
on_exit() {
  # A second signal (make forwards SIGTERM to its child after the group got it) must not cut the clean-up short.
  trap '' INT TERM HUP
  # A signal between the gateway's fork and `gateway_pid=$!` runs this trap before that assignment: bash set $! at
  # the fork, so take the gateway from there (the child may have lost the signal before its exec).
  if [ -z "$gateway_pid" ] && [ -n "$gateway_launch" ] && [ "${!:-none}" != "$gateway_launch" ]; then gateway_pid=$!; fi
  if [ -n "$gateway_pid" ]; then stop_gateway; fi
  for c in "${cleanup[@]}"; do eval "$c" || true; done
}
trap on_exit EXIT
# A second signal arriving while the first one's exit runs must not end the EXIT trap early: ignore them first.
trap 'trap "" INT TERM HUP; exit 130' INT
trap 'trap "" INT TERM HUP; exit 143' TERM
trap 'trap "" INT TERM HUP; exit 129' HUP

# Starts the supervisor of this run (its own session: signals to make run's group never reach it) and waits until it
# is watching; a previous run's supervisor that is still stopping its cluster is waited for first.
start_guard() {
  local pidfile=$DATA_DIR/run-guard.pid old
  old=$(cat "$pidfile" 2>/dev/null || true)
  for _ in $(seq 1 150); do { [ -n "$old" ] && kill -0 "$old" 2>/dev/null; } || break; sleep 0.2; done
  rm -f "$pidfile" "$DATA_DIR/run-gateway.pid"
  setsid scripts/lib/run-guard.sh "$$" "$1" "$DATA_DIR" </dev/null >/dev/null 2>&1 &
  for _ in $(seq 1 100); do [ -s "$pidfile" ] && return 0; sleep 0.05; done
  echo "the run's supervisor did not start" >&2; return 1
}

if [ -z "${DATABASE_URL:-${PGRST_DB_URI:-}}" ]; then
  pgdir=$(stack_pg_dir)
  if [ "$pgdir" != "$DATA_DIR/pg" ]; then
    # The postgres user cannot reach the checkout (e.g. under /root): keep the cluster in a folder it can reach.
    mkdir -p "$(dirname "$pgdir")"; chmod 711 /var/lib/gateway-run "$(dirname "$pgdir")"
    echo "database folder: $pgdir (the postgres user cannot reach $DATA_DIR)"
  fi
  # pg_cron runs the app database's scheduled jobs (the nightly retention pass, sql/migrations/0320).
  [ -f /usr/share/postgresql/15/extension/pg_cron.control ] || apt_install postgresql-15-cron
  start_guard "$pgdir"
  cleanup+=("scripts/pg-cluster.sh stop '$pgdir'")
  # PGPORT picks the port; otherwise the one this cluster used before if it is still free, else any free port.
  eval "$(PG_CRON_DATABASE=app scripts/pg-cluster.sh start "$pgdir" "${PGPORT:-}")"
  export PGPASSFILE  # every role signs in with its password (SCRAM); psql and the gateway's commands read it here
  admin="postgres://postgres@127.0.0.1:$PGPORT"
  echo "PostgreSQL (private cluster): 127.0.0.1:$PGPORT, data in $pgdir; connect with PGPASSFILE=$PGPASSFILE psql $admin/app"
  if [ "$(psql -qAtX "$admin/postgres" -c "select count(*) from pg_database where datname = 'app'")" = 0 ]; then
    psql -qX "$admin/postgres" -c "create database app" >/dev/null
  fi
  export GATEWAY_ADMIN_DB_URI="$admin/app"
  export DATABASE_URL="postgres://authenticator:$AUTHENTICATOR_PASSWORD@127.0.0.1:$PGPORT/app"
  "$GATEWAY_BIN" migrate
  psql -qX "$admin/postgres" -c "alter role authenticator password '$AUTHENTICATOR_PASSWORD'" >/dev/null
else
  : "${GATEWAY_ADMIN_DB_URI:?set GATEWAY_ADMIN_DB_URI to an owner connection string so migrations can run}"
  "$GATEWAY_BIN" migrate
fi

if [ "${GATEWAY_ENV:-development}" != production ] && [ -x sql/seed/load.sh ] && \
   [ "$(psql -qAtX "$GATEWAY_ADMIN_DB_URI" -c "select to_regclass('gateway.demo_loaded') is null")" = t ]; then
  echo "loading demo content..."
  sql/seed/load.sh "$GATEWAY_ADMIN_DB_URI" 2>&1 | tee "$DATA_DIR/demo-content.log" | grep -v '^$' || true
  grep -oE 'demo user: .*' "$DATA_DIR/demo-content.log" > "$DATA_DIR/demo-credentials.txt" || true
  psql -qX "$GATEWAY_ADMIN_DB_URI" -c "create table gateway.demo_loaded (loaded_at timestamptz default now())" >/dev/null
fi
if [ "${GATEWAY_ENV:-development}" != production ] && [ -s "$DATA_DIR/demo-credentials.txt" ]; then
  echo "demo logins:"; sed 's/^/  /' "$DATA_DIR/demo-credentials.txt"
fi

export GATEWAY_SITE_DIR=${GATEWAY_SITE_DIR:-$root/web/dist}
export GATEWAY_MAIL_DIR=${GATEWAY_MAIL_DIR:-$DATA_DIR/mail}
export FILE_STORAGE_BACKEND_PATH=${FILE_STORAGE_BACKEND_PATH:-$DATA_DIR/storage}
export GATEWAY_HOST=${GATEWAY_HOST:-127.0.0.1}
"$GATEWAY_BIN" keys
echo "mail without SMTP is written to $GATEWAY_MAIL_DIR"
# In the background so a signal to this script alone still stops it (on_exit).
gateway_launch=${!:-none}
"$GATEWAY_BIN" serve &
gateway_pid=$!
# for the supervisor, should this script end without stopping it: the pid and its start time (none if it has ended)
gateway_started=$(sed 's/^.*) //' "/proc/$gateway_pid/stat" 2>/dev/null | cut -d' ' -f20 || true)
[ -z "$gateway_started" ] || echo "$gateway_pid $gateway_started" > "$DATA_DIR/run-gateway.pid"
# Polled, not a blocking `wait`: a trap's signal taken just before bash blocked there would wait with it until the
# gateway ended; between two polls bash runs a pending trap. Then `wait` only collects the exit status.
while gateway_alive; do sleep 0.5; done
wait "$gateway_pid" || status=$?
gateway_pid=
if [ "${status:-0}" != 0 ] && [ "${GATEWAY_ENV:-}" = production ]; then
  echo "(under make run, run those gateway commands as: make gateway ARGS=\"demo remove\", ARGS=\"keys rotate\", …)" >&2
fi
exit "${status:-0}"
