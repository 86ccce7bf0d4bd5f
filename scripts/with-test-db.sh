#!/usr/bin/env bash
# Runs a command against a private throwaway PostgreSQL cluster with the platform and app migrations applied to a
# template database, then removes the cluster. Roles are cluster-wide, so every run gets its own cluster.
#   scripts/with-test-db.sh COMMAND [ARGS...]
# The command sees: TEST_ADMIN_URL (superuser with its password, database postgres), TEST_PGPORT, TEST_TEMPLATE_DB
# (migrated), TEST_AUTHENTICATOR_PASSWORD, PGPASSFILE (so `postgres://postgres@127.0.0.1:$TEST_PGPORT/db` works for
# psql and the gateway's commands), and GATEWAY_BIN (the gateway binary used to migrate).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
GATEWAY_BIN=${GATEWAY_BIN:-$root/target/debug/gateway}
[ -x "$GATEWAY_BIN" ] || (cd "$root" && cargo build -q -p gateway --bin gateway)
# Under /tmp so the postgres user can reach it wherever the checkout lives.
tmp=$(mktemp -d /tmp/gateway-test-XXXXXX); chmod 755 "$tmp"
cleanup() { "$root/scripts/pg-cluster.sh" stop "$tmp/pg" || true; rm -rf "$tmp"; }
trap cleanup EXIT
eval "$(PG_FSYNC=off "$root/scripts/pg-cluster.sh" start "$tmp/pg")"
# Every role needs its password (scripts/pg-cluster.sh): libpq clients (psql, pg_prove, node's pg) and the gateway's
# owner commands find it in PGPASSFILE; TEST_ADMIN_URL carries it for other clients.
export PGPASSFILE
admin="postgres://postgres@127.0.0.1:$PGPORT"
psql -q "$admin/postgres" -v ON_ERROR_STOP=1 -c "create database gateway_template" >/dev/null
GATEWAY_ADMIN_DB_URI="$admin/gateway_template" GATEWAY_MIGRATIONS_DIR="${GATEWAY_MIGRATIONS_DIR:-$root/sql/migrations}" \
  "$GATEWAY_BIN" migrate >/dev/null
psql -q "$admin/postgres" -v ON_ERROR_STOP=1 -c "alter role authenticator password '$AUTHENTICATOR_PASSWORD'" >/dev/null
export TEST_ADMIN_URL="$ADMIN_URL" TEST_PGPORT="$PGPORT" TEST_TEMPLATE_DB=gateway_template \
  TEST_AUTHENTICATOR_PASSWORD="$AUTHENTICATOR_PASSWORD" GATEWAY_BIN
set +e
"$@"
rc=$?
set -e
exit $rc
