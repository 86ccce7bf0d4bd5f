#!/usr/bin/env bash
# Storage benchmark: upload and download throughput of a 10 MB object through /storage/v1, and the gateway's
# peak RSS (VmHWM) while streaming it — uploads and downloads are streamed, so the peak should stay far below
# the object size times the concurrency. Runs against its own throwaway cluster on this machine only.
#   tests/bench/storage.sh [RUNS]       (default 10; uses target/release/gateway when built, else the debug one)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-10}
if [ -z "${GATEWAY_BIN:-}" ]; then
  GATEWAY_BIN=$root/target/release/gateway
  [ -x "$GATEWAY_BIN" ] || { GATEWAY_BIN=$root/target/debug/gateway; echo "note: release build missing, measuring the debug build" >&2; }
fi
export GATEWAY_BIN BENCH_RUNS=$runs
"$root/scripts/with-test-db.sh" bash -c '
  set -euo pipefail
  work=$(mktemp -d); db=bench_storage
  admin="postgres://postgres@127.0.0.1:$TEST_PGPORT"
  psql -qX "$admin/postgres" -c "create database $db template $TEST_TEMPLATE_DB" >/dev/null
  port=$(python3 -c "import socket; s=socket.socket(); s.bind((\"127.0.0.1\", 0)); print(s.getsockname()[1])")
  DATABASE_URL="postgres://authenticator:$TEST_AUTHENTICATOR_PASSWORD@127.0.0.1:$TEST_PGPORT/$db" PORT=$port \
    FILE_STORAGE_BACKEND_PATH="$work/data" GATEWAY_OUTBOX=off RUST_LOG=warn "$GATEWAY_BIN" serve >"$work/log" 2>&1 &
  gw=$!
  trap "kill $gw 2>/dev/null; wait $gw 2>/dev/null; rm -rf \"$work\"" EXIT
  url="http://127.0.0.1:$port/storage/v1"
  for _ in $(seq 100); do curl -s -o /dev/null "$url/bucket" && break; sleep 0.1; done
  key=$(GATEWAY_ADMIN_DB_URI="$admin/$db" "$GATEWAY_BIN" keys | sed -n "s/^service_role key: //p")
  auth=(-H "apikey: $key" -H "authorization: Bearer $key")
  curl -sf "${auth[@]}" -H "content-type: application/json" -d "{\"name\":\"bench\"}" "$url/bucket" >/dev/null
  head -c $((10 * 1024 * 1024)) /dev/urandom > "$work/10mb.bin"
  rss() { awk "/^$1:/ {print int(\$2 / 1024)}" /proc/$gw/status; }
  idle=$(rss VmRSS)
  t0=$(date +%s.%N)
  for i in $(seq "$BENCH_RUNS"); do
    curl -sf "${auth[@]}" -H "x-upsert: true" -H "content-type: application/octet-stream" \
      --data-binary @"$work/10mb.bin" "$url/object/bench/blob.bin" >/dev/null
  done
  t1=$(date +%s.%N)
  for i in $(seq "$BENCH_RUNS"); do curl -sf "${auth[@]}" -o /dev/null "$url/object/bench/blob.bin"; done
  t2=$(date +%s.%N)
  # Four concurrent downloads, to show memory does not grow with the number of streams.
  pids=()
  for i in 1 2 3 4; do curl -sf "${auth[@]}" -o /dev/null "$url/object/bench/blob.bin" & pids+=($!); done
  wait "${pids[@]}"
  peak=$(rss VmHWM)
  python3 - "$BENCH_RUNS" "$t0" "$t1" "$t2" "$idle" "$peak" <<PY
import sys
runs, t0, t1, t2, idle, peak = int(sys.argv[1]), *map(float, sys.argv[2:6]), int(sys.argv[6])
mb = 10 * runs
print(f"storage upload 10 MB x {runs}: {mb / (t1 - t0):.1f} MB/s ({(t1 - t0) / runs * 1000:.0f} ms each)")
print(f"storage download 10 MB x {runs}: {mb / (t2 - t1):.1f} MB/s ({(t2 - t1) / runs * 1000:.0f} ms each)")
print(f"gateway RSS: idle {idle:.0f} MB, peak {peak} MB while streaming 10 MB objects")
PY
'
