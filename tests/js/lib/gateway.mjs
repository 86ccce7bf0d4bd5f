// Starts the real gateway binary on a fresh database cloned from the migrated template of the throwaway cluster
// that scripts/with-test-db.sh started, and gives a supabase-js client factory for it.
import { spawn, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';

function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run through scripts/with-test-db.sh (make test)`);
  return v;
}

/** psql against a database of the test cluster as the superuser; returns stdout (tuples only, unaligned). */
export function psql(db, sql) {
  const port = need('TEST_PGPORT');
  return execFileSync('psql', ['-qAtX', '-v', 'ON_ERROR_STOP=1', `postgres://postgres@127.0.0.1:${port}/${db}`, '-c', sql], {
    encoding: 'utf8',
  }).trim();
}

/**
 * Starts a gateway. `env` adds or overrides variables. `sql` runs as superuser on the new database before start.
 * Returns { url, anonKey, serviceKey, db, sql(q), client(key?, opts?), stop() }.
 */
export async function startGateway({ env = {}, sql = null } = {}) {
  const port = need('TEST_PGPORT');
  const password = need('TEST_AUTHENTICATOR_PASSWORD');
  const db = `t_${randomUUID().replaceAll('-', '')}`;
  psql('postgres', `create database "${db}" template "${need('TEST_TEMPLATE_DB')}"`);
  if (sql) psql(db, sql);
  // Mail (auth mail, the outbox) and stored objects go to a temporary folder unless the test names its own.
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-data-'));
  const child = spawn(need('GATEWAY_BIN'), ['serve'], {
    env: {
      ...process.env,
      DATABASE_URL: `postgres://authenticator:${password}@127.0.0.1:${port}/${db}`,
      GATEWAY_ADMIN_DB_URI: `postgres://postgres@127.0.0.1:${port}/${db}`,
      PORT: '0',
      GATEWAY_MAIL_DIR: join(dataDir, 'mail'),
      FILE_STORAGE_BACKEND_PATH: join(dataDir, 'storage'),
      RUST_LOG: process.env.TEST_LOG ? 'debug' : 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
    if (process.env.TEST_LOG) process.stderr.write(d);
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${stderr}`)), 20000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on ([0-9.:]+)\)/);
      if (m) {
        clearTimeout(timer);
        resolve(`http://${m[1]}`);
      }
    });
    child.on('exit', (code) => reject(new Error(`gateway exited with ${code}:\n${stderr}`)));
  }).catch((e) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  });
  const keys = execFileSync(need('GATEWAY_BIN'), ['keys'], {
    env: { ...process.env, GATEWAY_ADMIN_DB_URI: `postgres://postgres@127.0.0.1:${port}/${db}` },
    encoding: 'utf8',
  });
  const anonKey = keys.match(/anon key: (\S+)/)[1];
  const serviceKey = keys.match(/service_role key: (\S+)/)[1];
  const clientAt = (at, key = anonKey, options = {}) =>
    createClient(at, key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket },
      ...options,
    });
  const stopProcessOnly = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.on('exit', r)));
  };
  return {
    url,
    db,
    anonKey,
    serviceKey,
    sql: (q) => psql(db, q),
    client: (key = anonKey, options = {}) => clientAt(url, key, options),
    /** A client for another gateway process serving the same database. */
    clientAt,
    /** Stops the gateway but keeps its database (to restart one on it). */
    stopProcessOnly,
    stop: async () => {
      await stopProcessOnly();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
