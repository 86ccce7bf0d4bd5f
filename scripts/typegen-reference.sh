#!/usr/bin/env bash
# Regenerates gateway/tests/fixtures/typegen.expected.ts with the Supabase CLI's own typegen (npm
# @supabase/postgres-meta 0.96.6, the version the CLI pins, with prettier 3.5.3 as its image locks it) run against
# the fixture schema on a throwaway cluster. Not part of make test: the committed output is what tests compare to.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scratch="$root/tests/.tmp/postgres-meta"
if [ ! -f "$scratch/node_modules/@supabase/postgres-meta/dist/server/server.js" ]; then
  mkdir -p "$scratch" && cd "$scratch" && echo '{"private":true}' > package.json
  npm install --no-audit --no-fund --loglevel=error @supabase/postgres-meta@0.96.6 prettier@3.5.3 >/dev/null
fi
export SCRATCH="$scratch" FIXTURE="$root/gateway/tests/fixtures/typegen.sql"
"$root/scripts/with-test-db.sh" bash -c '
  url="postgres://postgres@127.0.0.1:$TEST_PGPORT"
  psql -qX "$url/postgres" -c "create database typegen_reference" >/dev/null
  psql -qX -v ON_ERROR_STOP=1 "$url/typegen_reference" -f "$FIXTURE" >/dev/null
  PG_META_DB_URL="$url/typegen_reference" PG_META_GENERATE_TYPES=typescript \
    PG_META_GENERATE_TYPES_INCLUDED_SCHEMAS=public,other PG_META_GENERATE_TYPES_DETECT_ONE_TO_ONE_RELATIONSHIPS=true \
    node "$SCRATCH/node_modules/@supabase/postgres-meta/dist/server/server.js"
' > "$root/gateway/tests/fixtures/typegen.expected.ts"
echo "wrote gateway/tests/fixtures/typegen.expected.ts"
