#!/usr/bin/env bash
# Private throwaway PostgreSQL cluster from the system's binaries (initdb/pg_ctl of /usr/lib/postgresql/15/bin).
#   scripts/pg-cluster.sh start DIR [PORT]   -> initdb DIR (if new), start it on PORT (default: a free port), print env
#   scripts/pg-cluster.sh stop DIR           -> stop it
#   scripts/pg-cluster.sh env DIR            -> print the env lines for a running cluster
#   scripts/pg-cluster.sh replica DIR PRIMARY_DIR [PORT]
#                                            -> a streaming standby of the running cluster PRIMARY_DIR in DIR (made by
#                                               `pg_basebackup -R` when new: hot standby, same roles and passwords),
#                                               started like `start`; `stop DIR` stops it
# The cluster listens on 127.0.0.1 only and keeps its socket inside DIR. Every role signs in with a password
# (SCRAM-SHA-256, no `trust`), so another OS user on the machine cannot connect; DIR is 0700 and its secrets 0600.
# It exists for tests and for `make run`'s embedded database, never for production (use DATABASE_URL there).
# wal_level=logical: the gateway's Realtime streams postgres_changes from a logical replication slot per instance;
# max_slot_wal_keep_size=1GB caps the WAL a slot left by a killed gateway can hold.
# Printed env: PGPORT, ADMIN_URL (superuser, with its password), AUTHENTICATOR_PASSWORD, and PGPASSFILE (a libpq
# password file for both roles: export it and `psql postgres://postgres@127.0.0.1:$PGPORT/db` needs no password).
# pg_cron (Debian's postgresql-15-cron), when installed, is loaded for scheduled jobs such as the nightly retention
# pass: PG_CRON_DATABASE names the one database whose jobs it runs (default postgres; make run passes its app
# database), and jobs run in background workers (no connection, no password).
set -euo pipefail
umask 077
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
cmd=${1:?start|stop|env|replica}; dir=${2:?data folder}
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
port_free() { # as PostgreSQL binds (SO_REUSEADDR): a closed server's lingering connections do not hold the port
  python3 -c 'import socket,sys; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen()' "$1" 2>/dev/null
}
new_secret() { head -c 32 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 32; }

print_env() {
  local port; port=$(cat "$dir/port")
  echo "PGPORT=$port"
  echo "ADMIN_URL=postgres://postgres:$(cat "$dir/superuser_password")@127.0.0.1:$port/postgres"
  echo "AUTHENTICATOR_PASSWORD=$(cat "$dir/authenticator_password")"
  echo "PGPASSFILE=$dir/pgpass"
}

# A new cluster: the superuser's password set by initdb, SCRAM for every connection (local socket and TCP).
init_cluster() {
  new_secret > "$dir/superuser_password"
  new_secret > "$dir/authenticator_password"
  cp "$dir/superuser_password" "$dir/pwfile.tmp"
  [ "$(id -u)" = 0 ] && chown postgres "$dir/pwfile.tmp"
  as_owner "$PGBIN/initdb" -D "$dir/data" -A scram-sha-256 --pwfile="$dir/pwfile.tmp" -U postgres --no-sync -E UTF8 \
    --locale=C.UTF-8 >/dev/null
  rm -f "$dir/pwfile.tmp"
}

# A cluster made by an older version of this script (`trust` for local users): give the superuser a password and
# switch every rule to SCRAM. Runs on a started server.
harden_old_cluster() {
  [ -f "$dir/superuser_password" ] && return 0
  new_secret > "$dir/superuser_password"
  as_owner "$PGBIN/psql" -qX -h "$dir" -p "$port" -U postgres -d postgres \
    -c "alter role postgres password '$(cat "$dir/superuser_password")'" >/dev/null
  as_owner sed -i -E 's/\b(trust|md5|password)\s*$/scram-sha-256/' "$dir/data/pg_hba.conf"
  as_owner "$PGBIN/pg_ctl" -D "$dir/data" reload >/dev/null
}

write_passfile() {
  printf '*:%s:*:postgres:%s\n*:%s:*:authenticator:%s\n' "$port" "$(cat "$dir/superuser_password")" \
    "$port" "$(cat "$dir/authenticator_password")" > "$dir/pgpass"
  chmod 600 "$dir"/pgpass "$dir"/*_password
}

# A standby of the cluster in $primary: a base backup streamed with its WAL, `-R` writing standby.signal and
# primary_conninfo (which reads the superuser's password from a password file the standby's owner can read).
init_standby() {
  local primary_port; primary_port=$(cat "$primary/port")
  cp "$primary/superuser_password" "$primary/authenticator_password" "$dir/"
  printf '*:%s:*:postgres:%s\n' "$primary_port" "$(cat "$dir/superuser_password")" > "$dir/replication.pgpass"
  chmod 600 "$dir/replication.pgpass"
  [ "$(id -u)" = 0 ] && chown postgres "$dir/replication.pgpass"
  as_owner env PGPASSFILE="$dir/replication.pgpass" "$PGBIN/pg_basebackup" -D "$dir/data" -R -X stream -c fast \
    -h 127.0.0.1 -p "$primary_port" -U postgres >/dev/null
}

want_port=${3:-}
case "$cmd" in
  replica)
    primary=$(cd "${3:?primary cluster folder}" && pwd); want_port=${4:-}
    ensure_binaries
    chmod 700 "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    [ -f "$dir/data/PG_VERSION" ] || init_standby
    ;&
  start)
    ensure_binaries
    chmod 700 "$dir"
    if [ "$(id -u)" = 0 ]; then
      chown postgres "$dir"
      runuser -u postgres -- test -x "$dir" || { echo "$dir is not reachable by the postgres user; use a folder whose parents are world-searchable" >&2; exit 1; }
    fi
    [ -f "$dir/data/PG_VERSION" ] || init_cluster
    if as_owner "$PGBIN/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
      port=$(cat "$dir/port")
    else
      # the given port, else the one used before while it is free (another checkout may hold it now), else any
      port=$want_port
      saved=$(cat "$dir/port" 2>/dev/null || true)
      [ -n "$port" ] || { [ -n "$saved" ] && port_free "$saved" && port=$saved; } || port=$(free_port)
      echo "$port" > "$dir/port"
      as_owner "$PGBIN/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=${PG_FSYNC:-on} -c unix_socket_permissions=0700 -c wal_level=logical -c max_wal_senders=30 -c max_replication_slots=30 -c max_slot_wal_keep_size=1GB $(pg_cron_options)" \
        start >/dev/null
    fi
    harden_old_cluster
    write_passfile
    print_env
    ;;
  stop)
    as_owner "$PGBIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    ;;
  env) port=$(cat "$dir/port"); print_env ;;
  *) echo "usage: $0 start|stop|env DIR [PORT] | replica DIR PRIMARY_DIR [PORT]" >&2; exit 2 ;;
esac
