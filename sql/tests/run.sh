#!/usr/bin/env bash
# Runs the pgTAP files sql/tests/NN-*.sql against a fresh copy of the migrated template database and prints
# `N passed, N failed` (and `SUITE-COUNTS passed=N failed=M` for scripts/test-all.sh).
#   sql/tests/run.sh [FILE...]        (starts its own throwaway cluster through scripts/with-test-db.sh)
# Needs pg_prove (package postgresql-15-pgtap, installed here when missing).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

if ! command -v pg_prove >/dev/null || [ ! -f /usr/share/postgresql/15/extension/pgtap.control ]; then
  echo "installing pgTAP (postgresql-15-pgtap)..." >&2
  if [ "$(id -u)" = 0 ]; then apt-get install -y -qq postgresql-15-pgtap >&2 || { apt-get update -qq >&2 && apt-get install -y -qq postgresql-15-pgtap >&2; }
  else sudo apt-get install -y -qq postgresql-15-pgtap >&2 || { sudo apt-get update -qq >&2 && sudo apt-get install -y -qq postgresql-15-pgtap >&2; }; fi
fi

if [ -z "${TEST_ADMIN_URL:-}" ]; then
  exec scripts/with-test-db.sh "$0" "$@"
fi

files=("$@")
[ ${#files[@]} -gt 0 ] || files=(sql/tests/[0-9][0-9]-*.sql)
db="sqltap_$$"
psql -qX -v ON_ERROR_STOP=1 "$TEST_ADMIN_URL" -c "create database $db template $TEST_TEMPLATE_DB" >/dev/null
psql -qX -v ON_ERROR_STOP=1 "postgres://postgres@127.0.0.1:$TEST_PGPORT/$db" -c "create extension if not exists pgtap" >/dev/null

out=$(mktemp)
set +e
pg_prove --verbose -h 127.0.0.1 -p "$TEST_PGPORT" -U postgres -d "$db" "${files[@]}" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
set -e
passed=$(grep -cE '^ *ok [0-9]+' "$out" || true)
failed=$(grep -cE '^ *not ok [0-9]+' "$out" || true)
# A file that died or planned wrong counts as a failure even when no single test said "not ok".
if [ "$rc" != 0 ] && [ "$failed" = 0 ]; then failed=1; fi
rm -f "$out"
psql -qX "$TEST_ADMIN_URL" -c "drop database if exists $db" >/dev/null || true
echo "SUITE-COUNTS passed=$passed failed=$failed"
echo "$passed passed, $failed failed"
[ "$rc" = 0 ]
