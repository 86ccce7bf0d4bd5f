#!/usr/bin/env bash
# The gateway side of tests/conformance/storage-js.sh (run by it under scripts/with-test-db.sh, inside its private
# network namespace): the conformance database from the template with storage-js's seed, then the Storage API on
# 127.0.0.1:54321 as the Supabase CLI serves it, and storage-js's jest over STORAGE_JS_FILES in STORAGE_JS_WORK.
#   STORAGE_JS_BACKEND=file (default): one gateway on 54321, objects in a folder;
#   STORAGE_JS_BACKEND=s3: moto's S3 server, two gateways on the same database and bucket, and HAProxy on 54321 in
#   front of them (docs/haproxy.cfg, round robin: what one gateway stored the other serves).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
db="conformance_storage"
admin="postgres://postgres@127.0.0.1:$TEST_PGPORT"
psql -qX "$admin/postgres" -v ON_ERROR_STOP=1 -c "create database $db template $TEST_TEMPLATE_DB" >/dev/null
PGOPTIONS="-c search_path=public,extensions" psql -qX "$admin/$db" -v ON_ERROR_STOP=1 \
  -f "$STORAGE_JS_WORK/test/supabase/seed.sql" >/dev/null
data=$(mktemp -d)
pids=()
trap 'set +e; kill "${pids[@]}" 2>/dev/null; wait "${pids[@]}" 2>/dev/null; rm -rf "$data"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
wait_for() { for _ in $(seq 300); do curl -s -o /dev/null "$1" && return 0; sleep 0.1; done; echo "no answer from $1" >&2; return 1; }

# serve NAME PORT [VAR=VALUE...]: a gateway on PORT with its own folder, the CLI's demo JWT secret
serve() {
  local name=$1 port=$2; shift 2
  env DATABASE_URL="postgres://authenticator:$TEST_AUTHENTICATOR_PASSWORD@127.0.0.1:$TEST_PGPORT/$db" PORT="$port" \
    PGRST_JWT_SECRET="super-secret-jwt-token-with-at-least-32-characters-long" FILE_STORAGE_BACKEND_PATH="$data/$name" \
    GATEWAY_MIGRATIONS_DIR="$root/sql/migrations" GATEWAY_OUTBOX=off RUST_LOG=warn "$@" "$GATEWAY_BIN" serve \
    >"$data/$name.log" 2>&1 &
  pids+=($!)
  wait_for "http://127.0.0.1:$port/storage/v1/bucket"
}

if [ "${STORAGE_JS_BACKEND:-file}" = s3 ]; then
  s3_port=$(free_port)
  python3 -m moto.server -H 127.0.0.1 -p "$s3_port" >"$data/moto.log" 2>&1 &
  pids+=($!)
  wait_for "http://127.0.0.1:$s3_port"
  curl -sf -X PUT -o /dev/null "http://127.0.0.1:$s3_port/storage-js"
  s3=(STORAGE_BACKEND=s3 GLOBAL_S3_BUCKET=storage-js GLOBAL_S3_ENDPOINT="http://127.0.0.1:$s3_port"
    GLOBAL_S3_FORCE_PATH_STYLE=true AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test REGION=us-east-1
    GATEWAY_TRUSTED_PROXIES=127.0.0.1)
  a=$(free_port); serve a "$a" "${s3[@]}"
  b=$(free_port); serve b "$b" "${s3[@]}"
  # docs/haproxy.cfg names three servers: the third is the first again, so requests go a, b, a, b, a, …
  LB_ADDR=127.0.0.1:54321 GW1_ADDR="127.0.0.1:$a" GW2_ADDR="127.0.0.1:$b" GW3_ADDR="127.0.0.1:$a" \
    haproxy -db -f "$root/docs/haproxy.cfg" >"$data/haproxy.log" 2>&1 &
  pids+=($!)
  wait_for http://127.0.0.1:54321/storage/v1/bucket
else
  serve gateway 54321
fi
cd "$STORAGE_JS_WORK"
[ -z "${VERBOSE:-}" ] || tail -5 "$data"/*.log
# --forceExit: jest reports "did not exit one second after the test run" (a handle the tests leave open) and would
# wait another ~90 s after writing its results.
node_modules/.bin/jest --ci --coverage=false --forceExit --json --outputFile=results.json $STORAGE_JS_FILES >jest.log 2>&1 || true
if [ "${STORAGE_JS_BACKEND:-file}" = s3 ]; then
  served() { grep -cE "gateways/($1) " "$data/haproxy.log" || true; }
  echo "two gateways on S3 behind HAProxy: requests served by the first $(served 'gw1|gw3'), by the second $(served gw2)"
  echo "objects in the S3 bucket after the run: $(curl -s "http://127.0.0.1:$s3_port/storage-js?list-type=2" | grep -o '<Key>' | wc -l)"
fi
