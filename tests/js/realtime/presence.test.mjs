// Presence through supabase-js: track, sync across clients, untrack, leave on disconnect, Realtime's limit of
// presence calls per channel, and presence on a private channel gated by the presence policies (read and write
// on realtime.messages with extension 'presence', separately from broadcast).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gatewayForFile, anonClient, clientWithToken, userToken, subscribe, waitFor, sleep } from './support.mjs';

// crew:1 — everyone signed in may read its broadcasts; only tokens with crew = yes may see and join its presence
const POLICIES = `
  create policy "crew presence read" on realtime.messages for select to authenticated
    using (realtime.topic() = 'crew:1' and extension = 'presence' and (auth.jwt() ->> 'crew') = 'yes');
  create policy "crew presence write" on realtime.messages for insert to authenticated
    with check (realtime.topic() = 'crew:1' and extension = 'presence' and (auth.jwt() ->> 'crew') = 'yes');
  create policy "crew broadcast read" on realtime.messages for select to authenticated
    using (realtime.topic() = 'crew:1' and extension = 'broadcast');
`;

let gw;
gatewayForFile({ sql: POLICIES }, (g) => (gw = g));

function presenceChannel(client, room, key, config = {}) {
  const ch = client.channel(room, { config: { presence: { key }, ...config } });
  const events = { joins: [], leaves: [] };
  ch.on('presence', { event: 'sync' }, () => {});
  ch.on('presence', { event: 'join' }, (e) => events.joins.push(e));
  ch.on('presence', { event: 'leave' }, (e) => events.leaves.push(e));
  return { ch, events };
}

for (const vsn of ['2.0.0', '1.0.0']) {
  test(`vsn ${vsn}: track syncs to others, untrack and disconnect leave`, async () => {
    const room = `lobby-${vsn}`;
    const a = anonClient(gw, { vsn });
    const b = anonClient(gw, { vsn });
    const pa = presenceChannel(a, room, 'alice');
    const pb = presenceChannel(b, room, 'bob');
    assert.equal((await subscribe(pa.ch)).status, 'SUBSCRIBED');
    assert.equal((await subscribe(pb.ch)).status, 'SUBSCRIBED');
    assert.equal(await pa.ch.track({ online_at: 'now' }), 'ok');
    await waitFor(() => pb.ch.presenceState().alice, 5000, 'alice in bob\'s state');
    const [meta] = pb.ch.presenceState().alice;
    assert.equal(meta.online_at, 'now');
    assert.equal(typeof meta.presence_ref, 'string');
    assert.equal(await pb.ch.track({ status: 'typing' }), 'ok');
    await waitFor(() => pa.ch.presenceState().bob, 5000, 'bob in alice\'s state');
    // a late joiner gets the whole state
    const c = anonClient(gw, { vsn });
    const pc = presenceChannel(c, room, 'carol');
    assert.equal((await subscribe(pc.ch)).status, 'SUBSCRIBED');
    await waitFor(() => pc.ch.presenceState().alice && pc.ch.presenceState().bob, 5000, 'full state on join');
    assert.equal(await pb.ch.untrack(), 'ok');
    await waitFor(() => !pa.ch.presenceState().bob, 5000, 'bob untracked');
    // closing alice's socket makes her leave
    a.realtime.disconnect();
    await waitFor(() => !pc.ch.presenceState().alice, 5000, 'alice left on disconnect');
    assert.ok(pc.events.leaves.some((e) => e.key === 'alice'));
    await b.removeAllChannels();
    await c.removeAllChannels();
  });
}

test('the sixth presence call within 30 s closes the channel with Realtime\'s system error', async () => {
  const a = anonClient(gw);
  const ch = a.channel('busy', { config: { presence: { key: 'k' } } });
  const system = [];
  ch.on('system', {}, (m) => system.push(m));
  ch.on('presence', { event: 'sync' }, () => {});
  const statuses = [];
  await new Promise((resolve) => ch.subscribe((s) => (statuses.push(s), s === 'SUBSCRIBED' && resolve())));
  for (let i = 0; i < 5; i++) assert.equal(await ch.track({ i }), 'ok');
  ch.track({ i: 6 });
  await waitFor(() => system.length > 0, 5000, 'the system error');
  assert.equal(system[0].message, 'Client presence rate limit exceeded');
  assert.equal(system[0].status, 'error');
  await waitFor(() => statuses.includes('CLOSED'), 5000, 'the channel closed');
  await a.removeAllChannels();
});

test('presence on a private channel: the presence policies decide who sees and who may track', async () => {
  const crew = { extra: { crew: 'yes' } };
  const a = await clientWithToken(gw, await userToken(gw, undefined, crew));
  const b = await clientWithToken(gw, await userToken(gw, undefined, crew));
  const outsider = await clientWithToken(gw, await userToken(gw));
  const join = async (client, key) => {
    const p = presenceChannel(client, 'crew:1', key, { private: true });
    const { status, err } = await subscribe(p.ch);
    assert.equal(status, 'SUBSCRIBED', err?.message);
    return p;
  };
  const pa = await join(a, 'alice');
  const pb = await join(b, 'bob');
  const po = await join(outsider, 'oscar');
  assert.equal(await pa.ch.track({ role: 'lead' }), 'ok');
  assert.equal(await pb.ch.track({ role: 'crew' }), 'ok');
  await waitFor(() => pa.ch.presenceState().bob && pb.ch.presenceState().alice, 5000, 'the crew see each other');
  assert.equal(pa.ch.presenceState().alice[0].role, 'lead');
  // the outsider may read the room's broadcasts (so the join succeeds) but neither sees nor joins its presence
  assert.equal(await po.ch.track({ role: 'spy' }), 'error');
  await sleep(500);
  assert.deepEqual(po.ch.presenceState(), {}, 'no presence_state or diff for a token without presence read');
  assert.ok(!pa.ch.presenceState().oscar);
  // anon has no read policy at all: refused
  const refused = await subscribe(anonClient(gw).channel('crew:1', { config: { private: true, presence: { key: 'x' } } }));
  assert.equal(refused.status, 'CHANNEL_ERROR');
  // leaving is seen by the crew
  await pb.ch.unsubscribe();
  await waitFor(() => !pa.ch.presenceState().bob, 5000, 'bob left');
  for (const c of [a, b, outsider]) await c.removeAllChannels();
});
