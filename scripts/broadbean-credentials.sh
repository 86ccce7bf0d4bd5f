#!/usr/bin/env bash
# `make broadbean-credentials [BROADBEAN_USERNAME=name]`: sets new credentials for the Broadbean (AdCourier) job push
# and prints them once; only their bcrypt hash is stored (private.feed_credentials). Enter them in Broadbean's
# posting settings with the push URL <site>/rest/v1/rpc/broadbean (Content-Type text/xml). The old password stops
# working at once.
#   Database: GATEWAY_ADMIN_DB_URI when set, else `make run`'s private cluster (scripts/lib/owner-db.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd); cd "$root"
. scripts/lib/owner-db.sh
psql -qAtX -v ON_ERROR_STOP=1 -F ' ' "$db" -v username="${BROADBEAN_USERNAME:-}" <<'SQL' | while read -r user password; do
select username, password from private.rotate_feed_credentials('broadbean', nullif(:'username', ''));
SQL
  echo "Broadbean username: $user"
  echo "Broadbean password: $password   (shown once; the previous password no longer works)"
done
