#!/usr/bin/env bash
# Where PostgreSQL's CPU per request goes, without the gateway: pgbench (prepared, pipelined, one Sync per request as
# the gateway's pipeline sends it) runs the exact SQL the gateway sends for the single insert and the GET by key, then
# the same with one part removed at a time; PostgreSQL CPU µs per transaction (postmaster + backends, /proc), median
# of 3 runs, and tps.
#   tests/bench/pg-split.sh      (BENCH_SECONDS per run, default 5; BENCH_CONNECTIONS 32; GATEWAY_BIN only migrates;
#                                 BENCH_SPLIT: space-separated variant names to run, default all)
# The statements below are what the release gateway logged under log_statement=all (28 Nov 2026, b890c1d) for
# insert.lua and get_one.lua (insert_lean: the insert since 774a984); the parameters are bound as text like the gateway binds them. Figures, never asserted.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
secs=${BENCH_SECONDS:-5}
conns=${BENCH_CONNECTIONS:-32}
bench_gateway_bin
bench_scratch pgsplit
bench_cluster_async_commit
# A login role in anon (inherits its grants; anon's policies apply to it), for the variants that do not switch role.
q -c "create role split_anon login password '$AUTHENTICATOR_PASSWORD' in role anon" \
  -c "grant connect on database $db to split_anon" >/dev/null

# The gateway's preamble, one set_config per part (a write's: no transaction_read_only).
P_SP="set_config('search_path', :sp, true)"
P_ST="set_config(:stk, :stv, true)"
P_ROLE="set_config('role', :role, true)"
P_CLAIMS="set_config('request.jwt.claims', :claims, true)"
P_METHOD="set_config('request.method', :method, true)"
P_PATH="set_config('request.path', :path, true)"
P_HEADERS="set_config('request.headers', :headers, true)"
P_COOKIES="set_config('request.cookies', :cookies, true)"
P_RO="set_config('transaction_read_only', 'on', true)"
P_GENERIC="set_config('plan_cache_mode', 'force_generic_plan', true)"
preamble() { local IFS=,; echo "select $*;"; }
ALL=("$P_SP" "$P_ST" "$P_ROLE" "$P_CLAIMS" "$P_METHOD" "$P_PATH" "$P_HEADERS" "$P_COOKIES")
without() { local p out=(); for p in "${ALL[@]}"; do [ "$p" = "$1" ] || out+=("$p"); done; preamble "${out[@]}"; }

# The insert: the gateway's body-to-rows source, its RETURNING and its result shape (PostgREST's).
I_SOURCE="INSERT INTO \"public\".\"events\"(\"kind\", \"payload\") SELECT pgrst_body.\"kind\", pgrst_body.\"payload\" FROM (SELECT :body::json AS json_data) pgrst_payload, LATERAL json_array_elements(CASE WHEN json_typeof(pgrst_payload.json_data) = 'array' THEN pgrst_payload.json_data ELSE json_build_array(pgrst_payload.json_data) END) pgrst_elem, LATERAL (SELECT \"kind\", \"payload\" FROM json_to_record(pgrst_elem.value) AS _(\"kind\" text, \"payload\" jsonb)) pgrst_body"
I_SHAPE="SELECT NULL::bigint AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, '' AS body, nullif(current_setting('response.headers', true), '') AS response_headers, nullif(current_setting('response.status', true), '') AS response_status, nullif(current_setting('pgrst.inserted', true), '')::int AS response_inserted FROM (SELECT 1 FROM pgrst_source) _postgrest_t"
I_GATEWAY="WITH pgrst_source AS ($I_SOURCE RETURNING 1) $I_SHAPE;"
I_COUNT_ONLY="WITH pgrst_source AS ($I_SOURCE RETURNING 1) SELECT count(*) FROM pgrst_source;"
I_NO_WRAP="$I_SOURCE RETURNING 1;"
I_NO_RETURNING="$I_SOURCE;"
I_RECORD="INSERT INTO \"public\".\"events\"(\"kind\", \"payload\") SELECT r.\"kind\", r.\"payload\" FROM json_to_record(:body::json) AS r(\"kind\" text, \"payload\" jsonb);"
I_BARE="INSERT INTO public.events (kind, payload) VALUES ('bench', '{\"n\":1}');"
# What the gateway sends since 774a984 for one object into a plain table without a representation: the INSERT alone.
I_LEAN="INSERT INTO \"public\".\"events\"(\"kind\", \"payload\") SELECT \"kind\", \"payload\" FROM json_to_record(:body::json) AS _(\"kind\" text, \"payload\" jsonb) RETURNING NULL::bigint AS total_result_set, 1::bigint AS page_total, ''::text AS body, nullif(current_setting('response.headers', true), '') AS response_headers, nullif(current_setting('response.status', true), '') AS response_status, NULL::int AS response_inserted;"
# The GET by key: the gateway's statement, and the bare read of get_one.pgbench.
G_GATEWAY="WITH pgrst_source AS (SELECT \"public\".\"items\".* FROM \"public\".\"items\" WHERE \"public\".\"items\".\"id\" = :id) SELECT NULL::bigint AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, coalesce(json_agg(_postgrest_t), '[]')::text AS body, nullif(current_setting('response.headers', true), '') AS response_headers, nullif(current_setting('response.status', true), '') AS response_status, NULL::int AS response_inserted FROM (SELECT * FROM pgrst_source) _postgrest_t;"
G_BARE="SELECT coalesce(json_agg(t), '[]')::text FROM (SELECT * FROM public.items WHERE id = :id) t;"
MINIMAL="select set_config('search_path', 'public', true), set_config('role', 'anon', true), set_config('request.jwt.claims', '{\"role\":\"anon\"}', true);"

# name|login role|statements (one per line); every variant is one pipeline = one implicit transaction, as sent.
variants=(
  "insert_gateway|authenticator|$(preamble "${ALL[@]}")
$I_GATEWAY"
  "insert_lean|authenticator|$(preamble "${ALL[@]}")
$I_LEAN"
  "insert_no_preamble|split_anon|$I_GATEWAY"
  "insert_preamble_role_only|authenticator|$(preamble "$P_ROLE")
$I_GATEWAY"
  "insert_no_role_switch|split_anon|$(without "$P_ROLE")
$I_GATEWAY"
  "insert_no_headers|authenticator|$(without "$P_HEADERS")
$I_GATEWAY"
  "insert_no_claims|authenticator|$(without "$P_CLAIMS")
$I_GATEWAY"
  "insert_no_statement_timeout|authenticator|$(without "$P_ST")
$I_GATEWAY"
  "insert_generic_plan|authenticator|$(preamble "${ALL[@]}" "$P_GENERIC")
$I_GATEWAY"
  "insert_shape_count_only|authenticator|$(preamble "${ALL[@]}")
$I_COUNT_ONLY"
  "insert_no_wrapper|authenticator|$(preamble "${ALL[@]}")
$I_NO_WRAP"
  "insert_no_returning|authenticator|$(preamble "${ALL[@]}")
$I_NO_RETURNING"
  "insert_json_to_record|authenticator|$(preamble "${ALL[@]}")
$I_RECORD"
  "insert_bare_values|authenticator|$(preamble "${ALL[@]}")
$I_BARE"
  "insert_pgbench_twin|authenticator|BEGIN;
$MINIMAL
$I_BARE
COMMIT;"
  "get_gateway|authenticator|$(preamble "$P_RO" "${ALL[@]}")
$G_GATEWAY"
  "get_generic_plan|authenticator|$(preamble "$P_RO" "${ALL[@]}" "$P_GENERIC")
$G_GATEWAY"
  "get_no_preamble|split_anon|$G_GATEWAY"
  "get_no_headers|authenticator|$(preamble "$P_RO" "$P_SP" "$P_ST" "$P_ROLE" "$P_CLAIMS" "$P_METHOD" "$P_PATH" "$P_COOKIES")
$G_GATEWAY"
  "get_bare_statement|authenticator|$(preamble "$P_RO" "${ALL[@]}")
$G_BARE"
  "get_pgbench_twin|authenticator|BEGIN READ ONLY;
$MINIMAL
$G_BARE
COMMIT;"
)

# The parameters the gateway bound (an anon key's claims, curl-like headers with the key twice).
jwt="eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiIsImtpZCI6ImFkM2MyOTM1LTIxYjMtNDQ0OC1iZTVlLWY0NWM3MzY5Mzg0ZSJ9.eyJleHAiOjIxMTEyNDUzNDksImlhdCI6MTc5NTg4NTM0OSwiaXNzIjoic3VwYWJhc2UiLCJyb2xlIjoiYW5vbiJ9.gh5dEJqT7Ih8yq4u9JUUjC4Aw0okNaZfOWkLHX6Wh0ucR1iTHI1gs6wP5lA8kUV2zizVRUEQtsuXsII-2UnzWw"
defs=(-D 'sp="public", "public", "extensions"' -D stk=statement_timeout -D stv=3s -D role=anon
  -D 'claims={"exp":2111245349,"iat":1795885349,"iss":"supabase","role":"anon"}' -D method=POST -D path=/events
  -D "headers={\"apikey\":\"$jwt\",\"authorization\":\"Bearer $jwt\",\"content-length\":\"34\",\"content-profile\":\"public\",\"content-type\":\"application/json\",\"host\":\"127.0.0.1:42335\",\"x-forwarded-for\":\"127.0.0.1\"}"
  -D 'cookies={}' -D 'body={"kind":"bench","payload":{"n":1}}')

hz=$(getconf CLK_TCK)
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
wanted=" ${BENCH_SPLIT:-} "
{
echo "| Variant (pgbench -M prepared -c $conns -j 1 -T $secs, synchronous_commit=off) | PostgreSQL CPU µs/tx (median; runs) | tps (median) |"
echo "|---|---|---|"
for v in "${variants[@]}"; do
  name=${v%%|*}; rest=${v#*|}; user=${rest%%|*}; sql=${rest#*|}
  [ -z "${BENCH_SPLIT:-}" ] || [[ "$wanted" == *" $name "* ]] || continue
  { echo "\\set id random(1, 1000)"; echo "\\startpipeline"; echo "$sql"; echo "\\endpipeline"; } >"$tmp/$name.pgbench"
  cpus=(); tpss=()
  for _ in 1 2 3; do
    sleep 0.5; p0=$(pg_cpu_ticks)  # the last run's backends reaped (their CPU is in the postmaster's cutime by then)
    out=$(PGPASSWORD=$AUTHENTICATOR_PASSWORD pgbench -n -M prepared -c "$conns" -j 1 -T "$secs" -h "$(bench_pg_host)" \
      -p "$PGPORT" -U "$user" "${defs[@]}" -f "$tmp/$name.pgbench" "$db" 2>&1) || true
    sleep 0.5; p1=$(pg_cpu_ticks)
    tx=$(awk '/^number of transactions actually processed: / {print $6}' <<<"$out")
    [ -n "$tx" ] && [ "$tx" -gt 0 ] || { echo "$name failed: $(tail -n 3 <<<"$out")" >&2; continue 2; }
    cpus+=("$(awk -v a="$p0" -v b="$p1" -v n="$tx" -v hz="$hz" 'BEGIN {printf "%.0f", (b - a) / hz * 1e6 / n}')")
    tpss+=("$(awk '/^tps = / {printf "%.0f", $3}' <<<"$out")")
  done
  echo "| $name | $(median "${cpus[@]}") (${cpus[*]}) | $(median "${tpss[@]}") |"
done
} | tee "$bench_dir/last-pg-split.md"
