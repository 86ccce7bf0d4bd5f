#!/usr/bin/env bash
# `make admin EMAIL=someone@example.com`: makes an account a site admin, creating it when missing. Works without the
# gateway: psql straight to the database, as its owner.
#   Database: GATEWAY_ADMIN_DB_URI when set (an owner connection), else `make run`'s private cluster (DATA_DIR, default
#   .data; started for the moment if it is not running).
#   Password for a new account: ADMIN_PASSWORD, else asked for on a terminal, else generated and printed once.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd); cd "$root"
email=${EMAIL:-${1:-}}
[ -n "$email" ] || { echo "usage: make admin EMAIL=someone@example.com   (or scripts/make-admin.sh EMAIL)" >&2; exit 2; }
. scripts/lib/owner-db.sh

exists=$(psql -qAtX "$db" -v email="$email" <<'SQL'
select count(*) from auth.users where lower(email) = lower(btrim(:'email')) and not is_sso_user
SQL
)
password=
generated=
if [ "$exists" = 0 ]; then
  password=${ADMIN_PASSWORD:-}
  if [ -z "$password" ] && [ -t 0 ]; then
    read -rsp "Password for the new account $email (empty: generate one): " password; echo
    if [ -n "$password" ]; then read -rsp "Again: " again; echo; [ "$password" = "$again" ] || { echo "the passwords differ" >&2; exit 1; }; fi
  fi
  if [ -z "$password" ]; then password=$(head -c 18 /dev/urandom | base64 | tr '+/' '-_'); generated=1; fi
fi

psql -qAtX "$db" -v email="$email" -v password="$password" -f sql/admin/grant-admin.sql
if [ "$exists" = 0 ]; then
  echo "created the account $email"
  [ -z "$generated" ] || echo "generated password: $password   (sign in at /admin-login and keep it safe; it is not shown again)"
else
  echo "$email already had an account: its password is unchanged"
fi
