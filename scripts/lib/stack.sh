# make run's stack on disk (sourced by scripts/run.sh, gateway-cli.sh, backup.sh, restore.sh): its gateway build, where
# its private PostgreSQL cluster lives, and commands run as the cluster's owner over its Unix socket. Needs `root` (the
# checkout) and, for the cluster, DATA_DIR.
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}

# make run's gateway: Cargo's `local` profile without the `s3` feature (Cargo.toml; tests/bench/README.md, round 9).
# One definition, so `make run` and `make gateway` never rebuild over each other's binary.
stack_build_gateway() { cargo build --profile local -p gateway --bin gateway --no-default-features; }
stack_gateway_bin() {
  local target=${CARGO_TARGET_DIR:-target}; [[ $target = /* ]] || target=$root/$target   # cargo's own rule
  echo "$target/local/gateway"
}

# The cluster folder: DATA_DIR/pg, or, when running as root and the postgres user cannot reach DATA_DIR (e.g. a
# checkout under /root), a folder under /var/lib/gateway-run named by a hash of the checkout (the default DATA_DIR)
# or of DATA_DIR (any other), so a second stack never shares the first one's cluster.
stack_pg_dir() {
  if [ "$(id -u)" = 0 ] && ! runuser -u postgres -- test -x "$DATA_DIR" 2>/dev/null; then
    local key=$DATA_DIR
    [ "$DATA_DIR" != "$root/.data" ] || key=$root
    echo "/var/lib/gateway-run/$(printf %s "$key" | sha1sum | cut -c1-12)/pg"
  else
    echo "$DATA_DIR/pg"
  fi
}

# Runs a PostgreSQL client as the cluster's owner (the postgres OS user when root), so local authentication works
# whatever pg_hba.conf says for TCP.
stack_as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

stack_running() { stack_as_owner "$PGBIN/pg_ctl" -D "$1/data" status >/dev/null 2>&1; }
