// Two gateway instances on one database behave as one service, and a restarted gateway is rejoined by the
// clients by themselves: broadcast and presence cross instances through PostgreSQL, each change reaches each
// subscriber once, and changes committed after the rejoin are heard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TABLES, startRealtime, anonClient, subscribe, waitFor, sleep, closeClients, instanceOn } from './support.mjs';
import { after } from 'node:test';

after(() => closeClients());

/** A second gateway process on the same database as `gw`. */
const secondInstance = (gw, env = {}) => instanceOn(gw, { CHANNEL_ERROR_BACKOFF_MS: '200', ...env });

test('two instances: broadcast and presence cross over, each change is delivered once per subscriber', async () => {
  const gw = await startRealtime({ sql: TABLES });
  const other = await secondInstance(gw);
  try {
    const a = anonClient(gw);
    const b = anonClient(other);
    const ca = a.channel('both', { config: { presence: { key: 'on-a' } } });
    const cb = b.channel('both', { config: { presence: { key: 'on-b' } } });
    const seenA = [];
    const seenB = [];
    const changesA = [];
    const changesB = [];
    for (const [ch, seen, changes] of [[ca, seenA, changesA], [cb, seenB, changesB]]) {
      ch.on('broadcast', { event: 'msg' }, (m) => seen.push(m.payload));
      ch.on('presence', { event: 'sync' }, () => {});
      ch.on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'rt_notes' }, (p) => changes.push(p.new.id));
    }
    const sysA = [];
    const sysB = [];
    ca.on('system', {}, (m) => sysA.push(m));
    cb.on('system', {}, (m) => sysB.push(m));
    assert.equal((await subscribe(ca)).status, 'SUBSCRIBED');
    assert.equal((await subscribe(cb)).status, 'SUBSCRIBED');
    await waitFor(() => sysA.length && sysB.length, 10000, 'both subscribed to PostgreSQL');
    await sleep(500); // the instances hear each other's hello
    await ca.send({ type: 'broadcast', event: 'msg', payload: { from: 'a' } });
    await cb.send({ type: 'broadcast', event: 'msg', payload: { from: 'b', big: 'x'.repeat(20000) } });
    await waitFor(() => seenB.length === 1 && seenA.length === 1, 5000, 'cross-instance broadcasts');
    assert.deepEqual(seenB[0], { from: 'a' });
    assert.equal(seenA[0].big.length, 20000, 'a payload over NOTIFY\'s limit went through the relay table');
    await ca.track({ here: 'a' });
    await cb.track({ here: 'b' });
    await waitFor(() => ca.presenceState()['on-b'] && cb.presenceState()['on-a'], 5000, 'presence across instances');
    gw.sql(`insert into public.rt_notes values (501, 'x', 1), (502, 'y', 2)`);
    await waitFor(() => changesA.length === 2 && changesB.length === 2, 8000, 'changes on both instances');
    await sleep(500);
    assert.deepEqual(changesA, [501, 502]);
    assert.deepEqual(changesB, [501, 502], 'once each, in commit order');
    // the other instance stops: its presences leave
    await other.stop();
    await waitFor(() => !ca.presenceState()['on-b'], 8000, 'presence of the stopped instance left');
    await a.removeAllChannels();
    b.realtime.disconnect();
  } finally {
    await other.stop().catch(() => {});
    await gw.stop();
  }
});

test('a gateway restart: the client rejoins by itself and hears changes committed after the rejoin', async () => {
  const first = await startRealtime({ sql: TABLES });
  const port = new URL(first.url).port;
  const again = await secondInstance(first, { PORT: port }).catch(() => null);
  assert.equal(again, null, 'the port is taken while the first runs');
  const c = anonClient(first);
  const ch = c.channel('restart');
  const system = [];
  const ids = [];
  ch.on('system', {}, (m) => system.push(m));
  ch.on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'rt_notes' }, (p) => ids.push(p.new.id));
  assert.equal((await subscribe(ch)).status, 'SUBSCRIBED');
  await waitFor(() => system.length === 1, 10000, 'subscribed to PostgreSQL');
  // stop the process but keep the database, then start a new gateway on the same port
  await first.stopProcessOnly();
  const restarted = await secondInstance(first, { PORT: port });
  try {
    await waitFor(() => system.length >= 2, 20000, 'the rejoin subscribed to PostgreSQL again');
    first.sql(`insert into public.rt_notes values (900, 'after', 1)`);
    await waitFor(() => ids.includes(900), 8000, 'the change after the rejoin');
    assert.equal(ids.filter((i) => i === 900).length, 1);
    await c.removeAllChannels();
  } finally {
    await restarted.stop();
    await first.stop();
  }
});
