#!/usr/bin/env bash
# Runs postgrest-js's own server-backed jest suite (from a checkout of supabase/supabase-js) against the gateway.
#   tests/conformance/postgrest-js.sh PATH-TO-SUPABASE-JS-CHECKOUT [FILE-FILTER...]
# FILE-FILTER: run only test files whose name contains one of these words (the suite is stateful: later files expect
# earlier files' writes, so a partial run can differ from a full one).
#
# It starts a private throwaway PostgreSQL cluster, loads the fixtures into a fresh database (platform schema via
# `gateway migrate`, tests/conformance/postgrest-js-bootstrap.sql, the checkout's test/supabase/migrations/*.sql and
# seed.sql), serves the gateway on 127.0.0.1:54321 (the URL the tests hard-code) with the settings the fixtures ask
# for, runs `jest --ci --runInBand` (never -u) over the server test files in alphabetical order, and prints
# `file: N passed, N failed` per file and a closing `N passed, N failed`. Exit status 0 only when nothing failed.
#
# Nothing third-party is copied into the repository: jest and friends are installed into an ignored scratch folder
# (POSTGREST_JS_WORK, default tests/.tmp/postgrest-js), and the package is copied there for each run.
# Env: GATEWAY_BIN (skip the cargo build), POSTGREST_JS_WORK, RUST_LOG (gateway log level, default info),
# POSTGREST_JS_PORT (default 54321; another port rewrites the URL in the run's copy of the tests, so two runs can
# share a machine).
# Logs of the last run (gateway.log, jest.log, results.json) stay in $POSTGREST_JS_WORK/last/.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
port=${POSTGREST_JS_PORT:-54321}

die() { echo "postgrest-js.sh: $*" >&2; exit 2; }
[ $# -ge 1 ] || die "usage: $0 PATH-TO-SUPABASE-JS-CHECKOUT [FILE-FILTER...]"
checkout=$(cd "$1" 2>/dev/null && pwd) || die "no such folder: $1"
shift
filters=("$@")
pkg_src=$checkout/packages/core/postgrest-js
[ -d "$pkg_src/test/supabase/migrations" ] && [ -f "$pkg_src/test/supabase/seed.sql" ] \
  || die "$checkout is not a supabase/supabase-js checkout (no packages/core/postgrest-js/test/supabase)"
[ -f "$checkout/tsconfig.base.json" ] || die "$checkout has no tsconfig.base.json"

# The tests hard-code http://localhost:54321: refuse to run next to something else on that port.
if ss -Hltn "sport = :$port" 2>/dev/null | grep -q .; then
  die "port $port is busy (another gateway or Supabase stack?): $(ss -Hltnp "sport = :$port" | head -n 1)"
fi

# PostGIS: the fixtures create the extension (shops.location).
if [ ! -f /usr/share/postgresql/15/extension/postgis.control ]; then
  echo "installing PostGIS (postgresql-15-postgis-3)..." >&2
  sudo_cmd=(); [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq postgresql-15-postgis-3 >&2
fi

# The gateway binary (debug build; the other suites use the same one).
if [ -z "${GATEWAY_BIN:-}" ]; then
  (cd "$root" && cargo build -q -p gateway --bin gateway) || die "cargo build failed"
  GATEWAY_BIN=${CARGO_TARGET_DIR:-$root/target}/debug/gateway
fi
[ -x "$GATEWAY_BIN" ] || die "no gateway binary at $GATEWAY_BIN"

# Scratch folder: cached node_modules for jest, and a fresh copy of the package per run.
work=${POSTGREST_JS_WORK:-$root/tests/.tmp/postgrest-js}
mkdir -p "$work"; work=$(cd "$work" && pwd)
deps=$work/deps
mkdir -p "$deps"
want_pkg='{
  "name": "postgrest-js-conformance-runner",
  "private": true,
  "description": "jest and the test-time dependencies of @supabase/postgrest-js (the monorepo pins them with pnpm catalog:)",
  "devDependencies": {
    "@jest/test-sequencer": "^30.0.0",
    "@jest/types": "^30.0.0",
    "@types/jest": "30.0.0",
    "@types/node": "20.19.9",
    "jest": "30.4.2",
    "prettier": "^3.6.2",
    "ts-jest": "^29.4.9",
    "tslib": "2.8.1",
    "type-fest": "^4.32.0",
    "typescript": "~5.8.3",
    "zod": "^3.25.76"
  }
}'
if [ "$(cat "$deps/package.json" 2>/dev/null)" != "$want_pkg" ] || [ ! -x "$deps/node_modules/.bin/jest" ]; then
  echo "installing jest, ts-jest and typescript into $deps ..." >&2
  printf '%s\n' "$want_pkg" > "$deps/package.json"
  rm -rf "$deps/node_modules" "$deps/package-lock.json"
  (cd "$deps" && npm install --no-audit --no-fund --loglevel=error >&2) || die "npm install failed"
fi

run=$(mktemp -d "$work/run-XXXXXX"); chmod 755 "$work" "$run"
gateway_pid=
cleanup() {
  local rc=$?
  if [ -n "$gateway_pid" ] && kill -0 "$gateway_pid" 2>/dev/null; then
    kill "$gateway_pid" 2>/dev/null || true
    wait "$gateway_pid" 2>/dev/null || true
  fi
  "$root/scripts/pg-cluster.sh" stop "$run/pg" || true
  rm -rf "$work/last"; mkdir -p "$work/last"
  cp "$run"/*.log "$run"/results.json "$work/last/" 2>/dev/null || true
  rm -rf "$run"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Cluster and database.
eval "$(PG_FSYNC=off "$root/scripts/pg-cluster.sh" start "$run/pg")"; export PGPASSFILE  # every role signs in with a password
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

# A fresh copy of the package for this run (its tests import ../src, compiled by ts-jest), with the cached
# node_modules linked beside it.
tree=$run/tree
mkdir -p "$tree/packages/core"
ln -s "$deps/node_modules" "$tree/node_modules"
cp "$checkout/tsconfig.base.json" "$tree/"
tar -C "$checkout/packages/core" --exclude=node_modules --exclude=dist -cf - postgrest-js | tar -C "$tree/packages/core" -xf -
pkg=$tree/packages/core/postgrest-js
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
(cd "$pkg" && node "$deps/node_modules/jest/bin/jest.js" --config jest.runner.config.cjs --ci --runInBand \
  --json --outputFile="$run/results.json" "${files[@]/#/$pkg/}") >"$run/jest.log" 2>&1
set -e
[ -s "$run/results.json" ] || { tail -n 50 "$run/jest.log" >&2; die "jest produced no results"; }

echo "logs (after exit): $work/last/{gateway.log,jest.log,results.json}"
status=0
node - "$run/results.json" <<'EOF' || status=$?
const r = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));
let passed = 0, failed = 0;
for (const t of [...r.testResults].sort((a, b) => a.name.localeCompare(b.name))) {
  const name = require('path').basename(t.name);
  const p = t.assertionResults.filter((a) => a.status === 'passed').length;
  let f = t.assertionResults.filter((a) => a.status === 'failed').length;
  let note = '';
  if (t.assertionResults.length === 0 && t.status === 'failed') {
    f = 1; // the file did not run at all (compile error, crash)
    note = ` (suite error: ${(t.message || '').split('\n').find((l) => l.trim()) || 'unknown'})`;
  }
  passed += p; failed += f;
  console.log(`${name}: ${p} passed, ${f} failed${note}`);
  for (const a of t.assertionResults.filter((a) => a.status === 'failed')) console.log(`  ✖ ${a.fullName}`);
}
console.log(`SUITE-COUNTS passed=${passed} failed=${failed}`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
EOF
exit $status
