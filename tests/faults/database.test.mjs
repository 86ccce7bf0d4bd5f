// Faults of the database (issue 14, cases 1 and 3): PostgreSQL restarted under load, and a pool held by slow
// queries. Requests fail fast with PostgREST's 503 body (never a 500, never a hang), dead pooled connections are
// dropped, service is back within 2 s of the database, and no write answered 2xx is missing. Clients that give up
// mid-request (issue 29) cost no new connection and leave no statement running.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { freshDir, repoDir } from '../ops/lib/stack.mjs';
import { call, isPostgrestError, load, openStack, restartCluster, serviceHeaders, sleep, statusCounts, waitFor } from './lib/faults.mjs';

let stack;
before(() => {
  stack = openStack('database');
  stack.cluster.sql(`create table public.fault_writes (id bigserial primary key, tag text unique not null);
    grant select, insert on public.fault_writes to service_role;
    grant usage on sequence public.fault_writes_id_seq to service_role;
    create function public.fault_slow(secs float8) returns int language sql as 'select 1 from pg_sleep(secs)';
    grant execute on function public.fault_slow(float8) to service_role;`);
});
after(() => stack?.close());

const ready = (gw) =>
  waitFor('the schema cache to see fault_writes', async () =>
    (await call(`${gw.url}/rest/v1/fault_writes?limit=1`, { headers: serviceHeaders(gw) })).status === 200);

test('PostgreSQL restarted under load: 503s in PostgREST shape, back within 2 s, no lost acknowledged write', async () => {
  const gw = await stack.gateway({ PGRST_DB_POOL: '4', PGRST_DB_POOL_ACQUISITION_TIMEOUT: '2' });
  await ready(gw);
  const bucket = await call(`${gw.url}/storage/v1/bucket`, { method: 'POST', headers: serviceHeaders(gw), body: '{"name":"faults"}' });
  assert.equal(bucket.status, 200, bucket.text);
  let done = false;
  const step = (w, i) => {
    if ((w + i) % 5 === 4) return call(`${gw.url}/auth/v1/admin/users?per_page=1`, { headers: serviceHeaders(gw) });
    if (i % 2 === 0) {
      const tag = randomUUID();
      return call(`${gw.url}/rest/v1/fault_writes`, {
        method: 'POST',
        headers: serviceHeaders(gw, { prefer: 'return=minimal' }),
        body: JSON.stringify({ tag }),
      }).then((r) => ({ ...r, tag }));
    }
    if (i % 4 === 1) return call(`${gw.url}/rest/v1/fault_writes?select=id&order=id.desc&limit=5`, { headers: serviceHeaders(gw) });
    // Storage and Auth share the outage: 503 too, never 500
    if (i % 4 === 3) {
      return call(`${gw.url}/storage/v1/object/list/faults`, { method: 'POST', headers: serviceHeaders(gw), body: '{"prefix":""}' });
    }
    return call(`${gw.url}/rest/v1/fault_writes?select=id&order=id.desc&limit=5`, { headers: serviceHeaders(gw) });
  };
  const running = load(6, step, () => done);
  const probes = load(1, () => Promise.all(['health', 'ready'].map((p) => call(`${gw.url}/${p}`, {}, 5000)))
    .then(([health, ready]) => ({ at: performance.now(), health, ready })), () => done);
  await sleep(1000);
  const { stoppedAt, upAt } = await restartCluster(stack.dir, 1000);
  await sleep(4000);
  done = true;
  const results = await running;
  const probed = await probes;

  const counts = statusCounts(results);
  const during = results.filter((r) => r.started >= stoppedAt && r.started < upAt);
  const failures = results.filter((r) => r.status !== 200 && r.status !== 201);
  const lastFailureEnd = Math.max(...failures.map((r) => r.started + r.ms), upAt);
  const recoveredMs = Math.round(lastFailureEnd - upAt);
  const slowest = Math.round(Math.max(...results.map((r) => r.ms)));
  const codes = failures.reduce((acc, r) => {
    const code = r.json?.error_code ? `auth:${r.json.error_code}` : r.json?.code;
    return (acc[code] = (acc[code] ?? 0) + 1), acc;
  }, {});
  console.log(`restart: ${results.length} requests ${JSON.stringify(counts)} (503 codes ${JSON.stringify(codes)}), ${during.length} while down,` +
    ` last failure ended ${recoveredMs} ms after the database was back, slowest ${slowest} ms`);

  assert.ok(during.length > 0, 'requests were made while the database was down');
  assert.ok(failures.length > 0, 'the outage was seen');
  for (const r of failures) {
    assert.equal(r.status, 503, `only 503 while the database is away, got ${r.status}: ${r.text}`);
    if (new URL(r.url).pathname.startsWith('/rest/')) assert.ok(isPostgrestError(r.json), `PostgREST's error body: ${r.text}`);
  }
  assert.ok(slowest < 6000, `no request hangs (slowest ${slowest} ms)`);
  assert.ok(recoveredMs <= 2000, `service back within 2 s of the database (${recoveredMs} ms)`);
  assert.ok(results.some((r) => r.started > lastFailureEnd && r.status === 201), 'writes succeed after recovery');

  assert.ok(probed.every((p) => p.health.status === 200), 'GET /health answers 200 throughout');
  const notReady = probed.filter((p) => p.ready.status !== 200);
  assert.ok(notReady.length > 0, 'GET /ready reports the outage');
  for (const p of notReady) {
    assert.equal(p.ready.status, 503, p.ready.text);
    assert.equal(p.ready.json?.reason, 'database unavailable', p.ready.text);
  }
  assert.equal(probed.at(-1).ready.status, 200, 'GET /ready is 200 again');

  const acknowledged = results.filter((r) => r.tag && r.status === 201).map((r) => r.tag);
  const stored = new Set(stack.cluster.sql('select tag from public.fault_writes').split('\n'));
  const lost = acknowledged.filter((t) => !stored.has(t));
  assert.deepEqual(lost, [], `every write answered 201 is stored (${acknowledged.length} acknowledged)`);
});

test('GET /ready: 200 when every app migration is applied, 503 naming those pending', async () => {
  const migrations = join(repoDir, 'sql', 'migrations');
  const gw = await stack.gateway({ GATEWAY_MIGRATIONS_DIR: migrations });
  const ready = await call(`${gw.url}/ready`);
  assert.equal(ready.status, 200, ready.text);
  assert.deepEqual(ready.json, { status: 'ready' });
  const ahead = freshDir('faults-migrations');
  cpSync(migrations, ahead, { recursive: true });
  writeFileSync(join(ahead, '9999_not_yet.sql'), 'select 1;');
  const behind = await stack.gateway({ GATEWAY_MIGRATIONS_DIR: ahead });
  const pending = await call(`${behind.url}/ready`);
  rmSync(ahead, { recursive: true });
  assert.equal(pending.status, 503, pending.text);
  assert.deepEqual(pending.json, { status: 'unavailable', reason: 'migrations pending', pending: ['9999_not_yet'] });
  const health = await call(`${behind.url}/health`);
  assert.deepEqual([health.status, health.json], [200, { status: 'ok' }]);
});

test('pool held by slow queries: waiting requests get 503 PGRST003 after the acquisition timeout, then recover', async () => {
  const gw = await stack.gateway({ PGRST_DB_POOL: '2', PGRST_DB_POOL_ACQUISITION_TIMEOUT: '1', GATEWAY_HTTP_WORKERS: '1' });
  await ready(gw);
  const slow = () =>
    call(`${gw.url}/rest/v1/rpc/fault_slow`, { method: 'POST', headers: serviceHeaders(gw), body: '{"secs": 3}' });
  const holders = [slow(), slow()];
  await waitFor('both slow calls to hold a connection', () =>
    Number(stack.cluster.sql("select count(*) from pg_stat_activity where query like '%fault_slow%' and state = 'active' and pid <> pg_backend_pid()")) >= 2);
  const waiting = await Promise.all(
    Array.from({ length: 4 }, () => call(`${gw.url}/rest/v1/fault_writes?limit=1`, { headers: serviceHeaders(gw) })),
  );
  for (const r of waiting) {
    assert.equal(r.status, 503, r.text);
    assert.equal(r.json?.code, 'PGRST003', r.text);
    assert.ok(isPostgrestError(r.json), r.text);
    assert.ok(r.headers.get('retry-after'), 'Retry-After is set');
    assert.ok(r.ms >= 900 && r.ms < 4000, `answered once the 1 s acquisition timeout passed (${Math.round(r.ms)} ms)`);
  }
  console.log(`pool exhaustion: waiters answered 503 PGRST003 in ${waiting.map((r) => Math.round(r.ms)).join(', ')} ms`);
  for (const r of await Promise.all(holders)) assert.equal(r.status, 200, r.text);
  const after = await Promise.all(
    Array.from({ length: 4 }, () => call(`${gw.url}/rest/v1/fault_writes?limit=1`, { headers: serviceHeaders(gw) })),
  );
  assert.deepEqual(after.map((r) => r.status), [200, 200, 200, 200], 'the pool recovers on its own');
});

test('clients that give up mid-request: the pooled connections are kept and no abandoned statement runs on', async () => {
  const gw = await stack.gateway({ PGRST_DB_POOL: '2', PGRST_DB_POOL_ACQUISITION_TIMEOUT: '5', GATEWAY_HTTP_WORKERS: '1' });
  await ready(gw);
  const slow = (secs, limitMs) =>
    call(`${gw.url}/rest/v1/rpc/fault_slow`, { method: 'POST', headers: serviceHeaders(gw), body: JSON.stringify({ secs }) }, limitMs);
  // both pooled connections opened, then the gateway's backends noted
  for (const r of await Promise.all([slow(0.2), slow(0.2)])) assert.equal(r.status, 200, r.text);
  const backends = () =>
    stack.cluster.sql("select string_agg(pid || ' ' || backend_start, ', ' order by pid) from pg_stat_activity where usename = 'authenticator'");
  const before = backends();
  for (let round = 0; round < 5; round++) {
    // a short call finishes in the background, a long one is cancelled on PostgreSQL's side
    const gaveUp = await Promise.all([slow(0.3, 100), slow(30, 100)]);
    assert.deepEqual(gaveUp.map((r) => r.status), [0, 0], 'the client gave up before an answer');
  }
  for (const r of await Promise.all([slow(0), slow(0), slow(0), slow(0)])) assert.equal(r.status, 200, r.text);
  assert.equal(backends(), before, 'no pooled connection was replaced');
  await waitFor('no abandoned statement to run on', () =>
    stack.cluster.sql("select count(*) from pg_stat_activity where query like '%pg_sleep%' and state = 'active' and pid <> pg_backend_pid()") === '0');
});
