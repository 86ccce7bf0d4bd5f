#!/usr/bin/env bash
# Builds the site into web/dist (typecheck, client build, SSR build, prerender). Works on a clean clone.
#   scripts/build-web.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/web"
npm ci --no-audit --no-fund --loglevel=error
npm run build
