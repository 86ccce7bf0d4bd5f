// Read replicas (issue 28): a gateway with a streaming standby in GATEWAY_READ_REPLICA_URLS, judged by supabase-js.
// GET and HEAD read from the standby, as the caller's role under row-level security, and everything else runs on the
// primary (a view and a function that say `pg_is_in_recovery()` show where each request ran); a standby whose replay is paused (`pg_wal_replay_pause()`)
// serves stale reads within the lag bound and is skipped past it; `X-Read-From: primary` reads a client's own write at
// once; a schema change is read from the primary until the standby has replayed it; a stopped standby fails no read.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { freshDir, stopCluster } from '../ops/lib/stack.mjs';
import { gatewayOn, metric, scrape, sleep, startPrimary, startStandby } from './lib/topology.mjs';

const MAX_LAG_MS = 3000;
const FIXTURES = `
  create table public.scale_items (id bigint primary key, note text);
  grant select on public.scale_items to anon;
  grant select, insert on public.scale_items to service_role;
  create view public.scale_where with (security_invoker = true) as select pg_is_in_recovery() as standby;
  grant select on public.scale_where to anon;
  create function public.scale_standby() returns boolean language sql stable as 'select pg_is_in_recovery()';
  grant execute on function public.scale_standby() to anon;
  create table public.scale_private (id int primary key, owner uuid);
  alter table public.scale_private enable row level security;
  create policy own on public.scale_private for select to anon, authenticated using (owner = auth.uid());
  grant select on public.scale_private to anon, service_role;
  insert into public.scale_private values (1, gen_random_uuid());
`;

let dir;
let primary;
let standby;
let gw;
let anon;
let service;

before(async () => {
  dir = freshDir('scale-replica');
  primary = startPrimary(dir);
  primary.sql(FIXTURES);
  standby = await startStandby(dir, primary);
  gw = await gatewayOn(primary, dir, 'gw', {
    GATEWAY_READ_REPLICA_URLS: standby.url(),
    GATEWAY_READ_REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
    GATEWAY_READ_REPLICA_CHECK_MS: '100',
    GATEWAY_HTTP_WORKERS: '2',
    PGRST_DB_POOL: '4',
  });
  const options = { auth: { persistSession: false, autoRefreshToken: false }, realtime: { transport: WebSocket } };
  anon = createClient(gw.url, gw.anonKey, options);
  service = createClient(gw.url, gw.serviceKey, options);
  await until('the standby in use', async () => (await usable()) === 1);
});

after(async () => {
  await gw?.stop().catch(() => {});
  await standby?.stop().catch(() => {});
  if (dir) {
    stopCluster(dir);
    rmSync(dir, { recursive: true, force: true });
  }
});

const usable = async () => metric((await scrape(gw)) ?? '', 'gateway_db_replica_usable', { replica: '0' });
const replicaReads = async () => metric((await scrape(gw)) ?? '', 'gateway_rest_reads_total', { source: 'replica' }) ?? 0;
/** Where a GET of the view ran (true: the standby), after checking it answered. */
const onStandby = async (builder = anon.from('scale_where').select()) => {
  const { data, error, status } = await builder;
  assert.equal(status, 200, JSON.stringify(error));
  return data[0].standby;
};

async function until(what, check, limitMs = 20000) {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

test('GET and HEAD read from the standby under the caller\'s role and RLS; writes, POST calls and X-Read-From: primary run on the primary', async () => {
  assert.equal(await onStandby(), true, 'a view read by GET');
  const get = await anon.rpc('scale_standby', {}, { get: true });
  assert.equal(get.data, true, `a function called by GET: ${JSON.stringify(get.error)}`);
  const post = await anon.rpc('scale_standby');
  assert.equal(post.data, false, `a function called by POST: ${JSON.stringify(post.error)}`);
  assert.equal(await onStandby(anon.from('scale_where').select().setHeader('X-Read-From', 'primary')), false);
  const before = await replicaReads();
  const head = await anon.from('scale_items').select('*', { count: 'exact', head: true });
  assert.equal(head.status, 200, JSON.stringify(head.error));
  assert.equal((await replicaReads()) - before, 1, 'the HEAD was counted as read on the standby');
  // the standby runs reads as the caller's role, under the same row-level security
  const reads = await replicaReads();
  const hidden = await anon.from('scale_private').select();
  assert.deepEqual([hidden.status, hidden.data], [200, []], 'anon sees no row it does not own');
  const all = await service.from('scale_private').select('id');
  assert.deepEqual(all.data, [{ id: 1 }], 'service_role bypasses row-level security');
  assert.equal((await replicaReads()) - reads, 2, 'both read on the standby');
  // a write on the standby would fail (read-only): it runs on the primary
  const insert = await service.from('scale_items').insert({ id: 1, note: 'first' }).select();
  assert.equal(insert.status, 201, JSON.stringify(insert.error));
});

test('a standby whose replay is paused serves stale reads within the bound, is skipped past it, and returns once it catches up', async () => {
  await standby.sql('select pg_wal_replay_pause()');
  const written = await service.from('scale_items').insert({ id: 2, note: 'while paused' }).select();
  assert.equal(written.status, 201, JSON.stringify(written.error));
  const wroteAt = Date.now();
  // reads may lag writes: the standby has not replayed the insert
  const stale = await anon.from('scale_items').select().eq('id', 2);
  assert.equal(stale.status, 200);
  assert.deepEqual(stale.data, [], 'read on the paused standby, within the bound');
  // a client reading its own write asks for the primary
  const own = await anon.from('scale_items').select().eq('id', 2).setHeader('X-Read-From', 'primary');
  assert.deepEqual(own.data, [{ id: 2, note: 'while paused' }]);
  // past the bound the standby is skipped: the same read finds the row on the primary, and no read failed
  const statuses = [];
  await until('the row read without asking for the primary', async () => {
    const r = await anon.from('scale_items').select().eq('id', 2);
    statuses.push(r.status);
    return r.data?.length === 1;
  });
  const skippedAfter = Date.now() - wroteAt;
  assert.deepEqual([...new Set(statuses)], [200]);
  assert.equal(await onStandby(), false);
  assert.equal(await usable(), 0);
  const lag = metric((await scrape(gw)) ?? '', 'gateway_db_replica_lag_seconds', { replica: '0' });
  assert.ok(lag * 1000 > MAX_LAG_MS, `the standby's lag (${lag} s) is past the bound`);

  await standby.sql('select pg_wal_replay_resume()');
  const resumed = Date.now();
  await until('the standby in use again', () => onStandby());
  console.log(
    `paused standby: stale reads until the bound (${MAX_LAG_MS} ms), read from the primary ${skippedAfter} ms after the write; ` +
      `in use again ${Date.now() - resumed} ms after replay resumed (lag then ${lag.toFixed(1)} s); ${statuses.length} reads, all 200`,
  );
  const caughtUp = await anon.from('scale_items').select().eq('id', 2);
  assert.deepEqual(caughtUp.data, [{ id: 2, note: 'while paused' }]);
});

test('a schema change is read from the primary until the standby has replayed it', async () => {
  await standby.sql('select pg_wal_replay_pause()');
  primary.sql(`create table public.scale_late (id int primary key);
    grant select on public.scale_late to anon; insert into public.scale_late values (1);`);
  // the schema cache reloads on the DDL's NOTIFY pgrst; the table is never missing where it is read
  const statuses = [];
  await until('the new table served', async () => {
    const r = await anon.from('scale_late').select();
    statuses.push(r.status);
    return r.status === 200 && r.data.length === 1;
  });
  assert.ok(statuses.every((s) => s === 200 || s === 404), `only "not in the schema cache yet" before: ${statuses}`);
  assert.equal(await onStandby(), false, 'reads stay on the primary while the standby lacks the new schema');
  await standby.sql('select pg_wal_replay_resume()');
  await until('the standby in use again', () => onStandby());
  const fromStandby = await anon.from('scale_late').select();
  assert.deepEqual(fromStandby.data, [{ id: 1 }]);
});

test('a stopped standby fails no read: reads fall back to the primary and return to the standby once it is back', async () => {
  let running = true;
  const results = [];
  const loops = Array.from({ length: 4 }, async () => {
    while (running) {
      const started = Date.now();
      const r = await anon.from('scale_items').select('id').order('id');
      results.push({ started, ms: Date.now() - started, status: r.status, ok: r.data?.length >= 2 });
    }
  });
  await sleep(500);
  const stoppedAt = Date.now();
  await standby.stop();
  await until('the standby judged down', async () => (await usable()) === 0);
  const judgedDown = Date.now() - stoppedAt;
  await sleep(1000);
  const startedAt = Date.now();
  await standby.start();
  await until('the standby in use again', () => onStandby());
  const back = Date.now() - startedAt;
  const replicaBefore = await replicaReads();
  await until('reads on the standby again', async () => (await replicaReads()) > replicaBefore + 20);
  running = false;
  await Promise.all(loops);
  const failed = results.filter((r) => r.status !== 200 || !r.ok);
  const during = results.filter((r) => r.started >= stoppedAt && r.started <= startedAt + back);
  console.log(
    `stopped standby: ${results.length} reads, ${failed.length} failed; judged down ${judgedDown} ms after it stopped ` +
      `(reads fell back at once), in use ${back} ms after it started; slowest read meanwhile ${Math.max(...during.map((r) => r.ms))} ms`,
  );
  assert.deepEqual(failed, []);
});
