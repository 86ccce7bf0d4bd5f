// Prometheus metrics on GATEWAY_METRICS_ADDR: requests by API and status with latency histograms, pool gauges and
// the outbox backlog, served on their own loopback port (not on the main port); a non-loopback address is refused.
// JSON logs carry the request id returned in x-request-id.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { after, test } from 'node:test';
import { freshDir, gatewayBin, migrate, startCluster, startGateway, stopCluster } from './lib/stack.mjs';

const dir = freshDir('ops-metrics');
const cluster = startCluster(dir);
migrate(cluster);
const cleanups = [() => (stopCluster(dir), rmSync(dir, { recursive: true, force: true }))];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The value of one sample line `name{labels} value`, or undefined. */
const sample = (text, name, labels) => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && labels.every((p) => l.includes(p)));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
};

test('metrics: requests by API and status, latency histograms, pools and the outbox backlog', async () => {
  const port = await freePort();
  const gw = await startGateway(cluster, dir, { GATEWAY_METRICS_ADDR: `127.0.0.1:${port}` });
  cleanups.push(() => gw.stop());
  const headers = { apikey: gw.anonKey };
  for (let i = 0; i < 3; i++) assert.equal((await fetch(`${gw.url}/rest/v1/jobs?limit=1`, { headers })).status, 200);
  assert.equal((await fetch(`${gw.url}/rest/v1/jobs`, { headers: { ...headers, authorization: 'Bearer x' } })).status, 401);
  assert.equal((await fetch(`${gw.url}/health`)).status, 200);
  cluster.sql("select gateway.enqueue_mail('metrics@example.com', 'Queued', 'body')");
  await sleep(1500);

  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  assert.equal(sample(text, 'gateway_http_requests_total', ['api="rest"', 'status="200"']), 3, text);
  assert.equal(sample(text, 'gateway_http_requests_total', ['api="rest"', 'status="401"']), 1);
  assert.equal(sample(text, 'gateway_http_requests_total', ['api="probe"', 'status="200"']), 1);
  assert.equal(sample(text, 'gateway_http_request_duration_seconds_bucket', ['api="rest"', 'le="+Inf"']), 4);
  assert.ok(sample(text, 'gateway_http_request_duration_seconds_bucket', ['api="rest"', 'le="10"']) >= 4);
  assert.notEqual(sample(text, 'gateway_db_pool_connections', ['pool="rest"', 'state="idle"']), undefined, 'pool gauges');
  assert.equal(sample(text, 'gateway_db_pool_waiting', ['pool="shared"']), 0);
  assert.match(text, /^gateway_realtime_sockets 0/m, "Realtime sockets");
  assert.match(text, /^gateway_outbox_queued \d+/m, 'outbox backlog');
  assert.match(text, /^gateway_outbox_oldest_age_seconds [\d.e+-]+/m, 'age of the oldest queued message');
  assert.equal((await fetch(`${gw.url}/metrics`)).headers.get('content-type')?.includes('text/plain; version'), false,
    'not served on the main port');
});

test('JSON logs carry the request id that the response returns in x-request-id', async () => {
  const gw = await startGateway(cluster, dir, { GATEWAY_LOG_FORMAT: 'json', RUST_LOG: 'warn,gateway::monitoring=debug' });
  cleanups.push(() => gw.stop());
  const given = await fetch(`${gw.url}/rest/v1/jobs?limit=1`, { headers: { apikey: gw.anonKey, 'x-request-id': 'trace-me-1' } });
  assert.equal(given.headers.get('x-request-id'), 'trace-me-1');
  const made = await fetch(`${gw.url}/health`, { headers: { 'x-request-id': 'not ok!' } });
  assert.match(made.headers.get('x-request-id'), /^[0-9a-f]{32}$/, 'a malformed id is replaced');
  await sleep(200);
  const lines = gw.stderr().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  const answered = lines.find((l) => l.span?.request_id === 'trace-me-1' && l.fields?.message === 'answered');
  assert.ok(answered, `a JSON log line with the request id:\n${gw.stderr().slice(-1500)}`);
  assert.equal(answered.fields.status, 200);
  assert.equal(answered.span.path, '/rest/v1/jobs');
  assert.ok(lines.some((l) => l.span?.request_id === made.headers.get('x-request-id')), 'the generated id is logged too');
});

test('metrics: a non-loopback GATEWAY_METRICS_ADDR is refused at start', () => {
  const env = { ...process.env, ...cluster.env, DATABASE_URL: `postgres://authenticator:${cluster.password()}@127.0.0.1:${cluster.port}/app`,
    PORT: '0', GATEWAY_METRICS_ADDR: '0.0.0.0:9464' };
  const run = () => execFileSync(gatewayBin, ['serve'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 20000 });
  assert.throws(run, (e) => e.status === 1 && /not a loopback address/.test(e.stderr));
});
