# Sourced by the operator scripts (make admin, make job-alerts, make broadbean-credentials): sets `db` to an owner
# connection string — GATEWAY_ADMIN_DB_URI when set, else `make run`'s private cluster (DATA_DIR, default .data;
# started for the moment if it is not running, and stopped again on exit). Needs `root` (the repository) set.
command -v psql >/dev/null || { echo "psql is needed (Debian: apt-get install postgresql-client)" >&2; exit 1; }
stop_cluster=
if [ -n "${GATEWAY_ADMIN_DB_URI:-}" ]; then
  db=$GATEWAY_ADMIN_DB_URI
else
  DATA_DIR=${DATA_DIR:-$root/.data}
  pgdir=$DATA_DIR/pg
  if [ "$(id -u)" = 0 ] && [ -d "$DATA_DIR" ] && ! runuser -u postgres -- test -x "$DATA_DIR" 2>/dev/null; then
    pgdir=/var/lib/gateway-run/$(printf %s "$root" | sha1sum | cut -c1-12)/pg   # as scripts/run.sh chooses it
  fi
  [ -f "$pgdir/data/PG_VERSION" ] || { echo "no database: set GATEWAY_ADMIN_DB_URI, or run \`make run\` once first" >&2; exit 1; }
  running=$([ -f "$pgdir/data/postmaster.pid" ] && echo yes || echo no)
  eval "$("$root/scripts/pg-cluster.sh" start "$pgdir" "${PGPORT:-}")"
  export PGPASSFILE  # the private cluster signs every role in with its password (SCRAM)
  [ "$running" = yes ] || stop_cluster=$pgdir
  db="postgres://postgres@127.0.0.1:$PGPORT/app"
fi
owner_db_cleanup() { [ -z "$stop_cluster" ] || "$root/scripts/pg-cluster.sh" stop "$stop_cluster"; }
trap owner_db_cleanup EXIT
