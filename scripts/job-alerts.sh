#!/usr/bin/env bash
# `make job-alerts`: sends every job alert digest that is due now (one pass of private.run_job_alerts, the same
# pass pg_cron runs every 15 minutes) and prints what it did as JSON. The mail goes through the outbox: a running
# gateway delivers it. Safe to repeat: nothing is sent twice.
#   AS_OF=<timestamp>   run the pass as of another time (tests move the clock; default now)
#   MAX_MAILS=<n>       at most this many digests in this pass (default the limit:job_alert_mails_per_pass setting)
#   Database: GATEWAY_ADMIN_DB_URI when set, else `make run`'s private cluster (scripts/lib/owner-db.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd); cd "$root"
. scripts/lib/owner-db.sh
psql -qAtX -v ON_ERROR_STOP=1 "$db" -v as_of="${AS_OF:-now}" -v max_mails="${MAX_MAILS:-}" <<'SQL'
select private.run_job_alerts(:'as_of'::timestamptz, nullif(:'max_mails', '')::int);
SQL
