#!/usr/bin/env bash
# Runs supabase/storage-js's own tests — every `test/*.test.ts` file: the bucket, object and file API integration
# files and the client's own unit files (download builders, sort defaults, error handling, exports, the analytics
# catalog client); the vector and index `*.spec.ts` files need services Storage does not have and are skipped —
# against the gateway at 127.0.0.1:54321/storage/v1, as the Supabase CLI serves it: the CLI's demo JWT secret is the legacy HS256 secret, so the tests' demo service key verifies, and the tests'
# seed (test/supabase/seed.sql) is loaded first. The package is copied from the snapshot to a scratch folder (the
# snapshot stays read-only; nothing third-party enters the repository), and everything runs in a private network
# namespace when possible. Ends with `N passed, N failed` (failures listed in known-failures.txt do not fail it).
# STORAGE_JS_BACKEND=s3 runs the same tests against two gateways sharing moto's S3 bucket behind HAProxy
# (tests/conformance/storage-js-stack.sh); the verdict is the same list's.
#   tests/conformance/storage-js.sh [PATH-TO-storage-js]
#     (default ../shared/conformance/supabase-js/packages/core/storage-js)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/conformance/lib.sh"
pkg=$(cd "${1:-$(conformance_default_checkout)/packages/core/storage-js}" && pwd)
checkout=$(cd "$pkg/../../.." && pwd)
files=($(cd "$pkg" && ls test/*.test.ts))

if [ "${STORAGE_JS_BACKEND:-file}" = s3 ] && ! { command -v haproxy >/dev/null && python3 -c 'import moto.server' 2>/dev/null; }; then
  echo "STORAGE_JS_BACKEND=s3 needs haproxy and moto[s3,server] (scripts/install-test-deps.sh)" >&2
  exit 1
fi
conformance_prepare "$0" "$@"

work=$(conformance_scratch "$checkout" storage-js)
conformance_transpile_only "$work"
trap 'conformance_finish "storage-js${STORAGE_JS_BACKEND:+-$STORAGE_JS_BACKEND}" "$work" results.json jest.log' EXIT
export STORAGE_JS_WORK="$work" STORAGE_JS_FILES="${files[*]}"
"$root/scripts/with-test-db.sh" "$root/tests/conformance/storage-js-stack.sh"
conformance_verdict storage-js "$work/results.json"
