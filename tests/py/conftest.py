"""Starts the real gateway binary on a fresh database cloned from the throwaway cluster's migrated template
(scripts/with-test-db.sh), for the official Python clients (supabase-py: supabase_auth, storage3) to run against."""

import os
import re
import subprocess
import tempfile
import threading
import uuid

import pytest


def _need(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: run through scripts/with-test-db.sh (make test)")
    return value


def _psql(db: str, sql: str) -> str:
    url = f"postgres://postgres@127.0.0.1:{_need('TEST_PGPORT')}/{db}"
    out = subprocess.run(["psql", "-qAtX", "-v", "ON_ERROR_STOP=1", url, "-c", sql], check=True,
                         capture_output=True, text=True)
    return out.stdout.strip()


class Gateway:
    """A running gateway: its URL, API keys and database name."""

    def __init__(self, env: dict):
        port, password = _need("TEST_PGPORT"), _need("TEST_AUTHENTICATOR_PASSWORD")
        self.db = "t_" + uuid.uuid4().hex
        _psql("postgres", f'create database "{self.db}" template "{_need("TEST_TEMPLATE_DB")}"')
        self.data = tempfile.mkdtemp(prefix="gw-py-")
        admin = f"postgres://postgres@127.0.0.1:{port}/{self.db}"
        full_env = {
            **os.environ,
            "DATABASE_URL": f"postgres://authenticator:{password}@127.0.0.1:{port}/{self.db}",
            "GATEWAY_ADMIN_DB_URI": admin,
            "PORT": "0",
            "GATEWAY_MAIL_DIR": os.path.join(self.data, "mail"),
            "FILE_STORAGE_BACKEND_PATH": os.path.join(self.data, "storage"),
            "RUST_LOG": "warn",
            **env,
        }
        self.proc = subprocess.Popen([_need("GATEWAY_BIN"), "serve"], env=full_env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.url = self._wait_listening()
        keys = subprocess.run([_need("GATEWAY_BIN"), "keys"], env={**os.environ, "GATEWAY_ADMIN_DB_URI": admin},
                              check=True, capture_output=True, text=True).stdout
        self.anon_key = re.search(r"anon key: (\S+)", keys).group(1)
        self.service_key = re.search(r"service_role key: (\S+)", keys).group(1)

    def _wait_listening(self) -> str:
        found = {}

        def read():
            for line in self.proc.stdout:
                m = re.search(r"listening on ([0-9.:]+)\)", line)
                if m and "url" not in found:
                    found["url"] = "http://" + m.group(1)
        threading.Thread(target=read, daemon=True).start()
        for _ in range(200):
            if "url" in found:
                return found["url"]
            if self.proc.poll() is not None:
                raise RuntimeError("gateway exited: " + self.proc.stderr.read())
            threading.Event().wait(0.1)
        raise RuntimeError("gateway did not start")

    def sql(self, query: str) -> str:
        return _psql(self.db, query)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def gateway():
    gw = Gateway({"GOTRUE_MAILER_AUTOCONFIRM": "true"})
    yield gw
    gw.stop()
