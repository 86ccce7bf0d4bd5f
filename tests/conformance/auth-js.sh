#!/usr/bin/env bash
# Runs the real auth-js test suite (supabase-js `packages/core/auth-js/test`) against the gateway on 127.0.0.1:54321,
# with the suite's RS256 signing key loaded through GOTRUE_JWT_KEYS (auth.md §13). The package is copied from the
# snapshot to a scratch folder (the snapshot stays read-only; nothing third-party enters the repository), and the
# run happens in a private network namespace when possible.
#   tests/conformance/auth-js.sh [SUPABASE_JS_CHECKOUT]     (default ../shared/conformance/supabase-js)
# Prints "N passed, N failed" at the end (failures listed in known-failures.txt do not fail it).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/conformance/lib.sh"
checkout=$(cd "${1:-$(conformance_default_checkout)}" && pwd)
[ -d "$checkout/packages/core/auth-js/test" ] || { echo "no auth-js tests under $checkout" >&2; exit 2; }

conformance_prepare "$0" "$@"

suite=$(conformance_scratch "$checkout" auth-js)
conformance_transpile_only "$suite"
trap 'conformance_finish auth-js "$suite" results/client.json results/api.json results/client.log results/api.log results/gateway.log' EXIT
(cd "$suite" && node test/generate-signing-keys.js >/dev/null)

run() {
  local port=$TEST_PGPORT db="authjs_$$"
  psql -q "postgres://postgres@127.0.0.1:$port/postgres" -c "create database $db template $TEST_TEMPLATE_DB" >/dev/null
  local maildir; maildir=$(mktemp -d)
  local out="$suite/results"; mkdir -p "$out"
  GOTRUE_JWT_KEYS="$(cat "$suite/test/supabase/signing_keys.json")" \
  DATABASE_URL="postgres://authenticator:$TEST_AUTHENTICATOR_PASSWORD@127.0.0.1:$port/$db" \
  GATEWAY_ADMIN_DB_URI="postgres://postgres@127.0.0.1:$port/$db" \
  PORT=54321 GATEWAY_HOST=127.0.0.1 API_EXTERNAL_URL=http://127.0.0.1:54321 \
  GOTRUE_SITE_URL=http://127.0.0.1:3000 GOTRUE_URI_ALLOW_LIST="https://127.0.0.1:3000,http://localhost:5173" \
  GOTRUE_MAILER_AUTOCONFIRM=true GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED=true GOTRUE_PASSWORD_MIN_LENGTH=6 \
  GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL=10 GOTRUE_SMTP_MAX_FREQUENCY=1s GATEWAY_MAIL_DIR="$maildir" \
  GOTRUE_RATE_LIMIT_TOKEN_REFRESH=100000 GOTRUE_RATE_LIMIT_OTP=100000 GOTRUE_RATE_LIMIT_VERIFY=100000 \
  GOTRUE_RATE_LIMIT_ANONYMOUS_USERS=100000 GOTRUE_RATE_LIMIT_EMAIL_SENT=100000 GATEWAY_RATE_LIMIT_ACCOUNT=100000 \
  RUST_LOG=warn "$GATEWAY_BIN" serve > "$out/gateway.log" 2>&1 &
  local gw=$!
  for _ in $(seq 1 100); do curl -sf http://127.0.0.1:54321/auth/v1/health >/dev/null && break; sleep 0.2; done
  set +e
  (cd "$suite" && node_modules/.bin/jest --ci --config jest.config.cli.js --runInBand --coverage=false --json \
      --outputFile="$out/client.json" test/GoTrueClient.test.ts -t "$client_filter") > "$out/client.log" 2>&1
  (cd "$suite" && node_modules/.bin/jest --ci --config jest.config.cli.js --runInBand --coverage=false --json \
      --outputFile="$out/api.json" test/GoTrueApi.test.ts -t "$api_filter") > "$out/api.log" 2>&1
  set -e
  kill "$gw"; wait "$gw" 2>/dev/null || true
  rm -rf "$maildir"
}

# The describes in scope (auth.md §13); AUTHJS_CLIENT_FILTER / AUTHJS_API_FILTER widen them for exploration.
client_filter=${AUTHJS_CLIENT_FILTER:-'Sessions|Email Auth|signUp|signInWithPassword|signIn\(\)|Signout|User management|getClaims|fetchJwk|signInAnonymously'}
api_filter=${AUTHJS_API_FILTER:-'User creation|Get user|User deletes|signOut'}
export -f run
export suite client_filter api_filter
"$root/scripts/with-test-db.sh" bash -c run
conformance_verdict auth-js "$suite/results/client.json" "$suite/results/api.json"
