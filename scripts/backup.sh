#!/usr/bin/env bash
# `make backup`: one archive of make run's stack, taken while it runs or not.
#   make backup [BACKUP=file.tar.gz] [DATA_DIR=.data]        (default backups/gateway-<UTC time>.tar.gz)
# The archive holds:
#   app.dump      pg_dump of the database (custom format, --create): every schema and row, including the JWT signing
#                 keys (gateway.signing_keys), auth users and sessions, storage.objects, the outbox and pg_cron's jobs
#   roles.sql     pg_dumpall --roles-only: the API roles and authenticator with its password hash
#   storage/      the storage folder (FILE_STORAGE_BACKEND_PATH, default DATA_DIR/storage): the object files
#   authenticator_password, demo-credentials.txt   the private cluster's pool password file, the demo logins
#   backup.txt    what was backed up, when, from where
# The database is dumped first (one consistent snapshot), then the files: an object uploaded in between is an extra
# file without a row (harmless); one deleted in between is missing — stop the gateway for an exact copy.
# Not included: environment variables (SMTP, a legacy JWT secret, GOTRUE_JWT_KEYS), the S3 backend's objects, and
# the mail folder of .eml files. The archive contains password hashes and private signing keys: it is written
# mode 600; keep it like a secret.
# With DATABASE_URL (your own database) it dumps GATEWAY_ADMIN_DB_URI's database and, when that user may read them,
# the roles; there is no private cluster password file then.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd); cd "$root"
DATA_DIR=${DATA_DIR:-$root/.data}; DATA_DIR=$(cd "$DATA_DIR" 2>/dev/null && pwd) || { echo "no stack at ${DATA_DIR}" >&2; exit 1; }
source scripts/lib/stack.sh
storage=${FILE_STORAGE_BACKEND_PATH:-$DATA_DIR/storage}
out=${BACKUP:-$root/backups/gateway-$(date -u +%Y%m%dT%H%M%SZ).tar.gz}
mkdir -p "$(dirname "$out")"; out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")

staging=$(mktemp -d); chmod 700 "$staging"
started=
cleanup() {
  [ -z "$started" ] || scripts/pg-cluster.sh stop "$started" || true
  rm -rf "$staging"
}
trap cleanup EXIT

if [ -z "${DATABASE_URL:-${PGRST_DB_URI:-}}" ]; then
  pgdir=$(stack_pg_dir)
  [ -f "$pgdir/data/PG_VERSION" ] || { echo "no database cluster at $pgdir: nothing to back up" >&2; exit 1; }
  if ! stack_running "$pgdir"; then
    PG_CRON_DATABASE=app scripts/pg-cluster.sh start "$pgdir" >/dev/null
    started=$pgdir
  fi
  conn=(-h "$pgdir" -p "$(cat "$pgdir/port")" -U postgres)
  stack_as_owner "$PGBIN/pg_dump" "${conn[@]}" -d app -Fc --create > "$staging/app.dump"
  stack_as_owner "$PGBIN/pg_dumpall" "${conn[@]}" --roles-only > "$staging/roles.sql"
  cp "$pgdir/authenticator_password" "$staging/"
  database="app (private cluster $pgdir)"
else
  : "${GATEWAY_ADMIN_DB_URI:?set GATEWAY_ADMIN_DB_URI (the owner connection) to back up your own database}"
  "$PGBIN/pg_dump" -d "$GATEWAY_ADMIN_DB_URI" -Fc --create > "$staging/app.dump"
  "$PGBIN/pg_dumpall" -d "$GATEWAY_ADMIN_DB_URI" --roles-only > "$staging/roles.sql" 2>/dev/null \
    || { echo "note: the roles were not dumped (needs a superuser); recreate them with gateway migrate" >&2; rm -f "$staging/roles.sql"; }
  database="GATEWAY_ADMIN_DB_URI's database"
fi

if [ -d "$storage" ]; then tar -C "$(dirname "$storage")" -cf - "$(basename "$storage")" | tar -C "$staging" -xf -; fi
[ "$(basename "$storage")" = storage ] || [ ! -d "$staging/$(basename "$storage")" ] || mv "$staging/$(basename "$storage")" "$staging/storage"
[ ! -f "$DATA_DIR/demo-credentials.txt" ] || cp "$DATA_DIR/demo-credentials.txt" "$staging/"
files=$(find "$staging/storage" -type f 2>/dev/null | wc -l)
{
  echo "format: gateway-backup 1"
  echo "created: $(date -u +%FT%TZ)"
  echo "database: $database"
  echo "server: $(stack_as_owner "$PGBIN/postgres" --version 2>/dev/null || true)"
  echo "storage files: $files (from $storage)"
} > "$staging/backup.txt"

umask 077
tar -C "$staging" -czf "$out.partial" .
mv "$out.partial" "$out"
echo "backup written to $out ($(du -h "$out" | cut -f1); database dump, roles, $files storage files)"
