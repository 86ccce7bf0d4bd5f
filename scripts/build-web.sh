#!/usr/bin/env bash
# Builds the site into web/dist (typecheck, client build, SSR build, prerender). Works on a clean clone.
#   scripts/build-web.sh                 # as `make web` and the test suites: typecheck first
#   scripts/build-web.sh --no-typecheck  # `make run`: the same files without the type check (tsc changes no output)
# `make run` installs only package.json's `dependencies` (what the site and its build need: 80 packages, 7 s) and
# keeps an install already in place; `devDependencies` are the checks' and tests' tools (the full install is 379
# packages, 21 s and 27 CPU-s that a first run's gateway build on two cores would wait for). The files built are
# the same.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/web"
if [ "${1:-}" = --no-typecheck ]; then
  [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --omit=dev --no-audit --no-fund --loglevel=error
  npm run build:client && npm run build:ssr && npm run prerender
else
  npm ci --no-audit --no-fund --loglevel=error
  npm run build
fi
