// Realtime's limits as the stock supabase-js client meets them, each with Realtime's own reply: channels per
// socket (`ChannelRateLimitReached: Too many channels`), joins per second (`ClientJoinRateLimitReached: Too many
// joins per second`, then the socket closes), client messages per second (`system` `Too many messages per second`
// and the channel closes), and payload size (an acked broadcast answers `error`, REST 422, a presence track too
// large closes the channel with `Track message size exceeded`). Limits are lowered through their variables.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startRealtime, anonClient, subscribe, collect, waitFor, sleep, closeClients } from './support.mjs';

const gateways = [];
async function gatewayWith(env) {
  const gw = await startRealtime({ env });
  gateways.push(gw);
  return gw;
}
after(async () => {
  closeClients();
  for (const gw of gateways) await gw.stop();
});

test('channels per socket: the join past TENANT_MAX_CHANNELS_PER_CLIENT is refused', async () => {
  const gw = await gatewayWith({ TENANT_MAX_CHANNELS_PER_CLIENT: '3' });
  const c = anonClient(gw);
  for (const i of [1, 2, 3]) assert.equal((await subscribe(c.channel(`room-${i}`))).status, 'SUBSCRIBED');
  const { status, err } = await subscribe(c.channel('room-4'));
  assert.equal(status, 'CHANNEL_ERROR');
  assert.equal(err.message, 'ChannelRateLimitReached: Too many channels');
  // another socket has its own allowance
  const other = anonClient(gw);
  assert.equal((await subscribe(other.channel('room-4'))).status, 'SUBSCRIBED');
  await c.removeAllChannels();
  await other.removeAllChannels();
});

test('joins per second: past TENANT_MAX_JOINS_PER_SECOND the join is refused and the socket closed', async () => {
  // one join a second on average, a burst of ten
  const gw = await gatewayWith({ TENANT_MAX_JOINS_PER_SECOND: '1' });
  const c = anonClient(gw);
  const closes = [];
  c.realtime.socketAdapter.onClose((e) => closes.push(e));
  const results = [];
  for (let i = 0; i < 11; i++) results.push(await subscribe(c.channel(`burst-${i}`)));
  assert.deepEqual(results.slice(0, 10).map((r) => r.status), Array(10).fill('SUBSCRIBED'));
  assert.equal(results[10].status, 'CHANNEL_ERROR');
  assert.equal(results[10].err.message, 'ClientJoinRateLimitReached: Too many joins per second');
  await waitFor(() => closes.some((e) => e.code === 1001), 5000, 'the socket closed (1001)');
  c.realtime.disconnect();
});

test('messages per second: past TENANT_MAX_EVENTS_PER_SECOND the channel closes with a system error', async () => {
  // one message a second on average, a burst of ten
  const gw = await gatewayWith({ TENANT_MAX_EVENTS_PER_SECOND: '1' });
  const c = anonClient(gw);
  const ch = c.channel('chatty', { config: { broadcast: { self: true } } });
  const system = collect(ch, 'system');
  const heard = collect(ch, 'broadcast', { event: 'm' });
  const statuses = [];
  assert.equal((await subscribe(ch, 10000, statuses)).status, 'SUBSCRIBED');
  for (let i = 0; i < 12; i++) await ch.send({ type: 'broadcast', event: 'm', payload: { i } });
  await waitFor(() => system.length === 1, 5000, 'the system error');
  assert.deepEqual(system[0], { extension: 'system', status: 'error', message: 'Too many messages per second', channel: 'chatty' });
  await waitFor(() => statuses.includes('CLOSED'), 5000, 'the channel closed');
  assert.deepEqual(heard.map((m) => m.payload.i), [...Array(10).keys()], 'the first ten went through');
});

test('payload size: an acked broadcast over TENANT_MAX_PAYLOAD_SIZE_IN_KB answers error, REST 422, presence closes', async () => {
  // 1 KB: 1500 bytes with Realtime's 500-byte allowance
  const gw = await gatewayWith({ TENANT_MAX_PAYLOAD_SIZE_IN_KB: '1' });
  for (const vsn of ['2.0.0', '1.0.0']) {
    const c = anonClient(gw, { vsn });
    const ch = c.channel(`big-${vsn}`, { config: { broadcast: { self: true, ack: true } } });
    const heard = collect(ch, 'broadcast', { event: '*' });
    assert.equal((await subscribe(ch)).status, 'SUBSCRIBED');
    assert.equal(await ch.send({ type: 'broadcast', event: 'small', payload: { x: 'y'.repeat(1000) } }), 'ok');
    assert.equal(await ch.send({ type: 'broadcast', event: 'big', payload: { x: 'y'.repeat(2000) } }), 'error', vsn);
    await sleep(300);
    assert.deepEqual(heard.map((m) => m.event), ['small'], `vsn ${vsn}: the oversized one is not delivered`);
    await c.removeAllChannels();
  }
  const rest = await fetch(`${gw.url}/realtime/v1/api/broadcast`, {
    method: 'POST',
    headers: { apikey: gw.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ topic: 'big', event: 'e', payload: { x: 'y'.repeat(2000) } }] }),
  });
  assert.equal(rest.status, 422);
  assert.deepEqual(await rest.json(), { errors: { payload: ['Payload size exceeds tenant limit'] } });
  const c = anonClient(gw);
  const ch = c.channel('big-presence', { config: { presence: { key: 'me' } } });
  const system = collect(ch, 'system');
  const statuses = [];
  assert.equal((await subscribe(ch, 10000, statuses)).status, 'SUBSCRIBED');
  ch.track({ note: 'z'.repeat(2000) }); // no reply comes: the channel closes
  await waitFor(() => system.length === 1, 5000, 'the system error');
  assert.equal(system[0].message, 'Track message size exceeded');
  await waitFor(() => statuses.includes('CLOSED'), 5000, 'the channel closed');
});
