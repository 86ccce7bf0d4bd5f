#!/usr/bin/env bash
# Private throwaway PostgreSQL cluster from the system's binaries (initdb/pg_ctl of /usr/lib/postgresql/15/bin).
#   scripts/pg-cluster.sh start DIR [PORT]   -> initdb DIR (if new), start it on PORT (default: a free port), print env
#   scripts/pg-cluster.sh stop DIR           -> stop it
#   scripts/pg-cluster.sh env DIR            -> print the env lines for a running cluster
# The cluster listens on 127.0.0.1 only, keeps its socket inside DIR, and trusts local connections except the pool
# user `authenticator`, which signs in with its password (SCRAM-SHA-256) over TCP: it exists for tests and for
# `make run`'s embedded database, never for production (use DATABASE_URL there).
# wal_level=logical: the gateway's Realtime streams postgres_changes from a temporary logical replication slot.
# Printed env: PGPORT, ADMIN_URL (superuser), AUTHENTICATOR_PASSWORD.
# pg_cron (Debian's postgresql-15-cron), when installed, is loaded for scheduled jobs such as the nightly retention
# pass: PG_CRON_DATABASE names the one database whose jobs it runs (default postgres; make run passes its app
# database), and jobs run in background workers (no connection, no password).
set -euo pipefail
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
cmd=${1:?start|stop|env}; dir=${2:?data folder}
mkdir -p "$dir"; dir=$(cd "$dir" && pwd)

as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

ensure_binaries() {
  if [ ! -x "$PGBIN/initdb" ]; then
    echo "installing PostgreSQL (postgresql package)..." >&2
    if [ "$(id -u)" = 0 ]; then apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
    else sudo apt-get update -qq >&2 && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2; fi
  fi
}

pg_cron_options() {
  [ -f "$PGBIN/../lib/pg_cron.so" ] || return 0
  echo "-c shared_preload_libraries=pg_cron -c cron.database_name=${PG_CRON_DATABASE:-postgres} -c cron.use_background_workers=on"
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

print_env() {
  local port; port=$(cat "$dir/port")
  echo "PGPORT=$port"
  echo "ADMIN_URL=postgres://postgres@127.0.0.1:$port/postgres"
  echo "AUTHENTICATOR_PASSWORD=$(cat "$dir/authenticator_password")"
}

case "$cmd" in
  start)
    ensure_binaries
    if [ "$(id -u)" = 0 ]; then
      chown postgres "$dir"
      runuser -u postgres -- test -x "$dir" || { echo "$dir is not reachable by the postgres user; use a folder whose parents are world-searchable" >&2; exit 1; }
    fi
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      as_owner "$PGBIN/initdb" -D "$dir/data" -A trust -U postgres --no-sync -E UTF8 --locale=C.UTF-8 >/dev/null
      # The pool user signs in with its password (SCRAM), as on a real server, so the gateway's clients prove they can.
      { printf 'host all authenticator 127.0.0.1/32 scram-sha-256\nhost all authenticator ::1/128 scram-sha-256\n'
        cat "$dir/data/pg_hba.conf"; } > "$dir/pg_hba.new" && as_owner cp "$dir/pg_hba.new" "$dir/data/pg_hba.conf" && rm -f "$dir/pg_hba.new"
      head -c 24 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' > "$dir/authenticator_password"
    fi
    port=${3:-$(cat "$dir/port" 2>/dev/null || free_port)}
    echo "$port" > "$dir/port"
    if ! as_owner "$PGBIN/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
      as_owner "$PGBIN/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=${PG_FSYNC:-on} -c wal_level=logical -c max_wal_senders=30 -c max_replication_slots=30 $(pg_cron_options)" start >/dev/null
    fi
    print_env
    ;;
  stop)
    as_owner "$PGBIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    ;;
  env) print_env ;;
  *) echo "usage: $0 start|stop|env DIR [PORT]" >&2; exit 2 ;;
esac
