#!/usr/bin/env bash
# Loads the demo content into a database (development only; never production):
#   sql/seed/load.sh postgres://postgres@127.0.0.1:PORT/DB
# Runs sql/seed/*.sql in name order as the database owner, each file in one transaction. Safe to run again.
set -euo pipefail
url=${1:?usage: sql/seed/load.sh DATABASE_URL (an owner/superuser connection)}
dir=$(cd "$(dirname "$0")" && pwd)
for f in "$dir"/*.sql; do
  psql -X -q -v ON_ERROR_STOP=1 --single-transaction "$url" -f "$f"
done
