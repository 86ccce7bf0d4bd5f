#!/usr/bin/env python3
"""U1's pattern against a real gateway, printing its resident memory (issue 30, finding 1). Signs up, stores a
200 KB bio in user_metadata (PUT /auth/v1/user) and refreshes, so the access token carries it when the gateway lets
it; then 40 requests to /rest/v1 with that token and a different 100 KB `apikey` each (the two together stay under
the HTTP server's 400 KB of headers), then 40 with the anon key as bearer and a different 300 KB `apikey` each. Prints VmRSS after start, after each round, and the growth.
    GATEWAY_BIN=target/debug/gateway [ROUNDS=40] scripts/with-test-db.sh python3 tests/security/identity-cache-rss.py
Measures, asserts nothing: compare the figures of two builds (tests/security/FAIL-BEFORE.md has them)."""
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
import uuid

ROUNDS = int(os.environ.get("ROUNDS", "40"))


def env(name):
    value = os.environ.get(name)
    if not value:
        sys.exit(f"{name} is not set: run through scripts/with-test-db.sh")
    return value


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        kb = int(re.search(r"VmRSS:\s+(\d+) kB", f.read()).group(1))
    return kb / 1024


def request(url, method="GET", headers=None, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req) as res:
            return res.status, json.loads(res.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def main():
    port, password = env("TEST_PGPORT"), env("TEST_AUTHENTICATOR_PASSWORD")
    gateway = os.environ.get("GATEWAY_BIN", "target/debug/gateway")
    db = "rss_" + uuid.uuid4().hex
    admin = f"postgres://postgres@127.0.0.1:{port}"
    subprocess.run(["psql", "-qX", f"{admin}/postgres", "-c", f'create database "{db}" template "{env("TEST_TEMPLATE_DB")}"'], check=True)
    tmp = tempfile.mkdtemp(prefix="gw-rss-")
    child = subprocess.Popen([gateway, "serve"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env={
        **os.environ, "DATABASE_URL": f"postgres://authenticator:{password}@127.0.0.1:{port}/{db}",
        "GATEWAY_ADMIN_DB_URI": f"{admin}/{db}", "PORT": "0", "GOTRUE_MAILER_AUTOCONFIRM": "true",
        "GATEWAY_MAIL_DIR": f"{tmp}/mail", "FILE_STORAGE_BACKEND_PATH": f"{tmp}/storage", "RUST_LOG": "error"})
    try:
        for line in child.stdout:
            m = re.search(r"listening on ([0-9.:]+)\)", line)
            if m:
                base = f"http://{m.group(1)}"
                break
        keys = subprocess.run([gateway, "keys"], capture_output=True, text=True, check=True,
                              env={**os.environ, "GATEWAY_ADMIN_DB_URI": f"{admin}/{db}"}).stdout
        anon = re.search(r"anon key: (\S+)", keys).group(1)
        auth = {"apikey": anon}
        status, session = request(f"{base}/auth/v1/signup", "POST", auth, {"email": "rss@example.org", "password": "a long password 1"})
        token = session["access_token"]
        status, _ = request(f"{base}/auth/v1/user", "PUT", {**auth, "authorization": f"Bearer {token}"}, {"data": {"bio": "x" * 200_000}})
        print(f"PUT /auth/v1/user with a 200 KB bio: {status}")
        status, refreshed = request(f"{base}/auth/v1/token?grant_type=refresh_token", "POST", auth, {"refresh_token": session["refresh_token"]})
        token = refreshed["access_token"]
        print(f"access token after the refresh: {len(token)} bytes; GET /rest/v1/jobs with it: "
              f"{request(f'{base}/rest/v1/jobs?select=id', headers={**auth, 'authorization': f'Bearer {token}'})[0]}")
        start = rss_mb(child.pid)
        print(f"RSS after start and sign-up: {start:.1f} MB")
        statuses = set()
        for i in range(ROUNDS):
            junk = f"{i:04d}" + "k" * 100_000
            statuses.add(request(f"{base}/rest/v1/jobs?select=id", headers={"apikey": junk, "authorization": f"Bearer {token}"})[0])
        first = rss_mb(child.pid)
        print(f"RSS after {ROUNDS} requests with that token and a unique 100 KB apikey: {first:.1f} MB "
              f"(+{first - start:.1f} MB; answers {sorted(statuses)})")
        statuses = set()
        for i in range(ROUNDS):
            junk = f"{i:04d}" + "j" * 300_000
            statuses.add(request(f"{base}/rest/v1/jobs?select=id", headers={"apikey": junk, "authorization": f"Bearer {anon}"})[0])
        second = rss_mb(child.pid)
        print(f"RSS after {ROUNDS} requests with the anon key and a unique 300 KB apikey: {second:.1f} MB "
              f"(+{second - first:.1f} MB; answers {sorted(statuses)})")
        print(f"RSS growth over both rounds: +{second - start:.1f} MB")
    finally:
        child.terminate()
        child.wait()
        subprocess.run(["psql", "-qX", f"{admin}/postgres", "-c", f'drop database if exists "{db}"'], check=False)
        subprocess.run(["rm", "-rf", tmp], check=False)


if __name__ == "__main__":
    main()
