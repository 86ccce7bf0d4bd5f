#!/usr/bin/env bash
# Runs a command with moto's S3 server (PyPI `moto[s3,server]`, installed by scripts/install-test-deps.sh) on a free
# loopback port, named to the command as TEST_S3_ENDPOINT, and stops it afterwards. The S3 tests create a bucket each.
#   scripts/with-moto.sh COMMAND [ARGS...]
set -euo pipefail
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
python3 -m moto.server -H 127.0.0.1 -p "$port" >/dev/null 2>&1 &
moto=$!
trap 'kill $moto 2>/dev/null; wait $moto 2>/dev/null || true' EXIT
for _ in $(seq 300); do curl -s -o /dev/null "http://127.0.0.1:$port" && break; sleep 0.1; done
curl -s -o /dev/null "http://127.0.0.1:$port" || { echo "moto's S3 server did not start (pip install \"moto[s3,server]\")" >&2; exit 1; }
export TEST_S3_ENDPOINT="http://127.0.0.1:$port"
set +e
"$@"
rc=$?
set -e
exit $rc
