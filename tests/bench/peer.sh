#!/usr/bin/env bash
# The gateway's data API beside a peer a user might pick instead — postrust (`cargo install postrust-server`, a
# PostgREST-compatible server in Rust) — on the same cluster, fixtures, token and wrk clients, in one run: per
# scenario req/s, p50, p99 and CPU per request of each server, and the ratio gateway ÷ peer. Figures to compare,
# never asserted.
#   tests/bench/peer.sh           (PEER_BIN=/path/to/postrust, else `postrust` on PATH, else installed with cargo
#                                  into tests/.tmp/peer; BENCH_SECONDS per window, default 10; BENCH_CONNECTIONS 32)
# postrust serves its API under /api. Both servers: pool of 10 connections as `authenticator`, anon role `anon`, one HS256 token (role anon) signed with
# a shared secret (the gateway accepts it as PGRST_JWT_SECRET, as PostgREST does). Each scenario runs gateway, peer,
# gateway, peer and reports the mean of each server's two windows; a scenario whose answers differ from SQL's is
# reported as not measured.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
secs=${BENCH_SECONDS:-10}
conns=${BENCH_CONNECTIONS:-32}
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 2; }
bench_gateway_bin
if [ -z "${PEER_BIN:-}" ]; then
  PEER_BIN=$(command -v postrust || true)
  if [ -z "$PEER_BIN" ]; then
    PEER_BIN=$bench_root/tests/.tmp/peer/bin/postrust
    [ -x "$PEER_BIN" ] || { echo "installing postrust-server with cargo (minutes) ..." >&2
      cargo install -q postrust-server --root "$bench_root/tests/.tmp/peer" >&2; }
  fi
fi
mkdir -p "$bench_root/tests/.tmp"; chmod 755 "$bench_root/tests/.tmp"
tmp=$(mktemp -d "$bench_root/tests/.tmp/peer-XXXXXX"); chmod 755 "$tmp"
peer_pid=
# (never failing: under errexit a failed `wait` in the EXIT trap skipped the clean-up and left the gateway running)
stop_peer() {
  if [ -n "$peer_pid" ]; then kill "$peer_pid" 2>/dev/null || true; wait "$peer_pid" 2>/dev/null || true; fi
  peer_pid=
}
trap 'stop_peer; bench_cleanup' EXIT
trap 'exit 130' INT TERM
bench_cluster

secret=$(head -c 48 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 48)
token=$(python3 - "$secret" <<'PY'
import base64, hashlib, hmac, json, sys, time
b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
body = b64(json.dumps({"role": "anon", "iat": int(time.time()), "exp": int(time.time()) + 86400}).encode())
sig = b64(hmac.new(sys.argv[1].encode(), f"{head}.{body}".encode(), hashlib.sha256).digest())
print(f"{head}.{body}.{sig}")
PY
)
bench_gateway_start PGRST_JWT_SECRET="$secret" PGRST_DB_POOL=10
gateway_port=$port
peer_port=$(bench_free_port)
env PGRST_DB_URI="postgres://authenticator:$AUTHENTICATOR_PASSWORD@127.0.0.1:$PGPORT/$db" PGRST_DB_ANON_ROLE=anon \
  PGRST_DB_SCHEMAS=public PGRST_JWT_SECRET="$secret" PGRST_DB_POOL=10 PGRST_SERVER_HOST=127.0.0.1 \
  PGRST_SERVER_PORT="$peer_port" PGRST_LOG_LEVEL=error RUST_LOG=error NO_COLOR=1 "$PEER_BIN" >"$tmp/peer.log" 2>&1 &
peer_pid=$!
for _ in $(seq 1 300); do curl -s -o /dev/null "http://127.0.0.1:$peer_port/" && break; sleep 0.1; done
export BENCH_KEY=$token
declare -A url=([gateway]="http://127.0.0.1:$gateway_port" [peer]="http://127.0.0.1:$peer_port")
declare -A prefix=([gateway]=/rest/v1 [peer]=/api)
declare -A pid=([gateway]=$gateway_pid [peer]=$peer_pid)

# Correctness gate: each server's answer to one request of the scenario equals what SQL returns as anon.
same_json() { python3 -c 'import json,sys; sys.exit(0 if json.loads(sys.argv[1]) == json.loads(sys.argv[2]) else 1)' "$1" "$2" 2>/dev/null; }
gate() { # SERVER WANT_CODE WANT_JSON METHOD PATH [BODY]: true when the answer matches
  local args=(-s -o "$tmp/body" -w '%{http_code}' -X "$4" -H "apikey: $token" -H "Authorization: Bearer $token")
  [ -z "${6:-}" ] || args+=(-H 'Content-Type: application/json' --data "$6")
  local code; code=$(curl "${args[@]}" "${url[$1]}${prefix[$1]}$5" || echo 000)
  [ "$code" = "$2" ] && { [ -z "$3" ] || same_json "$(cat "$tmp/body")" "$3"; } && return 0
  echo "$1 fails the $5 gate: $code $(head -c 200 "$tmp/body")" >&2; return 1
}
want_one=$(q -c "set role anon" -c "select coalesce(json_agg(t), '[]') from (select * from public.items where id = 7) t")
want_page=$(q -c "set role anon" -c "select coalesce(json_agg(x), '[]') from (select i.id, i.name, i.price,
  json_build_object('id', c.id, 'name', c.name) as category from public.items i join public.categories c on c.id = i.category_id
  order by i.id offset 100 limit 25) x")
# Per scenario: the status and JSON (empty: no body) SQL says, method, path and body of the gate request.
declare -A want_code=([get_one]=200 [page_embed]=200 [insert]=201 [rpc]=200)
declare -A want_json=([get_one]=$want_one [page_embed]=$want_page [insert]= [rpc]=5)
declare -A method=([get_one]=GET [page_embed]=GET [insert]=POST [rpc]=POST)
declare -A path=([get_one]='/items?select=*&id=eq.7' [insert]=/events [rpc]=/rpc/add_them
  [page_embed]='/items?select=id,name,price,category:categories(id,name)&order=id.asc&offset=100&limit=25')
declare -A body=([get_one]= [page_embed]= [insert]='{"kind":"bench","payload":{"n":1}}' [rpc]='{"a":2,"b":3}')
hz=$(getconf CLK_TCK)
rows=()
for scenario in get_one page_embed insert rpc; do
  ok=1
  for server in gateway peer; do
    gate "$server" "${want_code[$scenario]}" "${want_json[$scenario]}" "${method[$scenario]}" "${path[$scenario]}" "${body[$scenario]}" || ok=
  done
  if [ -z "$ok" ]; then rows+=("| $scenario | not measured: an answer differs from SQL's (see above) | | | | | | |"); continue; fi
  declare -A sum_rps=() sum_p50=() sum_p99=() sum_cpu=()
  for round in 1 2; do
    for server in gateway peer; do
      out=$tmp/$scenario-$server-$round.txt
      t0=$(cpu_ticks "${pid[$server]}")
      BENCH_PREFIX=${prefix[$server]} bench_wrk "$out" "$scenario.lua" "$secs" "$conns" "${url[$server]}"
      t1=$(cpu_ticks "${pid[$server]}")
      n=$(awk '/requests in/ {print $1}' "$out"); n=${n:-0}
      [ "$(bench_figure "$out" non2xx)" = 0 ] || echo "$server $scenario: $(bench_figure "$out" non2xx) non-2xx answers" >&2
      sum_rps[$server]=$(( ${sum_rps[$server]:-0} + $(bench_figure "$out" rps) ))
      sum_cpu[$server]=$(awk -v s="${sum_cpu[$server]:-0}" -v a="$t0" -v b="$t1" -v n="$n" -v hz="$hz" 'BEGIN {print s + (n ? (b - a) / hz * 1e6 / n : 0)}')
      sum_p50[$server]="${sum_p50[$server]:-}$(bench_figure "$out" 50%) "
      sum_p99[$server]="${sum_p99[$server]:-}$(bench_figure "$out" 99%) "
    done
  done
  g=$(( sum_rps[gateway] / 2 )); p=$(( sum_rps[peer] / 2 ))
  rows+=("| $scenario | $g | ${sum_p50[gateway]}/ ${sum_p99[gateway]}| $(awk -v c="${sum_cpu[gateway]}" 'BEGIN {printf "%.0f", c / 2}') | $p | ${sum_p50[peer]}/ ${sum_p99[peer]}| $(awk -v c="${sum_cpu[peer]}" 'BEGIN {printf "%.0f", c / 2}') | $(awk -v a="$g" -v b="$p" 'BEGIN {printf "%.2f", b ? a / b : 0}') |")
  unset sum_rps sum_p50 sum_p99 sum_cpu
done

{
  echo "# Gateway beside a peer $(date -u +%FT%TZ)"
  echo
  echo "Machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); gateway \`$GATEWAY_BIN\` (tree $(cd "$bench_root" && git rev-parse --short HEAD)); peer \`$PEER_BIN\` (postrust-server); wrk -t1 -c$conns -d${secs}s, each server twice, alternating; HS256 anon token; pool 10 each."
  echo
  echo "| Scenario | gateway req/s | gateway p50 / p99 (both windows) | gateway CPU µs/req | peer req/s | peer p50 / p99 (both windows) | peer CPU µs/req | gateway ÷ peer |"
  echo "|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} | tee "$bench_dir/last-peer.md"
