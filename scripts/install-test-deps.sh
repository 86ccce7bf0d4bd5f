#!/usr/bin/env bash
# Installs what the test suites need on a Debian machine, skipping what is already there:
# PostgreSQL 15 server binaries, pgTAP, PostGIS, pg_cron, Debian's Chromium (browser tests), poppler-utils
# (pdftotext), cargo-nextest, Python's aiosmtpd, curl and ss (tests/security), Supabase's official Python
# Realtime client (PyPI `realtime`) for tests/js/realtime/python.test.mjs, HAProxy (tests/scale) and moto's S3 server
# (PyPI `moto[s3,server]`: the S3 backend's tests, tests/scale).
set -euo pipefail
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
missing=()
[ -x /usr/lib/postgresql/15/bin/initdb ] || missing+=(postgresql)
command -v psql >/dev/null || missing+=(postgresql-client)
[ -f /usr/share/postgresql/15/extension/pgtap.control ] || missing+=(postgresql-15-pgtap)
[ -f /usr/share/postgresql/15/extension/postgis.control ] || missing+=(postgresql-15-postgis-3)
[ -f /usr/share/postgresql/15/extension/pg_cron.control ] || missing+=(postgresql-15-cron)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v pdftotext >/dev/null || missing+=(poppler-utils) # the Career Hub suite reads the exported PDF's text
command -v node >/dev/null || missing+=(nodejs npm)
command -v curl >/dev/null || missing+=(curl)
command -v ss >/dev/null || missing+=(iproute2)
command -v haproxy >/dev/null || missing+=(haproxy) # the load balancer of tests/scale (docs/haproxy.cfg)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
cargo nextest --version >/dev/null 2>&1 || cargo install --locked cargo-nextest
python3 -c 'import aiosmtpd' 2>/dev/null || python3 -m pip install -q aiosmtpd
python3 -c 'import jwt, cryptography' 2>/dev/null || python3 -m pip install -q 'pyjwt[crypto]'
python3 -c 'import realtime' 2>/dev/null || python3 -m pip install -q 'realtime==2.30.0'
python3 -c 'import moto.server' 2>/dev/null || python3 -m pip install -q 'moto[s3,server]==5.2.1'
# The official Python clients (supabase-py: supabase_auth, storage3) for tests/py, pinned, in a private virtualenv.
py_venv=tests/.tmp/py-venv
if ! "$py_venv/bin/python" -c 'import supabase, pytest' 2>/dev/null; then
  python3 -m venv "$py_venv" && "$py_venv/bin/pip" install -q supabase==2.34.1 pytest==8.3.4
fi
