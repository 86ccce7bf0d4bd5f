# Helpers for scripts/test-all.sh: run suites, count their tests, print one closing line.
# A suite function prints lines "SUITE-COUNTS passed=N failed=M" (or is counted as 1 test by its exit code).
total_passed=0; total_failed=0; failed_suites=()

suite_begin() { echo "== test run $(date -u +%FT%TZ)"; run_started=$SECONDS; }

# Seconds the next suite may take: SUITE_TIMEOUT (default 1800), but never past the whole run's budget
# (TEST_RUN_BUDGET, default 4800 s: CI stops a run at 5400 s, and a run it stops reports nothing at all).
suite_bound() {
  local left=$(( ${TEST_RUN_BUDGET:-4800} - (SECONDS - ${run_started:-0}) ))
  local bound=${SUITE_TIMEOUT:-1800}
  [ "$left" -lt "$bound" ] && bound=$left
  echo "$bound"
}

run_suite() {
  local name=$1; shift
  echo; echo "== $name"
  local log; log=$(mktemp)
  local started=$SECONDS bound; bound=$(suite_bound)
  local rc=124
  if [ "$bound" -gt 30 ]; then
    # Each suite is bounded (timeout signals its whole process group) and writes to a file, not a pipe: a process
    # it leaves behind with the output still open (a browser, a server in its own session) cannot hold the run,
    # and tail shows the output live. Whatever still carries the suite's mark in its environment afterwards is
    # stopped.
    local mark="suite-$$-$RANDOM$RANDOM"
    GATEWAY_SUITE_MARK=$mark timeout -k 30 "$bound" bash -c 'source scripts/lib/suites.sh; "$@"' suite "$@" >"$log" 2>&1 &
    local pid=$! tail_pid
    tail -n +1 -s 0.2 -f "$log" 2>/dev/null & tail_pid=$!
    wait "$pid"; rc=$?
    sleep 0.5; kill "$tail_pid" 2>/dev/null; wait "$tail_pid" 2>/dev/null
    stop_marked "$mark"
    [ "$rc" != 124 ] || echo "== $name: stopped after $bound s"
  else
    echo "== $name: not run, the run's time budget (TEST_RUN_BUDGET) is spent"
  fi
  local counts; counts=$(grep -E '^SUITE-COUNTS ' "$log" | tail -n 1)
  local p=0 f=0
  if [ -n "$counts" ]; then
    p=$(sed -E 's/.*passed=([0-9]+).*/\1/' <<<"$counts"); f=$(sed -E 's/.*failed=([0-9]+).*/\1/' <<<"$counts")
  elif [ "$rc" = 0 ]; then p=1; else f=1; fi
  if [ "$rc" != 0 ] && [ "$f" = 0 ]; then f=1; fi
  total_passed=$((total_passed + p)); total_failed=$((total_failed + f))
  [ "$rc" = 0 ] || failed_suites+=("$name")
  echo "== $name: $p passed, $f failed ($((SECONDS - started)) s)"
  rm -f "$log"
}

# Stops every process whose environment carries GATEWAY_SUITE_MARK=$1 (left behind by a suite): TERM, then KILL.
stop_marked() {
  local sig pids
  for sig in TERM KILL; do
    pids=$(grep -lsxzF "GATEWAY_SUITE_MARK=$1" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3)
    [ -n "$pids" ] || return 0
    echo "== stopping what the suite left running (SIG$sig): $(tr '\n' ' ' <<<"$pids")"
    kill "-$sig" $pids 2>/dev/null
    sleep 2
  done
}

suite_end() {
  echo
  [ ${#failed_suites[@]} -eq 0 ] || echo "failed suites: ${failed_suites[*]}"
  echo "$total_passed passed, $total_failed failed"
  [ "$total_failed" = 0 ]
}

# SUITE-COUNTS from the closing `ℹ pass N` / `ℹ fail N` lines of node's test runner output in a file.
node_test_counts() {
  local p f
  p=$(grep -E '^ℹ pass [0-9]+' "$1" | tail -n1 | grep -oE '[0-9]+'); f=$(grep -E '^ℹ fail [0-9]+' "$1" | tail -n1 | grep -oE '[0-9]+')
  echo "SUITE-COUNTS passed=${p:-0} failed=${f:-0}"
}

# The debug gateway's absolute path (CARGO_TARGET_DIR, relative to the checkout when relative, else target/).
debug_gateway() { (cd "${CARGO_TARGET_DIR:-target}" && echo "$PWD/debug/gateway"); }

rust_checks() {
  cargo fmt --all -- --check && cargo clippy -q --workspace --all-targets -- -D warnings &&
    cargo clippy -q -p gateway --no-default-features --lib --bins -- -D warnings   # `make run`'s build: no S3
}

# Every Rust test of the workspace (unit and gateway/tests/api) against a throwaway cluster; ARGS (`make test-rust
# T=…`) are nextest's filters, none in `make test`.
rust_tests() {
  cargo build -q -p gateway --bin gateway || return 1
  # one moto S3 server for the run: the storage object tests run on S3 too (scripts/with-moto.sh)
  nextest_counted scripts/with-test-db.sh scripts/with-moto.sh cargo nextest run --workspace --no-fail-fast "$@"
}

# The unit tests beside each module (--lib, --bins): no database, no server (`make test-fast`).
rust_unit_tests() {
  nextest_counted cargo nextest run --workspace --lib --bins --no-fail-fast "$@"
}

# Runs COMMAND (a nextest run) and prints SUITE-COUNTS from nextest's closing `Summary [` line.
nextest_counted() {
  local out; out=$(mktemp)
  "$@" 2>&1 | tee "$out"
  local rc=${PIPESTATUS[0]}
  local line; line=$(grep -E 'Summary \[' "$out" | tail -n 1)
  local p f
  p=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+' || echo 0)
  f=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+' || echo 0)
  echo "SUITE-COUNTS passed=${p:-0} failed=${f:-0}"
  rm -f "$out"
  return "$rc"
}

# Node suites (supabase-js against the gateway): node's test runner over tests/js, one gateway per file; ARGS
# (`make test-js S=…`: files or folders, relative to tests/) narrow it to their *.test.mjs files.
node_tests() {
  (cd tests && npm ci --no-audit --no-fund --loglevel=error) || return 1
  cargo build -q -p gateway --bin gateway || return 1
  local out; out=$(mktemp)
  # The data API (/rest/v1) is merged, so the REST and site-policies suites run by default here (run alone, they
  # still need REST_SUITE=1 / POLICIES_SUITE=1).
  REST_SUITE=${REST_SUITE:-1} POLICIES_SUITE=${POLICIES_SUITE:-1} \
    scripts/with-test-db.sh bash -c 'cd tests && node --test --test-concurrency=1 --test-timeout=240000 --test-reporter=spec $(find "${@:-js}" -name "*.test.mjs" | sort)' node_tests "${@#tests/}" 2>&1 | tee "$out"
  local rc=${PIPESTATUS[0]}
  node_test_counts "$out"
  rm -f "$out"
  return "$rc"
}

# make run's own stack (tests/security/make-run.sh): S6 production refusal, S7 private PostgreSQL and data folder,
# the newcomer's first run (port, logs, stopping on signals), and fifty stops at random moments of start-up and
# serving (tests/security/make-run-stops.sh, issue 30); prints its own SUITE-COUNTS. 7 min on the loaded 2-core VM
# (the fifty stops 335 s of it; STOPS=N runs fewer); bounded at 900 s (its own clean-up trap stops the clusters it
# started).
security_suite() {
  cargo build -q -p gateway --bin gateway || return 1
  timeout -k 20 "${SECURITY_SUITE_TIMEOUT:-900}" tests/security/make-run.sh
}

# The official Python clients (supabase-py 2.34: supabase_auth, storage3) against the gateway (tests/py, pytest in the
# virtualenv scripts/install-test-deps.sh makes): other encodings than supabase-js's (tests/conformance/AUDIT.md).
python_clients() {
  cargo build -q -p gateway --bin gateway || return 1
  local out; out=$(mktemp)
  GATEWAY_BIN="$(debug_gateway)" scripts/with-test-db.sh \
    tests/.tmp/py-venv/bin/python -m pytest -q -p no:cacheprovider -W ignore::DeprecationWarning tests/py 2>&1 | tee "$out"
  local rc=${PIPESTATUS[0]}
  local line p f
  line=$(grep -E '[0-9]+ (passed|failed)' "$out" | tail -n 1)
  p=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+'); f=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+')
  echo "SUITE-COUNTS passed=${p:-0} failed=${f:-0}"
  rm -f "$out"
  return "$rc"
}

# Site access rules in SQL (sql/tests/NN-*.sql, pgTAP): every role x table x operation; prints its own SUITE-COUNTS.
# ARGS (`make test-sql F=…`) are files to run instead of all.
sql_tests() {
  cargo build -q -p gateway --bin gateway || return 1
  sql/tests/run.sh "$@"
}

# Faults (tests/faults, `make faults`): each file starts its own private cluster and gateway binaries, then breaks
# something on purpose (database restart, SIGTERM, exhausted pool, SMTP down, full disk, hostile clients, two
# instances on one database); every case is bounded in time and talks to loopback only.
faults_suite() {
  [ -d tests/node_modules/smtp-server ] || (cd tests && npm ci --no-audit --no-fund --loglevel=error) || return 1
  cargo build -q -p gateway --bin gateway || return 1
  # 10,000 idle connections need as many descriptors in the test and in the gateway
  ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
  node_dir_suite faults 360 120000
}

# Past one machine (tests/scale, `make scale-test`): read replicas (a standby made by pg_basebackup -R: routing, a
# lagging standby skipped, read-your-writes, a schema change, a stopped standby) and three gateways on S3 (moto) behind
# HAProxy (docs/haproxy.cfg) under a mixed load while one restarts, one is killed and the standby stops; prints the
# figures. HAProxy and moto come from scripts/install-test-deps.sh (run here when either is missing).
scale_suite() {
  { command -v haproxy >/dev/null && python3 -c 'import moto.server' 2>/dev/null; } || scripts/install-test-deps.sh || return 1
  [ -d tests/node_modules/@supabase/supabase-js ] || (cd tests && npm ci --no-audit --no-fund --loglevel=error) || return 1
  cargo build -q -p gateway --bin gateway || return 1
  node_dir_suite scale 900 600000
}

# Operations (tests/ops): make backup / make restore on a make-run-like stack with its own clusters (not
# with-test-db: a backup carries roles, which are cluster-wide), and the conformance verdict's rules.
ops_tests() {
  [ -d tests/node_modules/@supabase/supabase-js ] || (cd tests && npm ci --no-audit --no-fund --loglevel=error) || return 1
  cargo build -q -p gateway --bin gateway || return 1
  node_dir_suite ops 1800 240000
}

# node's test runner over tests/DIR's *.test.mjs files, one at a time, with the debug gateway (GATEWAY_BIN), the whole
# run bounded by LIMIT seconds and each file by FILE_LIMIT ms; prints SUITE-COUNTS.
node_dir_suite() {
  local dir=$1 limit=$2 file_limit=$3 out; out=$(mktemp)
  (GATEWAY_BIN=$(debug_gateway) && cd tests && GATEWAY_BIN=$GATEWAY_BIN timeout -k 10 "$limit" node --test \
    --test-concurrency=1 --test-timeout="$file_limit" --test-reporter=spec $(find "$dir" -name "*.test.mjs" | sort)) 2>&1 | tee "$out"
  local rc=${PIPESTATUS[0]}
  node_test_counts "$out"
  rm -f "$out"
  return "$rc"
}

# An upstream client suite (tests/conformance/RUNNER.sh: postgrest-js, auth-js, storage-js) against the supabase-js
# snapshot (../shared/conformance/supabase-js). Failures listed in tests/conformance/known-failures.txt are shown but
# do not count; any other failure, or fewer passes than the listed baseline, fails it. Skipped, counting nothing,
# when there is no snapshot.
conformance() {
  local runner=$1 checkout
  checkout=$(root=$PWD; source tests/conformance/lib.sh; conformance_default_checkout)
  if [ -z "$checkout" ]; then
    echo "no supabase-js snapshot (../shared/conformance/supabase-js): skipped"
    echo "SUITE-COUNTS passed=0 failed=0"
    return 0
  fi
  cargo build -q -p gateway --bin gateway || return 1
  local target=$checkout
  [ "$runner" != storage-js ] || target=$checkout/packages/core/storage-js
  GATEWAY_BIN=$(debug_gateway) "tests/conformance/$runner.sh" "$target"
}

# storage-js's conformance suite again, on S3: two gateways sharing moto's bucket behind HAProxy
# (tests/conformance/storage-js-stack.sh), judged by the same known-failures list.
conformance_s3() {
  STORAGE_JS_BACKEND=s3 conformance storage-js
}

# The site's static checks and unit tests, no database, no browser: lint (TypeScript, React hooks, import boundaries:
# web/eslint.config.js), type-check (skipped with --built: the build just did it) and the pure modules' unit tests
# (vitest, src/**/*.test.ts); each check counts as one test, each unit test as one. Run by web_e2e after the build's
# npm ci, and by `make test-fast`; prints SUITE-COUNTS.
web_checks() {
  { [ -d web/node_modules/eslint ] && [ -d web/node_modules/vitest ]; } || (cd web && npm ci --no-audit --no-fund --loglevel=error) || return 1
  local p=0 f=0 out; out=$(mktemp)
  if (cd web && npm run lint); then p=$((p + 1)); else f=$((f + 1)); fi
  if [ "${1:-}" != --built ]; then
    if (cd web && npm run typecheck); then p=$((p + 1)); else f=$((f + 1)); fi
  fi
  (cd web && NO_COLOR=1 npm run test:unit) 2>&1 | tee "$out"
  local rc=${PIPESTATUS[0]} counts
  counts=$(vitest_counts "$out" "$rc")
  rm -f "$out"
  echo "SUITE-COUNTS passed=$((p + $(count_of passed "$counts"))) failed=$((f + $(count_of failed "$counts")))"
  [ "$f" = 0 ] && [ "$rc" = 0 ]
}

# SUITE-COUNTS from vitest's closing `Tests  N failed | M passed (T)` line in a file; a run that failed without a
# failed test (a test file that does not load) counts one failure.
vitest_counts() {
  local line p f
  line=$(grep -E '^ *Tests +[0-9]' "$1" | tail -n 1)
  p=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+'); f=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+')
  [ "$2" = 0 ] || [ "${f:-0}" != 0 ] || f=1
  echo "SUITE-COUNTS passed=${p:-0} failed=${f:-0}"
}

# N from a "SUITE-COUNTS passed=N failed=M" line: count_of passed|failed LINE.
count_of() { local n; n=$(grep -oE "$1=[0-9]+" <<<"$2" | cut -d= -f2); echo "${n:-0}"; }

# The site in a real browser: build web/dist, then the Playwright suites (playwright-core + Debian Chromium) against
# the real gateway serving it on a throwaway database. ARGS (`make test-web E=…`: files relative to web/) narrow it.
web_e2e() {
  scripts/build-web.sh || return 1
  local log; log=$(mktemp)
  web_checks --built 2>&1 | tee "$log"
  local checks_rc=${PIPESTATUS[0]} checks
  checks=$(grep -E '^SUITE-COUNTS ' "$log" | tail -n 1)
  rm -f "$log"
  [ "$checks_rc" = 0 ] || return 1
  cargo build -q -p gateway --bin gateway || return 1
  local out; out=$(mktemp)
  scripts/with-test-db.sh bash -c 'cd web && node --test --test-concurrency=1 --test-timeout=240000 --test-reporter=spec $(find "${@:-e2e}" -maxdepth 1 -name "*.test.mjs" | sort)' web_e2e "${@#web/}" 2>&1 | tee "$out"
  local rc=${PIPESTATUS[0]} e2e
  e2e=$(node_test_counts "$out")
  rm -f "$out"
  # the e2e tests plus the checks and unit tests before them, in one line
  echo "SUITE-COUNTS passed=$(($(count_of passed "$e2e") + $(count_of passed "$checks"))) failed=$(($(count_of failed "$e2e") + $(count_of failed "$checks")))"
  return "$rc"
}
