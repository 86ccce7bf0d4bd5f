#!/usr/bin/env bash
# `make test`: installs what the suites need, then runs every suite, each against its own throwaway cluster,
# and ends with one line `N passed, N failed` summing them all.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd); cd "$root"
source scripts/lib/suites.sh

suite_begin
scripts/install-test-deps.sh || { echo "could not install the test dependencies"; echo "0 passed, 1 failed"; exit 1; }
run_suite "rust: fmt + clippy" rust_checks
run_suite "rust: unit + integration" rust_tests
run_suite "supabase-js suites (tests/js)" node_tests
run_suite "supabase-py client (tests/py)" python_clients
run_suite "sql: site access rules (pgTAP)" sql_tests
run_suite "security: make run's stack (S6, S7, first run)" security_suite
run_suite "faults: database restart, SIGTERM, pool, SMTP down, full disk, hostile clients, two instances (tests/faults)" faults_suite
run_suite "ops: backup + restore, conformance verdict (tests/ops)" ops_tests
run_suite "scale: read replicas, three gateways behind HAProxy on S3 (tests/scale)" scale_suite
run_suite "conformance: postgrest-js" conformance postgrest-js
run_suite "conformance: auth-js" conformance auth-js
run_suite "conformance: storage-js" conformance storage-js
run_suite "conformance: storage-js on S3, two gateways behind HAProxy" conformance_s3
run_suite "web: build + browser end-to-end" web_e2e
suite_end
