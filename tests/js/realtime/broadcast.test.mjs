// Broadcast through the stock supabase-js client (npm) on both protocol versions: self and ack, JSON and binary
// payloads, both REST endpoints (public, and private topics allowed or refused by the write policy), private
// channels authorised by RLS on realtime.messages (and refused by it), broadcast from the database (realtime.send,
// realtime.send_binary, realtime.broadcast_changes from a trigger), and sb_ keys checked against the configured ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { gatewayForFile, userToken, anonClient, clientWithToken, subscribe, collect, waitFor, sleep } from './support.mjs';

const POLICIES = `
  create policy "members read their rooms" on realtime.messages for select to authenticated
    using (realtime.topic() like 'member:%' and extension in ('broadcast', 'presence'));
  create policy "members write their rooms" on realtime.messages for insert to authenticated
    with check (realtime.topic() like 'member:%' and extension in ('broadcast', 'presence'));
`;

const PUBLISHABLE = 'sb_publishable_broadcast-suite';
let gw;
gatewayForFile({ sql: POLICIES, env: { SUPABASE_PUBLISHABLE_KEY: PUBLISHABLE } }, (g) => (gw = g));

for (const vsn of ['2.0.0', '1.0.0']) {
  test(`vsn ${vsn}: a public broadcast with self and ack reaches the sender and another client`, async () => {
    const a = anonClient(gw, { vsn, heartbeatIntervalMs: 500 });
    const b = anonClient(gw, { vsn });
    const room = `room-${vsn}`;
    const ca = a.channel(room, { config: { broadcast: { self: true, ack: true } } });
    const cb = b.channel(room);
    const seenA = collect(ca, 'broadcast', { event: 'msg' });
    const seenB = collect(cb, 'broadcast', { event: 'msg' });
    assert.equal((await subscribe(ca)).status, 'SUBSCRIBED');
    assert.equal((await subscribe(cb)).status, 'SUBSCRIBED');
    assert.equal(await ca.send({ type: 'broadcast', event: 'msg', payload: { hello: 'wörld' } }), 'ok');
    await waitFor(() => seenA.length === 1 && seenB.length === 1, 5000, 'both deliveries');
    assert.deepEqual(seenB[0].payload, { hello: 'wörld' });
    assert.equal(seenA[0].event, 'msg');
    // without self, the sender does not hear itself
    const other = cb.send({ type: 'broadcast', event: 'msg', payload: { n: 2 } });
    assert.equal(await other, 'ok');
    await waitFor(() => seenA.length === 2, 5000, 'the second message');
    await sleep(200);
    assert.equal(seenB.length, 1);
    await a.removeAllChannels();
    await b.removeAllChannels();
  });
}

test('vsn 2: binary payloads travel as kind-4 frames; vsn 1 subscribers never receive them', async () => {
  const a = anonClient(gw);
  const v1 = anonClient(gw, { vsn: '1.0.0' });
  const ca = a.channel('bin', { config: { broadcast: { self: true, ack: true } } });
  const c1 = v1.channel('bin');
  const seen = collect(ca, 'broadcast', { event: 'bytes' });
  const seen1 = collect(c1, 'broadcast', { event: '*' });
  assert.equal((await subscribe(ca)).status, 'SUBSCRIBED');
  assert.equal((await subscribe(c1)).status, 'SUBSCRIBED');
  const bytes = new Uint8Array([9, 8, 7]).buffer;
  assert.equal(await ca.send({ type: 'broadcast', event: 'bytes', payload: bytes }), 'ok');
  await waitFor(() => seen.length === 1, 5000, 'the binary broadcast');
  assert.ok(seen[0].payload instanceof ArrayBuffer);
  assert.deepEqual([...new Uint8Array(seen[0].payload)], [9, 8, 7]);
  await ca.send({ type: 'broadcast', event: 'json', payload: { after: true } });
  await waitFor(() => seen1.length === 1, 5000, 'the JSON broadcast on vsn 1');
  assert.deepEqual(seen1[0].payload, { after: true }, 'the binary one was never sent to vsn 1');
  await a.removeAllChannels();
  await v1.removeAllChannels();
});

test('REST: httpSend (JSON and bytes) and send() before joining (the batch endpoint) answer 202 and deliver', async () => {
  const listener = anonClient(gw);
  const ch = listener.channel('rest-room');
  const seen = collect(ch, 'broadcast', { event: '*' });
  assert.equal((await subscribe(ch)).status, 'SUBSCRIBED');
  const sender = anonClient(gw);
  const unjoined = sender.channel('rest-room');
  assert.deepEqual(await unjoined.httpSend('one', { via: 'httpSend' }), { success: true });
  assert.deepEqual(await unjoined.httpSend('two', new Uint8Array([1, 2, 3]).buffer), { success: true });
  assert.equal(await unjoined.send({ type: 'broadcast', event: 'three', payload: { via: 'batch' } }), 'ok');
  await waitFor(() => seen.length === 3, 5000, 'three REST broadcasts');
  const byEvent = Object.fromEntries(seen.map((m) => [m.event, m.payload]));
  assert.deepEqual(byEvent.one, { via: 'httpSend' });
  assert.deepEqual([...new Uint8Array(byEvent.two)], [1, 2, 3]);
  assert.deepEqual(byEvent.three, { via: 'batch' });
  // the REST endpoints refuse what Realtime refuses
  const bad = await fetch(`${gw.url}/realtime/v1/api/broadcast/x/events/y`, {
    method: 'POST',
    headers: { apikey: gw.anonKey, 'content-type': 'text/plain' },
    body: 'x',
  });
  assert.equal(bad.status, 415);
  const noKey = await fetch(`${gw.url}/realtime/v1/api/broadcast`, { method: 'POST', body: '{"messages":[]}' });
  assert.equal(noKey.status, 401);
  assert.deepEqual(await noKey.json(), { message: 'Unauthorized' });
  await listener.removeAllChannels();
});

for (const vsn of ['2.0.0', '1.0.0']) {
  test(`vsn ${vsn}: a private channel is joined and used as RLS on realtime.messages allows`, async () => {
    const token = await userToken(gw);
    const a = await clientWithToken(gw, token, { vsn });
    const b = await clientWithToken(gw, token, { vsn });
    const ca = a.channel('member:42', { config: { private: true, broadcast: { self: true, ack: true } } });
    const cb = b.channel('member:42', { config: { private: true } });
    const seenA = collect(ca, 'broadcast', { event: 'msg' });
    const seenB = collect(cb, 'broadcast', { event: 'msg' });
    assert.equal((await subscribe(ca)).status, 'SUBSCRIBED');
    assert.equal((await subscribe(cb)).status, 'SUBSCRIBED');
    // a public channel of the same name is another room
    const pub = anonClient(gw, { vsn }).channel('member:42');
    const seenPub = collect(pub, 'broadcast', { event: 'msg' });
    assert.equal((await subscribe(pub)).status, 'SUBSCRIBED');
    assert.equal(await ca.send({ type: 'broadcast', event: 'msg', payload: { secret: 1 } }), 'ok');
    await waitFor(() => seenA.length === 1 && seenB.length === 1, 5000, 'private deliveries');
    await sleep(200);
    assert.equal(seenPub.length, 0);
    await a.removeAllChannels();
    await b.removeAllChannels();
  });
}

test('a private channel the policies do not open is refused with Realtime\'s reason', async () => {
  const token = await userToken(gw);
  const c = await clientWithToken(gw, token);
  const ch = c.channel('staff:1', { config: { private: true } });
  const { status, err } = await subscribe(ch);
  assert.equal(status, 'CHANNEL_ERROR');
  assert.equal(err.message, 'Unauthorized: You do not have permissions to read from this Channel topic: staff:1');
  await c.removeAllChannels();
  // anon cannot join member rooms either (the policies are for authenticated)
  const anon = anonClient(gw);
  const refused = await subscribe(anon.channel('member:1', { config: { private: true } }));
  assert.equal(refused.status, 'CHANNEL_ERROR');
  await anon.removeAllChannels();
});

test('broadcast from the database: realtime.send() reaches private subscribers, and public ones when asked', async () => {
  const token = await userToken(gw);
  const c = await clientWithToken(gw, token);
  const priv = c.channel('member:db', { config: { private: true } });
  const pub = c.channel('public-db');
  const seenPriv = collect(priv, 'broadcast', { event: 'changed' });
  const seenPub = collect(pub, 'broadcast', { event: 'changed' });
  assert.equal((await subscribe(priv)).status, 'SUBSCRIBED');
  assert.equal((await subscribe(pub)).status, 'SUBSCRIBED');
  gw.sql(`select realtime.send('{"n": 1}'::jsonb, 'changed', 'member:db')`);
  gw.sql(`select realtime.send('{"n": 2}'::jsonb, 'changed', 'public-db', false)`);
  gw.sql(`begin; select realtime.send('{"n": 3}'::jsonb, 'changed', 'member:db'); rollback;`);
  await waitFor(() => seenPriv.length === 1 && seenPub.length === 1, 5000, 'database broadcasts');
  assert.equal(seenPriv[0].payload.n, 1);
  assert.ok(seenPriv[0].meta.id, 'the row id travels as meta.id');
  assert.equal(seenPriv[0].payload.id, seenPriv[0].meta.id);
  assert.equal(seenPub[0].payload.n, 2);
  await sleep(300);
  assert.equal(seenPriv.length, 1, 'a rolled-back send is never delivered');
  await c.removeAllChannels();
});

test('broadcast from the database: realtime.send_binary() and realtime.broadcast_changes() from a row trigger', async () => {
  gw.sql(`
    create table public.rt_rooms (id int primary key, name text);
    create function public.rt_rooms_broadcast() returns trigger language plpgsql security definer as $$
    begin
      perform realtime.broadcast_changes('member:room-' || coalesce(new.id, old.id), tg_op, tg_op, tg_table_name,
        tg_table_schema, new, old);
      return null;
    end $$;
    create trigger rt_rooms_broadcast after insert or update or delete on public.rt_rooms
      for each row execute function public.rt_rooms_broadcast();`);
  const token = await userToken(gw);
  const c = await clientWithToken(gw, token);
  const v1 = await clientWithToken(gw, token, { vsn: '1.0.0' });
  const room = c.channel('member:room-7', { config: { private: true } });
  const room1 = v1.channel('member:room-7', { config: { private: true } });
  const pub = anonClient(gw).channel('member:room-7');
  const seen = collect(room, 'broadcast', { event: '*' });
  const seen1 = collect(room1, 'broadcast', { event: '*' });
  const seenPub = collect(pub, 'broadcast', { event: '*' });
  for (const ch of [room, room1, pub]) assert.equal((await subscribe(ch)).status, 'SUBSCRIBED');
  gw.sql(`insert into public.rt_rooms values (7, 'seven')`);
  gw.sql(`update public.rt_rooms set name = 'SEVEN' where id = 7`);
  gw.sql(`delete from public.rt_rooms where id = 7`);
  gw.sql(`select realtime.send_binary('\\x010203'::bytea, 'bytes', 'member:room-7')`);
  await waitFor(() => seen.length === 4, 5000, 'three row changes and the bytes');
  assert.deepEqual(seen.slice(0, 3).map((m) => m.event), ['INSERT', 'UPDATE', 'DELETE']);
  const [ins, upd, del] = seen.map((m) => m.payload);
  assert.deepEqual(
    { record: ins.record, old_record: ins.old_record, operation: ins.operation, table: ins.table, schema: ins.schema },
    { record: { id: 7, name: 'seven' }, old_record: null, operation: 'INSERT', table: 'rt_rooms', schema: 'public' },
  );
  assert.deepEqual([upd.record.name, upd.old_record.name], ['SEVEN', 'seven']);
  assert.deepEqual([del.record, del.old_record], [null, { id: 7, name: 'SEVEN' }]);
  assert.ok(seen.slice(0, 3).every((m) => m.meta.id === m.payload.id), 'each row id as meta.id and payload.id');
  const bytes = seen[3];
  assert.equal(bytes.event, 'bytes');
  assert.ok(bytes.payload instanceof ArrayBuffer, 'send_binary arrives as a binary (kind-4) payload');
  assert.deepEqual([...new Uint8Array(bytes.payload)], [1, 2, 3]);
  assert.ok(bytes.meta.id);
  await waitFor(() => seen1.length === 3, 5000, 'the JSON ones on vsn 1');
  await sleep(300);
  assert.deepEqual(seen1.map((m) => m.event), ['INSERT', 'UPDATE', 'DELETE'], 'vsn 1 never gets the binary one');
  assert.equal(seenPub.length, 0, 'broadcast_changes is private: the public room of that name hears nothing');
  await c.removeAllChannels();
  await v1.removeAllChannels();
});

test('REST to a private topic: delivered where the write policy allows, refused (403 / skipped) where not', async () => {
  const token = await userToken(gw);
  const listener = await clientWithToken(gw, token);
  const member = listener.channel('member:rest', { config: { private: true } });
  const seen = collect(member, 'broadcast', { event: '*' });
  assert.equal((await subscribe(member)).status, 'SUBSCRIBED');
  const sender = await clientWithToken(gw, token);
  const unjoined = sender.channel('member:rest', { config: { private: true } });
  assert.deepEqual(await unjoined.httpSend('single', { ok: 1 }), { success: true });
  assert.equal(await unjoined.send({ type: 'broadcast', event: 'batch', payload: { ok: 2 } }), 'ok');
  await waitFor(() => seen.length === 2, 5000, 'both REST broadcasts');
  assert.deepEqual(seen.map((m) => [m.event, m.payload]).sort(), [['batch', { ok: 2 }], ['single', { ok: 1 }]]);
  // a topic no write policy opens: httpSend is refused, the batch endpoint skips it silently (202, as Realtime)
  const staff = sender.channel('staff:rest', { config: { private: true } });
  await assert.rejects(staff.httpSend('nope', { no: 1 }), /Unauthorized/);
  assert.equal(await staff.send({ type: 'broadcast', event: 'nope', payload: { no: 2 } }), 'ok');
  // anon may not write member rooms either
  const anonSend = await fetch(`${gw.url}/realtime/v1/api/broadcast/member:rest/events/anon?private=true`, {
    method: 'POST',
    headers: { apikey: gw.anonKey, 'content-type': 'application/json' },
    body: '{"no":3}',
  });
  assert.equal(anonSend.status, 403);
  assert.deepEqual(await anonSend.json(), { message: 'Unauthorized' });
  await sleep(400);
  assert.equal(seen.length, 2, 'nothing refused was delivered');
  await listener.removeAllChannels();
});

test('sb_ keys are checked against the configured ones: publishable is anon, unknown ones are refused', async () => {
  // As Supabase's API gateway: a registered publishable key stands for anon (and opens no private channel that no
  // policy grants anon); a key nobody configured is refused at connect and by the broadcast API.
  const publishable = gw.client(PUBLISHABLE);
  const open = publishable.channel('sb-room');
  assert.equal((await subscribe(open)).status, 'SUBSCRIBED');
  const refused = await subscribe(publishable.channel('member:1', { config: { private: true } }));
  assert.equal(refused.status, 'CHANNEL_ERROR');
  assert.match(refused.err.message, /^Unauthorized: You do not have permissions to read from this Channel topic: member:1$/);
  publishable.realtime.disconnect();
  const rest = await fetch(`${gw.url}/realtime/v1/api/broadcast/member:1/events/x?private=true`, {
    method: 'POST',
    headers: { apikey: 'sb_secret_made_up', authorization: 'Bearer sb_secret_made_up', 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(rest.status, 401);
  const upgrade = await new Promise((resolve) => {
    const ws = new WebSocket(`${gw.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=sb_secret_made_up&vsn=1.0.0`);
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode));
    ws.on('open', () => { ws.close(); resolve(101); });
    ws.on('error', () => {});
  });
  assert.equal(upgrade, 401);
});
