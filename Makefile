# Two commands for a new user: `make run` serves everything, `make test` runs every suite.
SHELL := /bin/bash
.PHONY: run test test-fast test-rust test-sql test-js test-web faults scale-test soak build web check fmt lint bench bench-floor backup restore gateway admin job-alerts broadbean-credentials

run:
	@scripts/run.sh

# A gateway command against make run's database, e.g. `make gateway ARGS="keys rotate"` or ARGS="demo remove".
gateway:
	@scripts/gateway-cli.sh $(ARGS)

test:
	@scripts/test-all.sh

# The inner loop (README, "The inner loop"): each runs suites of scripts/lib/suites.sh as `make test` does.
# test-fast: fmt, clippy and the unit tests, no database. T: nextest filters; F: pgTAP files (sql/tests/…);
# S: files or folders under tests/ (js/…); E: browser test files under web/ (e2e/…), all of them when empty.
test-fast:
	@scripts/test-suite.sh fast

test-rust:
	@scripts/test-suite.sh "rust: unit + integration" rust_tests $(T)

test-sql:
	@scripts/test-suite.sh "sql: site access rules (pgTAP)" sql_tests $(F)

test-js:
	@scripts/test-suite.sh "supabase-js suites (tests/js)" node_tests $(S)

test-web:
	@scripts/test-suite.sh "web: build + browser end-to-end" web_e2e $(E)

# make run's stack (database with roles and signing keys, storage folder) to one archive, and back into a fresh
# DATA_DIR: `make backup [BACKUP=file.tar.gz]`, `make restore BACKUP=file.tar.gz [DATA_DIR=folder]`.
backup:
	@scripts/backup.sh

restore:
	@scripts/restore.sh $(BACKUP)

# Ten minutes of mixed reads, writes, sign-ins and uploads against a release build (tests/soak/run.mjs): no failure,
# RSS within 10 % of its size after the warm-up (the identity cache filled to its bound first), each minute's p99 within 2 x the warm-up-end p99 + 25 ms.
# SOAK_SECS shortens it; the build goes where CARGO_TARGET_DIR says (relative: to this folder), as in make run.
soak:
	cargo build -q --release -p gateway
	@[ -d tests/node_modules/@supabase ] || (cd tests && npm ci --no-audit --no-fund --loglevel=error)
	@target=$${CARGO_TARGET_DIR:-target}; [[ $$target = /* ]] || target=$(CURDIR)/$$target; \
	  cd tests && GATEWAY_BIN=$$target/release/gateway node soak/run.mjs

# Breaks things on purpose (tests/faults): database restart, SIGTERM (with mail mid-send), exhausted pool, SMTP down,
# full disk, hostile clients, two instances on one database; also run by make test.
faults:
	@bash -c 'source scripts/lib/suites.sh && faults_suite'

# Past one machine (tests/scale): a primary with a streaming standby (pg_basebackup -R), three gateways on S3 (moto)
# behind HAProxy (docs/haproxy.cfg) under a mixed load while one restarts, one is killed and the standby stops and
# starts; prints the figures (requests, failures by cause, writes, Realtime, the standby's read share). Also run by
# make test.
scale-test:
	@bash -c 'source scripts/lib/suites.sh && scale_suite'

build:
	cargo build --release -p gateway

web:
	@scripts/build-web.sh

check:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy -p gateway --no-default-features --lib --bins -- -D warnings
	@[ -d web/node_modules/eslint ] && [ -d web/node_modules/vitest ] || (cd web && npm ci --no-audit --no-fund --loglevel=error)
	cd web && npm run lint && npm run test:unit

fmt:
	cargo fmt --all

# The REST/auth/storage benchmark; with BENCH_REALTIME=1 also Realtime's (tests/bench/realtime.sh: 10,000 sockets,
# fan-out, postgres_changes under RLS — a few minutes on a quiet machine).
bench:
	@tests/bench/run.sh
	@if [ "$${BENCH_REALTIME:-0}" = 1 ]; then tests/bench/realtime.sh; fi

# The gateway's CPU per request against the least a server on the same libraries spends (tests/bench/floor.sh).
bench-floor:
	@tests/bench/floor.sh

# Grants the admin role to EMAIL's account, creating the account when missing (scripts/make-admin.sh).
admin:
	@scripts/make-admin.sh "$(EMAIL)"

# Sends the job alert digests that are due now (scripts/job-alerts.sh; AS_OF= and MAX_MAILS= optional).
job-alerts:
	@scripts/job-alerts.sh

# New credentials for the Broadbean job push, printed once (scripts/broadbean-credentials.sh; BROADBEAN_USERNAME= optional).
broadbean-credentials:
	@scripts/broadbean-credentials.sh
