#!/usr/bin/env bash
# `make gateway ARGS="…"`: runs a `gateway` command (keys rotate, keys revoke KID, demo remove, lint, …) against
# `make run`'s database — the private cluster under the data folder (started for the command if it is not running,
# and stopped again), or GATEWAY_ADMIN_DB_URI when given. GATEWAY_BIN picks the binary (default: make run's build,
# target/local/gateway).
set -euo pipefail
umask 077
root=$(cd "$(dirname "$0")/.." && pwd); cd "$root"
source scripts/lib/stack.sh
GATEWAY_BIN=${GATEWAY_BIN:-$(stack_gateway_bin)}
[ -x "$GATEWAY_BIN" ] || stack_build_gateway
DATA_DIR=${DATA_DIR:-$root/.data}
if [ -z "${GATEWAY_ADMIN_DB_URI:-}" ]; then
  pgdir=$(stack_pg_dir)
  [ -f "$pgdir/data/PG_VERSION" ] || { echo "no database yet: run \`make run\` first" >&2; exit 1; }
  running=$(stack_running "$pgdir" && echo yes || true)
  eval "$(PG_CRON_DATABASE=app scripts/pg-cluster.sh start "$pgdir")"
  export PGPASSFILE
  [ -n "$running" ] || trap "scripts/pg-cluster.sh stop '$pgdir'" EXIT
  export GATEWAY_ADMIN_DB_URI="postgres://postgres@127.0.0.1:$PGPORT/app"
fi
"$GATEWAY_BIN" "$@"
