// postgres_changes lose nothing while the gateway runs, and the replication slot's life is bounded: changes
// committed one after another at speed, each checked under RLS the moment it is decoded, all arrive (a commit can
// reach the gateway before it is visible to new snapshots); a change committed while the replication connection
// is down (its walsender terminated) still arrives, once; a batch whose delivery keeps failing (the dispatcher
// cannot reach the database) is held and delivered later, never dropped;
// the slot is permanent while someone listens and is dropped when the gateway stops, after the last subscriber
// leaves, and — left by a killed gateway — by another instance on the same database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  TABLES, gatewayForFile, anonClient, clientWithToken, userToken, subscribe, waitFor, sleep, instanceOn,
} from './support.mjs';

let gw;
gatewayForFile({ sql: TABLES, env: { REALTIME_SLOT_IDLE_MS: '500' } }, (g) => (gw = g));

/** The gateways' slots on this test's database: `[{ name, temporary, active, pid }]`. */
function slots(on = gw) {
  const out = on.sql(
    `select slot_name || '|' || temporary || '|' || active || '|' || coalesce(active_pid, 0) from pg_replication_slots
     where database = current_database() and slot_name like 'supabase\\_realtime\\_%' order by slot_name`,
  );
  return out
    ? out.split('\n').map((l) => {
        const [name, temporary, active, pid] = l.split('|');
        return { name, temporary: temporary === 'true', active: active === 'true', pid: Number(pid) };
      })
    : [];
}

/** An anon client's channel hearing inserts into rt_notes; resolves once subscribed to PostgreSQL. */
async function notesChannel(on, name) {
  const c = anonClient(on);
  const ch = c.channel(name);
  const ids = [];
  const system = [];
  ch.on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'rt_notes' }, (p) => ids.push(p.new.id));
  ch.on('system', {}, (m) => system.push(m));
  assert.equal((await subscribe(ch)).status, 'SUBSCRIBED');
  await waitFor(() => system.some((m) => m.status === 'ok'), 10000, 'subscribed to PostgreSQL');
  return { c, ch, ids };
}

test('changes committed one after another at speed all arrive, each checked under RLS', async () => {
  gw.sql(`create procedure public.rt_burst(owner uuid, n int) language plpgsql as $$
    begin
      for i in 1..n loop
        insert into public.rt_todos (owner, title) values (owner, 'burst ' || i);
        commit;
        perform pg_sleep(0.005);
      end loop;
    end $$`);
  const user = randomUUID();
  const c = await clientWithToken(gw, await userToken(gw, user));
  const ch = c.channel('burst');
  const titles = [];
  const system = [];
  ch.on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'rt_todos' }, (p) => titles.push(p.new.title));
  ch.on('system', {}, (m) => system.push(m));
  assert.equal((await subscribe(ch)).status, 'SUBSCRIBED');
  await waitFor(() => system.some((m) => m.status === 'ok'), 10000, 'subscribed to PostgreSQL');
  gw.sql(`call public.rt_burst('${user}', 150)`);
  await waitFor(() => titles.length >= 150, 15000, 'all 150 changes');
  await sleep(300);
  assert.deepEqual(titles, Array.from({ length: 150 }, (_, i) => `burst ${i + 1}`), 'each once, in commit order');
  await c.removeAllChannels();
});

test('a change committed while the replication connection is down arrives, once', async () => {
  const { c, ids } = await notesChannel(gw, 'walsender');
  gw.sql(`insert into public.rt_notes values (100, 'before', 1)`);
  await waitFor(() => ids.includes(100), 8000, 'the first change');
  const [held] = slots();
  assert.ok(held && !held.temporary && held.active, 'a permanent slot, held by the gateway');
  // end the walsender (as a PostgreSQL restart would) and commit while nobody streams the slot
  gw.sql(`select pg_terminate_backend(${held.pid}, 5000); insert into public.rt_notes values (101, 'while down', 1)`);
  await waitFor(() => ids.includes(101), 15000, 'the change committed while the stream was down');
  gw.sql(`insert into public.rt_notes values (102, 'after', 1)`);
  await waitFor(() => ids.includes(102), 8000, 'the change after the reconnect');
  await sleep(500);
  assert.deepEqual(ids, [100, 101, 102], 'each once, in commit order');
  const [resumed] = slots();
  assert.equal(resumed.name, held.name, 'the same slot, resumed');
  assert.notEqual(resumed.pid, held.pid, 'by a new replication connection');
  await c.removeAllChannels();
});

test('a batch whose delivery keeps failing is held until it can be delivered, not dropped', async () => {
  const { c, ids } = await notesChannel(gw, 'dispatch');
  gw.sql(`insert into public.rt_notes values (200, 'warm-up', 1)`);
  await waitFor(() => ids.includes(200), 8000, 'the first change');
  // the dispatcher's connection is gone and new ones are refused (the pool's open connections keep working)
  gw.sql(`revoke connect on database "${gw.db}" from public`);
  try {
    gw.sql(`select pg_terminate_backend(pid, 5000) from pg_stat_activity where application_name = 'gateway realtime'`);
    gw.sql(`insert into public.rt_notes values (201, 'held', 1)`);
    await sleep(3000); // several failed attempts (the previous code gave up after three, 1.5 s)
    assert.deepEqual(ids, [200], 'not delivered while the database refuses the dispatcher');
  } finally {
    gw.sql(`grant connect on database "${gw.db}" to public`);
  }
  await waitFor(() => ids.includes(201), 20000, 'the held change once the dispatcher can connect');
  gw.sql(`insert into public.rt_notes values (202, 'after', 1)`);
  await waitFor(() => ids.includes(202), 8000, 'the next change');
  await sleep(300);
  assert.deepEqual(ids, [200, 201, 202]);
  await c.removeAllChannels();
});

test('the slot goes when the last subscriber leaves and when the gateway stops', async () => {
  const { c } = await notesChannel(gw, 'lifetime');
  assert.equal(slots().length, 1);
  await c.removeAllChannels();
  await waitFor(() => slots().length === 0, 8000, 'the slot dropped after REALTIME_SLOT_IDLE_MS');

  const other = await instanceOn(gw);
  const { c: c2 } = await notesChannel(other, 'stopping');
  await waitFor(() => slots().length === 1, 5000, "the other instance's slot");
  await other.stop(); // SIGTERM: a clean shutdown drops it
  assert.deepEqual(slots(), [], 'no slot left by a stopped gateway');
  c2.realtime.disconnect();
});

test("a killed gateway's slot is dropped by another instance on the same database", async () => {
  const doomed = await instanceOn(gw);
  const { c } = await notesChannel(doomed, 'killed');
  await waitFor(() => slots().length === 1, 5000, 'its slot');
  await doomed.kill(); // SIGKILL: nothing is cleaned up
  c.realtime.disconnect();
  await waitFor(() => slots().some((s) => !s.active), 5000, 'the slot left inactive');
  const sweeper = await instanceOn(gw, { REALTIME_SLOT_ORPHAN_MS: '1500' });
  try {
    await waitFor(() => slots().length === 0, 15000, 'the orphaned slot swept');
  } finally {
    await sweeper.stop();
  }
});
