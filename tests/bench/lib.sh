# Shared by the benchmark scripts (sourced): the release gateway, a throwaway cluster with tests/bench/fixtures.sql,
# a gateway serving it, wrk runs and their figures. Callers set `tmp` (a scratch folder) before bench_cluster.
bench_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bench_dir=$bench_root/tests/bench
export BENCH_LUA_DIR=$bench_dir/wrk

# GATEWAY_BIN, or the release build (built when missing).
bench_gateway_bin() {
  if [ -z "${GATEWAY_BIN:-}" ]; then
    echo "building the gateway (release) ..." >&2
    (cd "$bench_root" && cargo build -q --release -p gateway --bin gateway)
    GATEWAY_BIN=${CARGO_TARGET_DIR:-$bench_root/target}/release/gateway
  fi
  [ -x "$GATEWAY_BIN" ] || { echo "no gateway binary at $GATEWAY_BIN" >&2; exit 2; }
}

# $tmp: a scratch folder tests/.tmp/NAME-XXXXXX, removed with the gateway and the cluster on exit (bench_cleanup).
bench_scratch() {
  mkdir -p "$bench_root/tests/.tmp"; chmod 755 "$bench_root/tests/.tmp"
  tmp=$(mktemp -d "$bench_root/tests/.tmp/$1-XXXXXX"); chmod 755 "$tmp"
  trap bench_cleanup EXIT
  trap 'exit 130' INT TERM
}

# bench_cluster, with synchronous_commit off (the per-request counters, where commit latency is not the question).
bench_cluster_async_commit() {
  bench_cluster
  psql -qX "$admin/postgres" -c "alter system set synchronous_commit = off" -c "select pg_reload_conf()" >/dev/null
}

bench_free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# A cluster under $tmp/pg (shared_buffers 256MB) with database `bench`: the platform schema, no app migrations, the
# fixtures (migrated by BENCH_SETUP_BIN, default GATEWAY_BIN: tests/bench/floor cannot migrate). Sets admin, db, PGPORT,
# AUTHENTICATOR_PASSWORD, PGPASSFILE (every role signs in with a password).
bench_cluster() {
  eval "$("$bench_root/scripts/pg-cluster.sh" start "$tmp/pg")"; export PGPASSFILE
  admin="postgres://postgres@127.0.0.1:$PGPORT"
  psql -qX "$admin/postgres" -c "alter system set shared_buffers = '256MB'" >/dev/null
  "$bench_root/scripts/pg-cluster.sh" stop "$tmp/pg"
  eval "$("$bench_root/scripts/pg-cluster.sh" start "$tmp/pg")"; export PGPASSFILE
  db=bench
  psql -qX -v ON_ERROR_STOP=1 "$admin/postgres" -c "create database $db" >/dev/null
  mkdir -p "$tmp/no-app-migrations"
  GATEWAY_ADMIN_DB_URI="$admin/$db" GATEWAY_MIGRATIONS_DIR="$tmp/no-app-migrations" "${BENCH_SETUP_BIN:-$GATEWAY_BIN}" migrate >"$tmp/migrate.log" 2>&1 \
    || { cat "$tmp/migrate.log" >&2; exit 1; }
  psql -qX -v ON_ERROR_STOP=1 "$admin/postgres" -c "alter role authenticator password '$AUTHENTICATOR_PASSWORD'" >/dev/null
  q -f "$bench_dir/fixtures.sql" >/dev/null
}

# SQL as the owner on the bench database.
q() { psql -qAtX -v ON_ERROR_STOP=1 "$admin/$db" "$@"; }

# How clients reach PostgreSQL: BENCH_TRANSPORT=tcp (127.0.0.1, the default) or unix (the cluster's socket in $tmp/pg,
# no TCP/IP stack in the way); the gateway and pgbench always use the same one.
bench_pg_host() { if [ "${BENCH_TRANSPORT:-tcp}" = unix ]; then echo "$tmp/pg"; else echo 127.0.0.1; fi; }
bench_db_url() { # USER:PASSWORD DB
  if [ "${BENCH_TRANSPORT:-tcp}" = unix ]; then echo "postgres://$1@/$2?host=$tmp/pg&port=$PGPORT"
  else echo "postgres://$1@127.0.0.1:$PGPORT/$2"; fi
}

# Starts the gateway on the bench database with extra VAR=VALUE settings; log in $tmp/gateway.log. Sets gateway_pid,
# port, base (its /rest/v1 URL), key and service_key (the anon and service_role API keys).
bench_gateway_start() {
  port=$(bench_free_port)
  env DATABASE_URL="$(bench_db_url authenticator:"$AUTHENTICATOR_PASSWORD" "$db")" \
    GATEWAY_ADMIN_DB_URI="$admin/$db" GATEWAY_MIGRATIONS_DIR="$tmp/no-app-migrations" GATEWAY_HOST=127.0.0.1 PORT="$port" \
    PGRST_DB_SCHEMAS=public GOTRUE_RATE_LIMIT_TOKEN_REFRESH=100000000 GATEWAY_RATE_LIMIT_ACCOUNT=100000000 \
    RUST_LOG=warn "$@" ${BENCH_GATEWAY_WRAPPER:-} "$GATEWAY_BIN" serve >"$tmp/gateway.log" 2>&1 &
  gateway_pid=$!
  local _
  for _ in $(seq 1 "$([ -n "${BENCH_GATEWAY_WRAPPER:-}" ] && echo 1200 || echo 300)"); do
    grep -qs 'listening on' "$tmp/gateway.log" && break
    kill -0 "$gateway_pid" 2>/dev/null || { cat "$tmp/gateway.log" >&2; exit 1; }
    sleep 0.1
  done
  grep -q 'listening on' "$tmp/gateway.log" || { cat "$tmp/gateway.log" >&2; echo "gateway did not start" >&2; exit 1; }
  base="http://127.0.0.1:$port/rest/v1"
  key=$(GATEWAY_ADMIN_DB_URI="$admin/$db" "$GATEWAY_BIN" keys | sed -n 's/^anon key: //p')
  service_key=$(GATEWAY_ADMIN_DB_URI="$admin/$db" "$GATEWAY_BIN" keys | sed -n 's/^service_role key: //p')
  export BENCH_KEY=$key
}

bench_gateway_stop() {
  if [ -n "${gateway_pid:-}" ] && kill -0 "$gateway_pid" 2>/dev/null; then
    kill "$gateway_pid" 2>/dev/null || true; wait "$gateway_pid" 2>/dev/null || true
  fi
  gateway_pid=
}

# Stops the gateway and the cluster and removes $tmp (an EXIT trap).
bench_cleanup() {
  bench_gateway_stop
  "$bench_root/scripts/pg-cluster.sh" stop "$tmp/pg" || true
  rm -rf "$tmp"
}

# wrk -t1 with latency figures: bench_wrk OUT LUA SECONDS CONNECTIONS URL (raw output to OUT).
bench_wrk() { wrk -t1 -c"$4" -d"$3s" --latency -s "$bench_dir/wrk/$2" "$5" >"$1" 2>&1 || true; }

# One figure from a wrk output file: requests/s, a latency percentile (50%, 99%, ...), the tail line's p99.9 or max,
# or the count of non-2xx answers. bench_figure FILE rps|50%|99%|p99.9|max|non2xx
bench_figure() {
  case $2 in
    rps) awk '/^Requests\/sec:/ {printf "%.0f", $2}' "$1" ;;
    p99.9 | max) sed -nE "s/^tail: .*$2=([^ ]+).*/\1/p" "$1" ;;
    non2xx) awk -F': *' '/Non-2xx or 3xx responses/ {print $2}' "$1" | grep . || echo 0 ;;
    *) awk -v p="$2" '$1 == p {print $2}' "$1" ;;
  esac
}

# CPU ticks (user + system, CLK_TCK per second) a process has used so far; 0 once it is gone.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
# PostgreSQL's CPU ticks: the postmaster, its live children (backends), and the children that already exited
# (cutime/cstime).
pg_cpu_ticks() {
  local pm; pm=$(head -n 1 "$tmp/pg/data/postmaster.pid" 2>/dev/null) || { echo 0; return; }
  { awk '{print $14 + $15 + $16 + $17}' "/proc/$pm/stat"; for c in $(pgrep -P "$pm"); do awk '{print $14 + $15}' "/proc/$c/stat" 2>/dev/null || true; done; } \
    | awk '{s += $1} END {print s + 0}'
}
