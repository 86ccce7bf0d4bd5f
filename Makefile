# Two commands for a new user: `make run` serves everything, `make test` runs every suite.
SHELL := /bin/bash
.PHONY: run test build web check fmt lint bench backup restore admin

run:
	@scripts/run.sh

test:
	@scripts/test-all.sh

# make run's stack (database with roles and signing keys, storage folder) to one archive, and back into a fresh
# DATA_DIR: `make backup [BACKUP=file.tar.gz]`, `make restore BACKUP=file.tar.gz [DATA_DIR=folder]`.
backup:
	@scripts/backup.sh

restore:
	@scripts/restore.sh $(BACKUP)

build:
	cargo build --release -p gateway

web:
	@scripts/build-web.sh

check:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings

fmt:
	cargo fmt --all

bench:
	@tests/bench/run.sh

# Grants the admin role to EMAIL's account, creating the account when missing (scripts/make-admin.sh).
admin:
	@scripts/make-admin.sh "$(EMAIL)"
