#!/usr/bin/env bash
# `make run`: builds what is missing, starts a private PostgreSQL cluster under the data folder unless DATABASE_URL is
# given, migrates, loads demo content into a new database (never when GATEWAY_ENV=production), and serves the APIs and
# the site on PORT (default 54321). Ctrl-C stops the gateway and the private cluster; state survives restarts.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd); cd "$root"
export PORT=${PORT:-54321}
DATA_DIR=${DATA_DIR:-$root/.data}; mkdir -p "$DATA_DIR"; DATA_DIR=$(cd "$DATA_DIR" && pwd)

need() { command -v "$1" >/dev/null 2>&1; }
apt_install() {
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"; fi
}
need cargo || { echo "Rust (cargo) is required: https://rustup.rs" >&2; exit 1; }
need psql || apt_install postgresql-client
need node || apt_install nodejs npm

echo "building the gateway (release)..."
cargo build -q --release -p gateway --bin gateway
GATEWAY_BIN=$root/target/release/gateway
if [ ! -f web/dist/index.html ] || [ -n "$(find web/src web/content web/public web/index.html -newer web/dist/index.html 2>/dev/null | head -n1)" ]; then
  [ -x scripts/build-web.sh ] && { echo "building the site..."; scripts/build-web.sh; }
fi

cleanup=()
on_exit() { for c in "${cleanup[@]}"; do eval "$c" || true; done; }
trap on_exit EXIT

if [ -z "${DATABASE_URL:-${PGRST_DB_URI:-}}" ]; then
  source scripts/lib/stack.sh
  pgdir=$(stack_pg_dir)
  if [ "$pgdir" != "$DATA_DIR/pg" ]; then
    # The postgres user cannot reach the checkout (e.g. under /root): keep the cluster in a folder it can reach.
    mkdir -p "$(dirname "$pgdir")"; chmod 755 /var/lib/gateway-run "$(dirname "$pgdir")"
    echo "database folder: $pgdir (the postgres user cannot reach $DATA_DIR)"
  fi
  # pg_cron runs the app database's scheduled jobs (the nightly retention pass, sql/migrations/0320).
  [ -f /usr/share/postgresql/15/extension/pg_cron.control ] || apt_install postgresql-15-cron
  eval "$(PG_CRON_DATABASE=app scripts/pg-cluster.sh start "$pgdir" "${PGPORT:-54322}")"
  cleanup+=("scripts/pg-cluster.sh stop '$pgdir'")
  admin="postgres://postgres@127.0.0.1:$PGPORT"
  if [ "$(psql -qAtX "$admin/postgres" -c "select count(*) from pg_database where datname = 'app'")" = 0 ]; then
    psql -qX "$admin/postgres" -c "create database app" >/dev/null
  fi
  export GATEWAY_ADMIN_DB_URI="$admin/app"
  export DATABASE_URL="postgres://authenticator:$AUTHENTICATOR_PASSWORD@127.0.0.1:$PGPORT/app"
  "$GATEWAY_BIN" migrate
  psql -qX "$admin/postgres" -c "alter role authenticator password '$AUTHENTICATOR_PASSWORD'" >/dev/null
else
  : "${GATEWAY_ADMIN_DB_URI:?set GATEWAY_ADMIN_DB_URI to an owner connection string so migrations can run}"
  "$GATEWAY_BIN" migrate
fi

if [ "${GATEWAY_ENV:-development}" != production ] && [ -x sql/seed/load.sh ] && \
   [ "$(psql -qAtX "$GATEWAY_ADMIN_DB_URI" -c "select to_regclass('gateway.demo_loaded') is null")" = t ]; then
  echo "loading demo content..."
  sql/seed/load.sh "$GATEWAY_ADMIN_DB_URI" 2>&1 | tee "$DATA_DIR/demo-content.log" | grep -v '^$' || true
  grep -oE 'demo user: .*' "$DATA_DIR/demo-content.log" > "$DATA_DIR/demo-credentials.txt" || true
  psql -qX "$GATEWAY_ADMIN_DB_URI" -c "create table gateway.demo_loaded (loaded_at timestamptz default now())" >/dev/null
fi
if [ "${GATEWAY_ENV:-development}" != production ] && [ -s "$DATA_DIR/demo-credentials.txt" ]; then
  echo "demo logins:"; sed 's/^/  /' "$DATA_DIR/demo-credentials.txt"
fi

export GATEWAY_SITE_DIR=${GATEWAY_SITE_DIR:-$root/web/dist}
export GATEWAY_MAIL_DIR=${GATEWAY_MAIL_DIR:-$DATA_DIR/mail}
export FILE_STORAGE_BACKEND_PATH=${FILE_STORAGE_BACKEND_PATH:-$DATA_DIR/storage}
export GATEWAY_HOST=${GATEWAY_HOST:-127.0.0.1}
"$GATEWAY_BIN" keys
echo "mail without SMTP is written to $GATEWAY_MAIL_DIR"
"$GATEWAY_BIN" serve
