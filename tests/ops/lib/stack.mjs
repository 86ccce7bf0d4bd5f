// A make-run-like stack for the operations suites: a private cluster with pg_cron for database `app`
// (scripts/pg-cluster.sh, as scripts/run.sh starts it), migrated by the gateway binary, and gateways serving it.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const gatewayBin = process.env.GATEWAY_BIN || join(repoDir, 'target', 'debug', 'gateway');

/** A fresh folder the postgres user can reach (under /tmp, mode 755). */
export function freshDir(prefix) {
  const dir = mkdtempSync(`/tmp/${prefix}-`);
  chmodSync(dir, 0o755);
  return dir;
}

function run(cmd, args, env = {}) {
  return execFileSync(cmd, args, { cwd: repoDir, env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Starts (or restarts) the cluster of DATA_DIR/pg as make run does; returns { port, password, admin, sql(q) }. */
export function startCluster(dataDir) {
  const out = run(join(repoDir, 'scripts', 'pg-cluster.sh'), ['start', join(dataDir, 'pg')], { PG_CRON_DATABASE: 'app' });
  const port = out.match(/PGPORT=(\d+)/)[1];
  const admin = `postgres://postgres@127.0.0.1:${port}`;
  const sql = (q, db = 'app') => run('psql', ['-qAtX', '-v', 'ON_ERROR_STOP=1', `${admin}/${db}`, '-c', q]).trim();
  return { port, admin, sql, password: () => readFileSync(join(dataDir, 'pg', 'authenticator_password'), 'utf8').trim() };
}

export function stopCluster(dataDir) {
  if (existsSync(join(dataDir, 'pg'))) run(join(repoDir, 'scripts', 'pg-cluster.sh'), ['stop', join(dataDir, 'pg')]);
}

/** `gateway migrate` with the app's migrations, as make run does (creating database app first when new). */
export function migrate(cluster) {
  if (cluster.sql("select count(*) from pg_database where datname = 'app'", 'postgres') === '0') {
    cluster.sql('create database app', 'postgres');
  }
  const out = run(gatewayBin, ['migrate'], {
    GATEWAY_ADMIN_DB_URI: `${cluster.admin}/app`,
    GATEWAY_MIGRATIONS_DIR: join(repoDir, 'sql', 'migrations'),
  });
  cluster.sql(`alter role authenticator password '${cluster.password()}'`, 'postgres');
  return out;
}

/** Serves the stack on a free port; returns { url, anonKey, serviceKey, stop() }. */
export async function startGateway(cluster, dataDir, env = {}) {
  const common = {
    DATABASE_URL: `postgres://authenticator:${cluster.password()}@127.0.0.1:${cluster.port}/app`,
    GATEWAY_ADMIN_DB_URI: `${cluster.admin}/app`,
    FILE_STORAGE_BACKEND_PATH: join(dataDir, 'storage'),
    GATEWAY_MAIL_DIR: join(dataDir, 'mail'),
  };
  const child = spawn(gatewayBin, ['serve'], {
    env: { ...process.env, ...common, PORT: '0', GATEWAY_HOST: '127.0.0.1', RUST_LOG: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${stderr}`)), 30000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on ([0-9.:]+)\)/);
      if (m) resolve(`http://${m[1]}`, clearTimeout(timer));
    });
    child.on('exit', (code) => reject(new Error(`gateway exited with ${code}:\n${stderr}`)));
  });
  const keys = run(gatewayBin, ['keys'], common);
  return {
    url,
    anonKey: keys.match(/anon key: (\S+)/)[1],
    serviceKey: keys.match(/service_role key: (\S+)/)[1],
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.on('exit', r)));
    },
  };
}

/** Runs a make target in the checkout with extra variables; returns { status, output }. */
export function make(target, vars) {
  try {
    const args = ['-s', target, ...Object.entries(vars).map(([k, v]) => `${k}=${v}`)];
    return { status: 0, output: run('make', args) };
  } catch (e) {
    return { status: e.status, output: `${e.stdout}${e.stderr}` };
  }
}
