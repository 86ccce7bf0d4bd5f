#!/usr/bin/env bash
# Regenerates web/src/lib/database.types.ts (the site's `Database` type for supabase-js) from the migrations:
# a throwaway cluster, `gateway migrate`, then `gateway types typescript --schema public` (the same output as
# `supabase gen types typescript`). make test fails while the committed file differs (gateway/tests/api/typegen.rs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/web/src/lib/database.types.ts"
"$root/scripts/with-test-db.sh" bash -c '
  GATEWAY_ADMIN_DB_URI="postgres://postgres@127.0.0.1:$TEST_PGPORT/$TEST_TEMPLATE_DB" "$GATEWAY_BIN" types typescript --schema public
' > "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out"
