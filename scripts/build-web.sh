#!/usr/bin/env bash
# Builds the site into web/dist (typecheck, client build, SSR build, prerender). Works on a clean clone.
#   scripts/build-web.sh                 # as `make web` and the test suites: typecheck first
#   scripts/build-web.sh --no-typecheck  # `make run`: the same files without the type check (tsc changes no output)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/web"
npm ci --no-audit --no-fund --loglevel=error
if [ "${1:-}" = --no-typecheck ]; then
  npm run build:client && npm run build:ssr && npm run prerender
else
  npm run build
fi
