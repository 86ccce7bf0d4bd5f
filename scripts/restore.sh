#!/usr/bin/env bash
# `make restore`: rebuilds make run's stack from a `make backup` archive into a fresh data folder.
#   make restore BACKUP=file.tar.gz [DATA_DIR=.data]
# Creates the private cluster (DATA_DIR/pg, with pg_cron for the app database), restores the roles (with
# authenticator's password, whose file comes back beside the cluster), then the database with its signing keys,
# users, rows and pg_cron jobs, and the storage folder; then stops the cluster. `DATA_DIR=… make run` serves it:
# the same data, the same API keys (they are signed by the restored keys), sessions still valid.
# Refuses a DATA_DIR that already holds a cluster or stored objects: move it away first. To restore into your own
# database instead: psql -f roles.sql (as a superuser) and pg_restore --create -d postgres app.dump, from the archive.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd); cd "$root"
archive=${1:-${BACKUP:-}}
[ -n "$archive" ] && [ -f "$archive" ] || { echo "usage: make restore BACKUP=file.tar.gz [DATA_DIR=folder]" >&2; exit 2; }
archive=$(cd "$(dirname "$archive")" && pwd)/$(basename "$archive")
DATA_DIR=${DATA_DIR:-$root/.data}; mkdir -p "$DATA_DIR"; DATA_DIR=$(cd "$DATA_DIR" && pwd)
source scripts/lib/stack.sh
storage=${FILE_STORAGE_BACKEND_PATH:-$DATA_DIR/storage}
pgdir=$(stack_pg_dir)
if [ -f "$pgdir/data/PG_VERSION" ] || [ -n "$(ls -A "$storage" 2>/dev/null)" ]; then
  echo "$DATA_DIR already holds a stack ($pgdir or $storage): restore into a fresh folder (DATA_DIR=...)" >&2
  exit 1
fi

staging=$(mktemp -d)
started=
cleanup() {
  [ -z "$started" ] || scripts/pg-cluster.sh stop "$started" || true
  rm -rf "$staging"
}
trap cleanup EXIT
tar -C "$staging" -xzf "$archive"
grep -q '^format: gateway-backup 1$' "$staging/backup.txt" 2>/dev/null || { echo "$archive is not a make backup archive" >&2; exit 1; }
sed 's/^/  /' "$staging/backup.txt"

if [ "$pgdir" != "$DATA_DIR/pg" ]; then mkdir -p "$(dirname "$pgdir")"; chmod 755 /var/lib/gateway-run "$(dirname "$pgdir")"; fi
[ "$(id -u)" != 0 ] || chmod 755 "$DATA_DIR"
PG_CRON_DATABASE=app scripts/pg-cluster.sh start "$pgdir" ${PGPORT:-} >/dev/null
started=$pgdir
conn=(-h "$pgdir" -p "$(cat "$pgdir/port")" -U postgres)
# Roles first (the dump's owners and grants name them); the superuser exists already.
if [ -f "$staging/roles.sql" ]; then
  grep -v '^CREATE ROLE postgres;$' "$staging/roles.sql" | stack_as_owner psql -qX -v ON_ERROR_STOP=1 "${conn[@]}" -d postgres >/dev/null
fi
[ ! -f "$staging/authenticator_password" ] || cp "$staging/authenticator_password" "$pgdir/authenticator_password"
# (Files are read by this shell and piped: the archive's folder is private to this user.)
stack_as_owner "$PGBIN/pg_restore" "${conn[@]}" -d postgres --create --exit-on-error < "$staging/app.dump"

if [ -d "$staging/storage" ]; then mkdir -p "$storage"; cp -a "$staging/storage/." "$storage/"; fi
[ ! -f "$staging/demo-credentials.txt" ] || cp "$staging/demo-credentials.txt" "$DATA_DIR/"
counts=$(stack_as_owner psql -qAtX "${conn[@]}" -d app -c \
  "select (select count(*) from auth.users) || ' users, ' || (select count(*) from storage.objects) || ' objects, '
          || (select count(*) from gateway.signing_keys) || ' signing keys'")
echo "restored into $DATA_DIR: $counts; serve it with: DATA_DIR=$DATA_DIR make run"
