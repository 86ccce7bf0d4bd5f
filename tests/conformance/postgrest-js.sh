#!/usr/bin/env bash
# Runs postgrest-js's own server-backed jest suite (from the supabase-js snapshot) against the gateway.
#   tests/conformance/postgrest-js.sh [PATH-TO-SUPABASE-JS] [FILE-FILTER...]
#     (default ../shared/conformance/supabase-js; FILE-FILTER needs the path too)
# FILE-FILTER: run only test files whose name contains one of these words (the suite is stateful: later files expect
# earlier files' writes, so a partial run can differ from a full one; its count is not held to the baseline).
#
# It starts a private throwaway PostgreSQL cluster, loads the fixtures into a fresh database (platform schema via
# `gateway migrate`, tests/conformance/postgrest-js-bootstrap.sql, the snapshot's test/supabase/migrations/*.sql and
# seed.sql), serves the gateway on 127.0.0.1:54321 (the URL the tests hard-code) with the settings the fixtures ask
# for, runs `jest --ci --runInBand` (never -u) over the server test files in alphabetical order, and prints
# `file: N passed, N failed` per file and a closing `N passed, N failed`. Exit status 0 only when nothing failed
# that tests/conformance/known-failures.txt does not list.
#
# Nothing third-party is copied into the repository: the package is copied from the read-only snapshot to a scratch
# folder under tests/.tmp/conformance for each run, with the jest toolchain of tests/conformance/package-lock.json.
# As root it runs in a private network namespace, so port 54321 never meets another suite or a dev gateway.
# Env: GATEWAY_BIN (skip the cargo build), RUST_LOG (gateway log level, default info), POSTGREST_JS_PORT (default
# 54321; another port rewrites the URL in the run's copy of the tests, for machines without namespaces).
# Logs of the last run (gateway.log, jest.log, results.json) stay in tests/.tmp/conformance/postgrest-js-last/.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/conformance/lib.sh"
port=${POSTGREST_JS_PORT:-54321}

die() { echo "postgrest-js.sh: $*" >&2; exit 2; }
given=${1:-$(conformance_default_checkout)}
[ -n "$given" ] || die "usage: $0 PATH-TO-SUPABASE-JS [FILE-FILTER...] (no snapshot found)"
checkout=$(cd "$given" 2>/dev/null && pwd) || die "no such folder: $given"
shift || true
filters=("$@")
[ ${#filters[@]} -eq 0 ] || export CONFORMANCE_PARTIAL=1
pkg_src=$checkout/packages/core/postgrest-js
[ -d "$pkg_src/test/supabase/migrations" ] && [ -f "$pkg_src/test/supabase/seed.sql" ] \
  || die "$checkout is not a supabase/supabase-js checkout (no packages/core/postgrest-js/test/supabase)"
[ -f "$checkout/tsconfig.base.json" ] || die "$checkout has no tsconfig.base.json"

# PostGIS: the fixtures create the extension (shops.location).
if [ ! -f /usr/share/postgresql/15/extension/postgis.control ]; then
  echo "installing PostGIS (postgresql-15-postgis-3)..." >&2
  sudo_cmd=(); [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq postgresql-15-postgis-3 >&2
fi

# The toolchain, the gateway binary (debug build; the other suites use the same one), then a private namespace (the
# tests hard-code http://localhost:54321), or a refusal to run next to something on that port.
CONFORMANCE_PORT=$port conformance_prepare "$0" "$checkout" "${filters[@]}" || die "cannot prepare (npm, cargo) or isolate port $port"
[ -x "$GATEWAY_BIN" ] || die "no gateway binary at $GATEWAY_BIN"

# A fresh copy of the package for this run (its tests import ../src, compiled by ts-jest), with the shared
# node_modules linked beside it; the cluster's folder and the logs live beside it.
pkg=$(conformance_scratch "$checkout" postgrest-js) || die "cannot copy the package"
conformance_transpile_only "$pkg"
run=${pkg%/packages/core/*}
gateway_pid=
cleanup() {
  local rc=$?
  if [ -n "$gateway_pid" ] && kill -0 "$gateway_pid" 2>/dev/null; then
    kill "$gateway_pid" 2>/dev/null || true
    wait "$gateway_pid" 2>/dev/null || true
  fi
  "$root/scripts/pg-cluster.sh" stop "$run/pg" || true
  cp "$run"/*.log "$run"/results.json "$pkg/" 2>/dev/null || true
  conformance_finish postgrest-js "$pkg" gateway.log jest.log migrate.log results.json
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Cluster and database.
eval "$(PG_FSYNC=off "$root/scripts/pg-cluster.sh" start "$run/pg")"
db=pgjs_suite
admin="postgres://postgres@127.0.0.1:$PGPORT"
psql_admin() { psql -qX -v ON_ERROR_STOP=1 "$@" >/dev/null; }
psql_admin "$admin/postgres" -c "create database $db"
# The suite was written against Supabase's PostgreSQL image, whose non-default server setting an EXPLAIN (SETTINGS)
# snapshot in transforms.test.ts records: effective_cache_size 128MB. The same server setting here; nothing about
# the gateway changes.
psql_admin "$admin/postgres" -c "alter system set effective_cache_size = '128MB'" -c "select pg_reload_conf()"
mkdir -p "$run/no-app-migrations"
GATEWAY_ADMIN_DB_URI="$admin/$db" GATEWAY_MIGRATIONS_DIR="$run/no-app-migrations" "$GATEWAY_BIN" migrate >"$run/migrate.log" 2>&1 \
  || { cat "$run/migrate.log" >&2; die "gateway migrate failed"; }
psql_admin "$admin/postgres" -c "alter role authenticator password '$AUTHENTICATOR_PASSWORD'"
psql_admin "$admin/$db" -f "$root/tests/conformance/postgrest-js-bootstrap.sql"
for f in "$pkg_src"/test/supabase/migrations/*.sql "$pkg_src/test/supabase/seed.sql"; do
  psql_admin "$admin/$db" -f "$f" 2> >(grep -v NOTICE >&2) || die "loading $f failed"
done
users=$(PGPASSWORD=$AUTHENTICATOR_PASSWORD psql -qAtX -h 127.0.0.1 -p "$PGPORT" -U authenticator -d "$db" \
  -c 'set role anon' -c 'select count(*) from public.users')
[ "$users" = 5 ] || die "fixtures did not load as expected: anon sees $users users (want 5)"

# The gateway, configured like the Supabase CLI stack of test/supabase/config.toml and the fixture's
# `alter role authenticator set pgrst.*` lines.
env DATABASE_URL="postgres://authenticator:$AUTHENTICATOR_PASSWORD@127.0.0.1:$PGPORT/$db" \
  GATEWAY_ADMIN_DB_URI="$admin/$db" GATEWAY_MIGRATIONS_DIR="$run/no-app-migrations" \
  GATEWAY_HOST=127.0.0.1 PORT=$port \
  PGRST_DB_ANON_ROLE=anon PGRST_DB_SCHEMAS=public,personal PGRST_DB_EXTRA_SEARCH_PATH=public,extensions \
  PGRST_DB_MAX_ROWS=1000 PGRST_DB_AGGREGATES_ENABLED=true PGRST_DB_PLAN_ENABLED=true \
  PGRST_DB_TX_END=commit-allow-override RUST_LOG="${RUST_LOG:-info}" \
  "$GATEWAY_BIN" serve >"$run/gateway.log" 2>&1 &
gateway_pid=$!
for _ in $(seq 1 300); do
  grep -q 'listening on' "$run/gateway.log" && break
  kill -0 "$gateway_pid" 2>/dev/null || { cat "$run/gateway.log" >&2; die "the gateway exited during start"; }
  sleep 0.1
done
grep -q 'listening on' "$run/gateway.log" || { cat "$run/gateway.log" >&2; die "the gateway did not start in 30 s"; }

if [ "$port" != 54321 ]; then
  sed -i "s#localhost:54321#localhost:$port#g; s#127.0.0.1:54321#127.0.0.1:$port#g" "$pkg"/test/*.ts
fi
cat > "$pkg/jest.runner.config.cjs" <<'EOF'
// The package's jest.config.ts without ts-node: same preset, sequencer (alphabetical), worker count and timeout.
const path = require('path');
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  maxWorkers: 1,
  testSequencer: path.join(__dirname, 'test/testSequencer.js'),
  prettierPath: require.resolve('prettier'),
  testTimeout: 30000,
  transform: { '^.+\\.tsx?$': ['ts-jest', { tsconfig: path.join(__dirname, 'tsconfig.test.json') }] },
  testPathIgnorePatterns: ['/node_modules/', '/test/v12/'],
};
EOF

# The server-backed test files (those that talk to port 54321), alphabetically.
mapfile -t files < <(cd "$pkg" && grep -l "localhost:$port\|127.0.0.1:$port" test/*.test.ts | LC_ALL=C sort)
if [ ${#filters[@]} -gt 0 ]; then
  selected=()
  for f in "${files[@]}"; do
    for w in "${filters[@]}"; do [[ "$(basename "$f")" == *"$w"* ]] && { selected+=("$f"); break; }; done
  done
  files=("${selected[@]}")
fi
[ ${#files[@]} -gt 0 ] || die "no test files selected"
echo "running ${#files[@]} postgrest-js test files against the gateway on 127.0.0.1:$port ..."

set +e
(cd "$pkg" && node node_modules/jest/bin/jest.js --config jest.runner.config.cjs --ci --runInBand \
  --json --outputFile="$run/results.json" "${files[@]/#/$pkg/}") >"$run/jest.log" 2>&1
set -e
[ -s "$run/results.json" ] || { tail -n 50 "$run/jest.log" >&2; die "jest produced no results"; }

echo "logs (after exit): $conformance_tmp/postgrest-js-last/{gateway.log,jest.log,results.json}"
conformance_verdict postgrest-js "$run/results.json"
