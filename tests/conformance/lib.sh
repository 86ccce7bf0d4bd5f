# Shared by the conformance runners (sourced): the jest toolchain, a scratch copy of an upstream package, a private
# network namespace, and the verdict against tests/conformance/known-failures.txt.
# Needs `root` (the repository) set by the caller.

conformance_dir=$root/tests/conformance
# Scratch: copies of the upstream packages and run logs, inside the (ignored) tests/.tmp of this clone.
conformance_tmp=${CONFORMANCE_TMP:-$root/tests/.tmp/conformance}

# The snapshot: SUPABASE_JS_CHECKOUT, else ../shared/conformance/supabase-js beside the clone (CI), else
# /work/shared/conformance/supabase-js (a worktree elsewhere on the development machine). Prints nothing if none.
conformance_default_checkout() {
  local c
  for c in ${SUPABASE_JS_CHECKOUT:+"$SUPABASE_JS_CHECKOUT"} "$root/../shared/conformance/supabase-js" \
    /work/shared/conformance/supabase-js; do
    [ -d "$c/packages/core" ] && { (cd "$c" && pwd); return 0; }
  done
  return 0
}

# jest, ts-jest, typescript and the suites' test-time packages, from tests/conformance/package-lock.json (npm ci),
# installed once per clone: later runners of the same run reuse them. Prints the node_modules path.
conformance_deps() {
  local stamp=$conformance_dir/node_modules/.lock-sha256
  local want; want=$(sha256sum "$conformance_dir/package-lock.json" | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || [ ! -x "$conformance_dir/node_modules/.bin/jest" ]; then
    echo "installing the conformance runners' jest toolchain (npm ci in tests/conformance)..." >&2
    (cd "$conformance_dir" && npm ci --no-audit --no-fund --loglevel=error >&2) || return 1
    echo "$want" > "$stamp"
  fi
  echo "$conformance_dir/node_modules"
}

# conformance_scratch CHECKOUT PACKAGE: a fresh writable copy of CHECKOUT/packages/core/PACKAGE (without
# node_modules, dist, coverage) and the monorepo's tsconfig.base.json, with the shared node_modules linked in.
# The snapshot is read-only and is never written to. Prints the package's folder in the copy.
conformance_scratch() {
  local checkout=$1 package=$2 modules
  modules=$(conformance_deps) || return 1
  mkdir -p "$conformance_tmp"; chmod 755 "$root/tests/.tmp" "$conformance_tmp" 2>/dev/null || true
  local tree; tree=$(mktemp -d "$conformance_tmp/$package-XXXXXX"); chmod 755 "$tree"
  mkdir -p "$tree/packages/core"
  cp "$checkout/tsconfig.base.json" "$tree/" 2>/dev/null || echo '{}' > "$tree/tsconfig.base.json"
  tar -C "$checkout/packages/core" --exclude=node_modules --exclude=dist --exclude=coverage -cf - "$package" \
    | tar -C "$tree/packages/core" --no-same-owner -xf -
  chmod -R u+w "$tree"
  ln -s "$modules" "$tree/node_modules"
  ln -s "$modules" "$tree/packages/core/$package/node_modules"
  echo "$tree/packages/core/$package"
}

# conformance_transpile_only PACKAGE-COPY: ts-jest compiles the tests without type-checking them (isolatedModules in
# the copy's tsconfig.test.json), unless CONFORMANCE_TYPECHECK=1. The type checks judge the pinned client's own
# TypeScript types against its own fixtures, which nothing in the gateway can change, and cost about two minutes per
# runner on two cores; every test still runs against the gateway.
conformance_transpile_only() {
  [ -z "${CONFORMANCE_TYPECHECK:-}" ] || return 0
  node -e '
    const fs = require("fs"); const f = process.argv[1];
    const c = JSON.parse(fs.readFileSync(f, "utf8"));
    c.compilerOptions = { ...c.compilerOptions, isolatedModules: true };
    fs.writeFileSync(f, JSON.stringify(c, null, 2));' "$1/tsconfig.test.json"
}

# conformance_netns "$0" "$@": re-runs the calling script inside a private network namespace (its own loopback),
# so the upstream tests' hard-coded port 54321 can never meet another suite or a developer's gateway. Returns
# (runs the caller in place) when already inside one, or when namespaces are unavailable and PORT is free.
# Everything that needs the network (npm, apt, cargo) must happen before this call.
conformance_netns() {
  [ -z "${CONFORMANCE_IN_NETNS:-}" ] || return 0
  if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && command -v ip >/dev/null && unshare --net true 2>/dev/null; then
    exec unshare --net env CONFORMANCE_IN_NETNS=1 bash -c 'ip link set lo up && exec "$@"' netns "$@"
  fi
  if ss -Hltn "sport = :${CONFORMANCE_PORT:-54321}" 2>/dev/null | grep -q .; then
    echo "port ${CONFORMANCE_PORT:-54321} is busy and no private network namespace is available (needs root)" >&2
    return 1
  fi
}

# conformance_prepare "$0" "$@": what needs the network first (the namespace has none): the jest toolchain and the
# gateway binary (GATEWAY_BIN, else a debug build, exported); then the private network namespace.
conformance_prepare() {
  conformance_deps >/dev/null || return 1
  if [ -z "${GATEWAY_BIN:-}" ]; then
    (cd "$root" && cargo build -q -p gateway --bin gateway) || return 1
    GATEWAY_BIN=${CARGO_TARGET_DIR:-$root/target}/debug/gateway
  fi
  export GATEWAY_BIN
  conformance_netns "$@"
}

# conformance_verdict RUNNER JEST-JSON...: per-file and total counts, failures checked against the known list.
conformance_verdict() {
  node "$conformance_dir/verdict.mjs" "$conformance_dir/known-failures.txt" "$@"
}

# conformance_finish NAME PACKAGE-COPY [FILE...]: keeps the run's logs (FILE... relative to the copy) in
# $conformance_tmp/NAME-last/ and removes the scratch copy.
conformance_finish() {
  local name=$1 work=$2; shift 2
  local keep=$conformance_tmp/$name-last
  rm -rf "$keep"; mkdir -p "$keep"
  for f in "$@"; do cp "$work/$f" "$keep/" 2>/dev/null || true; done
  rm -rf "${work%/packages/core/*}"
}
