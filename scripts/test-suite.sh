#!/usr/bin/env bash
# The inner loop's `make test-*` targets: runs suites of scripts/lib/suites.sh exactly as `make test` does (same
# functions, bounds and closing lines), without installing the test dependencies first.
#   scripts/test-suite.sh fast                        fmt + clippy, then the unit tests (no database)
#   scripts/test-suite.sh NAME FUNCTION [ARGS...]     one suite, e.g. "rust: unit + integration" rust_tests realtime
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd); cd "$root"
source scripts/lib/suites.sh
# with-test-db.sh would look for the binary under target/ otherwise
export GATEWAY_BIN=${GATEWAY_BIN:-$(debug_gateway)}

suite_begin
if [ "${1:-}" = fast ]; then
  run_suite "rust: fmt + clippy" rust_checks
  run_suite "rust: unit tests (no database)" rust_unit_tests
  run_suite "web: lint + type-check + unit tests (no database)" web_checks
else
  run_suite "$@"
fi
suite_end
