#!/usr/bin/env bash
# The gateway against its floor (tests/bench/floor: hyper and tokio-postgres on the gateway's runtime model, the
# scenario's pgbench transaction in one round trip per request, nothing else), in alternating windows with ab.sh:
# what any server on these libraries spends per request on this machine, and what the gateway spends above it.
# Then the HTTP side alone (the floor answering `[]` without PostgreSQL, FLOOR_MODE=static).
#   tests/bench/floor.sh      (GATEWAY_BIN, or the release build; BENCH_SCENARIOS default: get_one page_to_many
#                              insert; BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONNECTIONS as in ab.sh)
# Figures to compare, never asserted.
set -euo pipefail
dir=$(cd "$(dirname "$0")" && pwd)
source "$dir/lib.sh"
bench_gateway_bin
echo "building the floor (release) ..." >&2
(cd "$bench_root" && cargo build -q --release -p bench-floor)
floor=${CARGO_TARGET_DIR:-$bench_root/target}/release/bench-floor
BENCH_SCENARIOS=${BENCH_SCENARIOS:-get_one page_to_many insert} "$dir/ab.sh" "$GATEWAY_BIN" "$floor"
BENCH_SCENARIOS=get_one BENCH_B_ENV=FLOOR_MODE=static "$dir/ab.sh" "$GATEWAY_BIN" "$floor"
