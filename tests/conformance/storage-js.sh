#!/usr/bin/env bash
# Runs supabase/storage-js's own tests — every `test/*.test.ts` file: the bucket, object and file API integration
# files and the client's own unit files (download builders, sort defaults, error handling, exports, the analytics
# catalog client); the vector and index `*.spec.ts` files need services Storage does not have and are skipped —
# against the gateway at 127.0.0.1:54321/storage/v1, as the Supabase CLI serves it: the CLI's demo JWT secret is the legacy HS256 secret, so the tests' demo service key verifies, and the tests'
# seed (test/supabase/seed.sql) is loaded first. The package is copied from the snapshot to a scratch folder (the
# snapshot stays read-only; nothing third-party enters the repository), and everything runs in a private network
# namespace when possible. Ends with `N passed, N failed` (failures listed in known-failures.txt do not fail it).
#   tests/conformance/storage-js.sh [PATH-TO-storage-js]
#     (default ../shared/conformance/supabase-js/packages/core/storage-js)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/conformance/lib.sh"
pkg=$(cd "${1:-$(conformance_default_checkout)/packages/core/storage-js}" && pwd)
checkout=$(cd "$pkg/../../.." && pwd)
files=($(cd "$pkg" && ls test/*.test.ts))

conformance_prepare "$0" "$@"

work=$(conformance_scratch "$checkout" storage-js)
conformance_transpile_only "$work"
trap 'conformance_finish storage-js "$work" results.json jest.log' EXIT
export STORAGE_JS_WORK="$work" STORAGE_JS_FILES="${files[*]}"
"$root/scripts/with-test-db.sh" bash -c '
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
  # --forceExit: jest reports "did not exit one second after the test run" (a handle the tests leave open) and would
  # wait another ~90 s after writing its results.
  node_modules/.bin/jest --ci --coverage=false --forceExit --json --outputFile=results.json $STORAGE_JS_FILES >jest.log 2>&1 || true
'
conformance_verdict storage-js "$work/results.json"
