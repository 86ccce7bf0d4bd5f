// The parts of a scaled-out deployment, started on this machine for tests/scale: a PostgreSQL primary (as make run
// starts it, migrated), a streaming standby made by `pg_basebackup -R` (scripts/pg-cluster.sh replica), moto's S3
// server with a bucket, gateways on fixed ports (so a restarted one is found again) and HAProxy in front with the
// configuration in docs/haproxy.cfg. Everything listens on loopback only.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { migrate, repoDir, startCluster, startGateway } from '../../ops/lib/stack.mjs';

const execFileAsync = promisify(execFile);
const pgCluster = join(repoDir, 'scripts', 'pg-cluster.sh');
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A port nothing listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** The primary: a private cluster in `dir/pg`, migrated with the app's migrations (tests/ops/lib/stack.mjs). */
export function startPrimary(dir) {
  const cluster = startCluster(dir);
  migrate(cluster);
  return cluster;
}

/** A hot standby of the primary in `dir/pg`, in `dir/replica`: `{ port, url(db), sql(q), stop(), start() }`, where
 *  `url` is the pool user's connection string for the gateway's GATEWAY_READ_REPLICA_URLS. */
export async function startStandby(dir, primary) {
  const folder = join(dir, 'replica');
  const out = (await execFileAsync(pgCluster, ['replica', folder, join(dir, 'pg')])).stdout;
  const port = out.match(/PGPORT=(\d+)/)[1];
  const env = { ...process.env, PGPASSFILE: out.match(/PGPASSFILE=(\S+)/)[1] };
  const admin = `postgres://postgres@127.0.0.1:${port}`;
  return {
    port,
    url: (db = 'app') => `postgres://authenticator:${primary.password()}@127.0.0.1:${port}/${db}`,
    sql: async (q, db = 'app') =>
      (await execFileAsync('psql', ['-qAtX', '-v', 'ON_ERROR_STOP=1', `${admin}/${db}`, '-c', q], { env })).stdout.trim(),
    stop: () => execFileAsync(pgCluster, ['stop', folder]),
    start: () => execFileAsync(pgCluster, ['start', folder, port]),
  };
}

/** moto's S3 server (PyPI `moto[s3,server]`) with one bucket: `{ url, bucket, env, keys(), stop() }`; `env` is the
 *  gateway's S3 backend configuration. */
export async function startMoto(bucket = 'gateway-objects') {
  const port = await freePort();
  const child = spawn('python3', ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const res = await fetch(`${url}/${bucket}`, { method: 'PUT' }).catch(() => null);
    if (res?.ok) break;
    if (i > 300 || child.exitCode !== null) throw new Error('moto_server did not start (pip install "moto[s3,server]")');
    await sleep(100);
  }
  return {
    url,
    bucket,
    env: {
      STORAGE_BACKEND: 's3',
      GLOBAL_S3_BUCKET: bucket,
      GLOBAL_S3_ENDPOINT: url,
      GLOBAL_S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      REGION: 'us-east-1',
    },
    /** The keys stored in the bucket. */
    keys: async () => {
      const xml = await (await fetch(`${url}/${bucket}?list-type=2&max-keys=100000`)).text();
      return [...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1]);
    },
    stop: () => child.kill('SIGTERM'),
  };
}

/** A gateway on a fixed port with its own staging folder; `restart()` serves the same port again after a stop. */
export async function gatewayOn(primary, dir, name, env) {
  const port = await freePort();
  const metricsPort = await freePort();
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  const own = {
    PORT: String(port),
    GATEWAY_METRICS_ADDR: `127.0.0.1:${metricsPort}`,
    FILE_STORAGE_BACKEND_PATH: join(folder, 'storage'),
    GATEWAY_MAIL_DIR: join(folder, 'mail'),
  };
  const gw = { name, port, addr: `127.0.0.1:${port}`, url: `http://127.0.0.1:${port}`, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` };
  gw.restart = async () => {
    gw.process = await startGateway(primary, dir, { ...env, ...own });
    Object.assign(gw, { anonKey: gw.process.anonKey, serviceKey: gw.process.serviceKey });
    return gw;
  };
  gw.stop = async () => {
    gw.process.child.kill('SIGTERM');
    await gw.process.exited;
  };
  gw.kill = async () => {
    gw.process.child.kill('SIGKILL');
    await gw.process.exited;
  };
  return gw.restart();
}

/** The sum of a Prometheus counter or gauge (every series whose labels include `labels`) in a metrics page. */
export function metric(text, name, labels = {}) {
  let sum = null;
  for (const line of text.split('\n')) {
    const m = line.match(/^(\w+)(?:\{([^}]*)\})? (\S+)$/);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum = (sum ?? 0) + Number(m[3]);
  }
  return sum;
}

/** A gateway's metrics page, or null when it does not answer. */
export async function scrape(gw) {
  try {
    const res = await fetch(gw.metricsUrl, { signal: AbortSignal.timeout(2000) });
    return res.ok ? await res.text() : null;
  } catch {
    return null;
  }
}

/** HAProxy (Debian's package) with docs/haproxy.cfg and any further files, the addresses in its environment; every
 *  request it logs (docs/haproxy.cfg logs to stdout) is kept by its request id: `{ url, logged(id), stop() }`. */
export async function startHaproxy(gateways, extraFiles = [], extraEnv = {}) {
  const lbPort = await freePort();
  const env = { ...process.env, LB_ADDR: `127.0.0.1:${lbPort}`, ...extraEnv };
  gateways.forEach((gw, i) => (env[`GW${i + 1}_ADDR`] = gw.addr));
  const files = [join(repoDir, 'docs', 'haproxy.cfg'), ...extraFiles].flatMap((f) => ['-f', f]);
  const child = spawn('haproxy', ['-db', ...files], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const byId = new Map();
  const lines = [];
  let rest = '';
  let errors = '';
  child.stdout.on('data', (d) => {
    const read = (rest + d).split('\n');
    rest = read.pop();
    for (const line of read) {
      lines.push(line);
      const entry = parseLog(line);
      if (entry) byId.set(entry.id, entry);
    }
  });
  child.stderr.on('data', (d) => (errors += d));
  const url = `http://127.0.0.1:${lbPort}`;
  for (let i = 0; ; i++) {
    const res = await fetch(`${url}/health`).catch(() => null);
    if (res?.ok) break;
    if (i > 200 || child.exitCode !== null) throw new Error(`haproxy did not start:\n${errors}`);
    await sleep(50);
  }
  return {
    url,
    logged: (id) => byId.get(id),
    /** Every line HAProxy logged. */
    lines: () => lines,
    errors: () => errors,
    stop: () => child.kill('SIGTERM'),
  };
}

/** One line of HAProxy's HTTP log (`option httplog` with the request id captured): server, status, termination
 *  state and request id; null for other lines. */
export function parseLog(line) {
  const m = line.match(/ (\S+)\/(\S+) \S+ (-?\d+) \S+ \S+ \S+ (\S{4}) \S+ \S+ \{([^}]*)\}/);
  return m && { backend: m[1], server: m[2], status: Number(m[3]), termination: m[4], id: m[5] };
}
