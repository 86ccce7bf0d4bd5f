// Tools for the fault suite (make faults): a private cluster per file (tests/ops/lib/stack.mjs), restarting it,
// timed requests that never hang the test, concurrent load loops, and waiting for a condition.
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freshDir, migrate, repoDir, startCluster, startGateway, stopCluster } from '../../ops/lib/stack.mjs';

export { startGateway };
const execFileAsync = promisify(execFile);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A migrated private cluster in a fresh folder; `close()` stops it and removes the folder. */
export function openStack(name) {
  const dir = freshDir(`faults-${name}`);
  const cluster = startCluster(dir);
  migrate(cluster);
  const closers = [];
  return {
    dir,
    cluster,
    /** A gateway on this stack (closed with the stack). */
    gateway: async (env = {}) => {
      const gw = await startGateway(cluster, dir, { GATEWAY_HTTP_WORKERS: '2', ...env });
      closers.push(() => gw.stop());
      return gw;
    },
    close: async () => {
      for (const c of closers.reverse()) await c().catch(() => {});
      stopCluster(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Stops the cluster (fast mode: sessions are cut), keeps it down `downMs`, starts it again on the same port.
 * Asynchronous, so load keeps flowing meanwhile. Returns when it accepts connections, with the times. */
export async function restartCluster(dir, downMs) {
  const script = join(repoDir, 'scripts', 'pg-cluster.sh');
  const stoppedAt = performance.now();
  await execFileAsync(script, ['stop', join(dir, 'pg')]);
  await sleep(downMs);
  await execFileAsync(script, ['start', join(dir, 'pg')], { env: { ...process.env, PG_CRON_DATABASE: 'app' } });
  return { stoppedAt, upAt: performance.now() };
}

/** One request with a hard time limit; never throws. Returns { status (0: no answer), json, text, ms, headers }. */
export async function call(url, options = {}, limitMs = 15000) {
  const started = performance.now();
  try {
    const res = await fetch(url, { ...options, signal: AbortSignal.timeout(limitMs) });
    const text = await res.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {}
    return { url, status: res.status, text, json, headers: res.headers, started, ms: performance.now() - started };
  } catch (e) {
    return { url, status: 0, text: String(e?.cause ?? e), json: null, started, ms: performance.now() - started };
  }
}

/** Runs `step(worker, i)` in `workers` loops until `stop()` is true; returns every step's result in order. */
export async function load(workers, step, stop) {
  const results = [];
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let i = 0; !stop(); i++) results.push(await step(w, i));
    }),
  );
  return results;
}

/** Polls `check()` every 50 ms until it returns a truthy value or `limitMs` passes (then throws `what`). */
export async function waitFor(what, check, limitMs = 10000) {
  const until = performance.now() + limitMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Headers of a service_role call to the data API. */
export const serviceHeaders = (gw, extra = {}) => ({
  apikey: gw.serviceKey,
  authorization: `Bearer ${gw.serviceKey}`,
  'content-type': 'application/json',
  ...extra,
});

/** Whether a body is PostgREST's error shape: { code, message, details, hint }. */
export const isPostgrestError = (json) =>
  json !== null && typeof json === 'object' && ['code', 'message', 'details', 'hint'].every((k) => k in json);

/** Counts of each status in a list of results, e.g. { 201: 40, 503: 3 }. */
export const statusCounts = (results) =>
  results.reduce((acc, r) => ((acc[r.status] = (acc[r.status] ?? 0) + 1), acc), {});
