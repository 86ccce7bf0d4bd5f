#!/usr/bin/env bash
# Runs the real auth-js test suite (supabase-js `packages/core/auth-js/test`) against the gateway on 127.0.0.1:54321,
# with the suite's RS256 signing key loaded through GOTRUE_JWT_KEYS (auth.md §13). The third-party tests are copied
# from the given checkout into a scratch folder and never into this repository.
#   tests/conformance/auth-js.sh [SUPABASE_JS_CHECKOUT]     (default /work/ext/supabase-js)
# Prints "N passed, N failed" at the end (jest's own summary is not a line our CI reads).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
checkout=${1:-/work/ext/supabase-js}
commit=$(git -C "$checkout" rev-parse HEAD)
scratch=${AUTHJS_SCRATCH:-$root/tests/.tmp/auth-js-$commit}
suite="$scratch/packages/core/auth-js"

if [ ! -d "$suite/node_modules/jest" ]; then
  mkdir -p "$scratch"
  git -C "$checkout" archive "$commit" packages/core/auth-js | tar -x -C "$scratch"
  git -C "$checkout" show "$commit:tsconfig.base.json" > "$scratch/tsconfig.base.json"
  (cd "$suite" && mv package.json package.json.orig && echo '{"name":"authjs-tests","private":true}' > package.json &&
    npm install --no-audit --no-fund --loglevel=error jest@30.4.2 ts-jest@29.4.9 typescript@5.8.3 @types/jest@30.0.0 \
      @types/node@20.19.9 @faker-js/faker@9 jsonwebtoken@9 @types/jsonwebtoken prettier@3 tslib@2.8.1 jest-mock-server@0.1.0)
fi
[ -f "$suite/test/supabase/signing_keys.json" ] || (cd "$suite" && node test/generate-signing-keys.js >/dev/null)

run() {
  local port=$TEST_PGPORT db="authjs_$$"
  psql -q "postgres://postgres@127.0.0.1:$port/postgres" -c "create database $db template $TEST_TEMPLATE_DB" >/dev/null
  local maildir; maildir=$(mktemp -d)
  GOTRUE_JWT_KEYS="$(cat "$suite/test/supabase/signing_keys.json")" \
  DATABASE_URL="postgres://authenticator:$TEST_AUTHENTICATOR_PASSWORD@127.0.0.1:$port/$db" \
  GATEWAY_ADMIN_DB_URI="postgres://postgres@127.0.0.1:$port/$db" \
  PORT=54321 GATEWAY_HOST=127.0.0.1 API_EXTERNAL_URL=http://127.0.0.1:54321 \
  GOTRUE_SITE_URL=http://127.0.0.1:3000 GOTRUE_URI_ALLOW_LIST="https://127.0.0.1:3000,http://localhost:5173" \
  GOTRUE_MAILER_AUTOCONFIRM=true GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED=true GOTRUE_PASSWORD_MIN_LENGTH=6 \
  GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL=10 GOTRUE_SMTP_MAX_FREQUENCY=1s GATEWAY_MAIL_DIR="$maildir" \
  GOTRUE_RATE_LIMIT_TOKEN_REFRESH=100000 GOTRUE_RATE_LIMIT_OTP=100000 GOTRUE_RATE_LIMIT_VERIFY=100000 \
  GOTRUE_RATE_LIMIT_ANONYMOUS_USERS=100000 GOTRUE_RATE_LIMIT_EMAIL_SENT=100000 GATEWAY_RATE_LIMIT_ACCOUNT=100000 \
  RUST_LOG=warn "$GATEWAY_BIN" serve > "$maildir/gateway.log" 2>&1 &
  local gw=$!
  for _ in $(seq 1 100); do curl -sf http://127.0.0.1:54321/auth/v1/health >/dev/null && break; sleep 0.2; done
  local out="$scratch/results"; mkdir -p "$out"; rm -f "$out"/*.json
  set +e
  (cd "$suite" && npx jest --ci --config jest.config.cli.js --runInBand --coverage=false --json \
      --outputFile="$out/client.json" test/GoTrueClient.test.ts \
      -t "$client_filter") \
      > "$out/client.log" 2>&1
  (cd "$suite" && npx jest --ci --config jest.config.cli.js --runInBand --coverage=false --json \
      --outputFile="$out/api.json" test/GoTrueApi.test.ts -t "$api_filter") \
      > "$out/api.log" 2>&1
  set -e
  kill "$gw"; wait "$gw" 2>/dev/null || true
  node -e '
    const fs = require("fs"); let p = 0, f = 0;
    for (const file of process.argv.slice(1)) {
      if (!fs.existsSync(file)) { console.log(`${file}: no results (see the .log beside it)`); f++; continue; }
      const r = JSON.parse(fs.readFileSync(file, "utf8"));
      for (const t of r.testResults) for (const a of t.assertionResults) {
        if (a.status === "passed") p++;
        else if (a.status === "failed") { f++; console.log(`FAIL ${a.fullName}: ${(a.failureMessages[0] || "").split("\n")[0]}`); }
      }
      console.log(`${file.split("/").pop()}: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
    }
    console.log(`${p} passed, ${f} failed`);
    process.exit(f ? 1 : 0);
  ' "$out/client.json" "$out/api.json"
}

# The describes in scope (auth.md §13); AUTHJS_CLIENT_FILTER / AUTHJS_API_FILTER widen them for exploration.
client_filter=${AUTHJS_CLIENT_FILTER:-'Sessions|Email Auth|signUp|signInWithPassword|signIn\(\)|Signout|User management|getClaims|fetchJwk|signInAnonymously'}
api_filter=${AUTHJS_API_FILTER:-'User creation|Get user|User deletes|signOut'}
export -f run
export suite scratch client_filter api_filter
"$root/scripts/with-test-db.sh" bash -c run
