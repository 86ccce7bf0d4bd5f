#!/usr/bin/env bash
# Runs supabase/storage-js's own integration tests (bucket, object and file API files; vector, analytics and
# iceberg files are skipped) against the gateway at 127.0.0.1:54321/storage/v1, as the Supabase CLI serves it:
# the CLI's demo JWT secret is the legacy HS256 secret, so the tests' demo service key verifies, and the tests'
# seed (test/supabase/seed.sql) is loaded first. The third-party tests run from their own checkout (copied to a
# scratch folder, never committed). Ends with `N passed, N failed`.
#   tests/conformance/storage-js.sh [PATH-TO-storage-js]   (default /work/ext/supabase-js/packages/core/storage-js)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
pkg=$(cd "${1:-/work/ext/supabase-js/packages/core/storage-js}" && pwd)
repo=$(cd "$pkg/../../.." && pwd)
files=(test/storageApi.test.ts test/storageBucketApi.test.ts test/storageFileApi.test.ts test/storageFileApiNode.test.ts)

# The jest toolchain the package declares (versions from the monorepo's catalog), cached outside the checkout.
deps="$root/tests/.tmp/storage-js-deps"
if [ ! -x "$deps/node_modules/.bin/jest" ]; then
  mkdir -p "$deps"
  (cd "$deps" && [ -f package.json ] || echo '{"private":true}' > package.json
   npm install --no-audit --no-fund --loglevel=error jest@30.4.2 ts-jest@29 typescript@5.8 @types/jest@30.0.0 \
     @types/node@20.19.9 iceberg-js@0.8 tslib@2.8.1 >/dev/null)
fi

# A scratch copy of the package (jest writes snapshots and caches; the checkout stays untouched).
work=$(mktemp -d "${TMPDIR:-/tmp}/storage-js-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/packages/core"
cp "$repo/tsconfig.base.json" "$work/" 2>/dev/null || echo '{}' > "$work/tsconfig.base.json"
cp -r "$pkg" "$work/packages/core/storage-js"
rm -rf "$work/packages/core/storage-js/node_modules"
ln -s "$deps/node_modules" "$work/packages/core/storage-js/node_modules"

[ -x "$root/target/debug/gateway" ] || (cd "$root" && cargo build -q -p gateway --bin gateway)
export STORAGE_JS_WORK="$work/packages/core/storage-js" STORAGE_JS_FILES="${files[*]}"
# The tests hard-code 127.0.0.1:54321: run in a private network namespace (own loopback) so nothing else on the
# machine is hit and a gateway already on that port does not interfere.
netns=()
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && unshare --net true 2>/dev/null; then
  netns=(unshare --net bash -c 'ip link set lo up && exec "$@"' netns)
elif (exec 3<>/dev/tcp/127.0.0.1/54321) 2>/dev/null; then
  echo "port 54321 is in use and no network namespace is available" >&2; echo "0 passed, 1 failed"; exit 1
fi
"${netns[@]}" "$root/scripts/with-test-db.sh" bash -c '
  set -euo pipefail
  db="conformance_storage"
  admin="postgres://postgres@127.0.0.1:$TEST_PGPORT"
  psql -qX "$admin/postgres" -v ON_ERROR_STOP=1 -c "create database $db template $TEST_TEMPLATE_DB" >/dev/null
  PGOPTIONS="-c search_path=public,extensions" psql -qX "$admin/$db" -v ON_ERROR_STOP=1 \
    -f "$STORAGE_JS_WORK/test/supabase/seed.sql" >/dev/null
  data=$(mktemp -d)
  DATABASE_URL="postgres://authenticator:$TEST_AUTHENTICATOR_PASSWORD@127.0.0.1:$TEST_PGPORT/$db" PORT=54321 \
    PGRST_JWT_SECRET="super-secret-jwt-token-with-at-least-32-characters-long" FILE_STORAGE_BACKEND_PATH="$data" \
    GATEWAY_OUTBOX=off RUST_LOG=warn "$GATEWAY_BIN" serve >"$data.log" 2>&1 &
  gw=$!
  trap "kill $gw 2>/dev/null; wait $gw 2>/dev/null; rm -rf \"$data\" \"$data.log\"" EXIT
  for _ in $(seq 100); do curl -s -o /dev/null http://127.0.0.1:54321/storage/v1/bucket && break; sleep 0.1; done
  cd "$STORAGE_JS_WORK"
  [ -z "${VERBOSE:-}" ] || tail -5 "$data.log"
  node_modules/.bin/jest --ci --coverage=false --json --outputFile=results.json $STORAGE_JS_FILES >jest.log 2>&1 || true
  node -e "
    const r = require(\"./results.json\");
    for (const f of r.testResults) for (const t of f.assertionResults)
      if (t.status === \"failed\") console.log(\"FAILED\", f.name.split(\"/\").pop(), \"::\", t.fullName,
        process.env.VERBOSE ? \"\\n  \" + String(t.failureMessages[0] || \"\").split(\"\\n\").slice(0, 6).join(\"\\n  \") : \"\");
    console.log(r.numPassedTests + \" passed, \" + r.numFailedTests + \" failed\" + (r.numPendingTests ? \", \" + r.numPendingTests + \" skipped\" : \"\"));
    process.exit(r.numFailedTests === 0 && r.numRuntimeErrorTestSuites === 0 ? 0 : 1);
  "
'
