// access_token messages on a joined channel, through supabase-js's setAuth(): a new token whose claims no longer
// pass the private channel's read policy closes it with Realtime's system error; an expired token closes it with
// `Token has expired …`; a token that still passes keeps it open. Each closure is a `system` error then phx_close,
// after which realtime-js marks the channel CLOSED and does not rejoin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gatewayForFile, userToken, clientWithToken, subscribe, collect, waitFor, sleep } from './support.mjs';

// a team room is readable by the members whose token says so
const POLICIES = `
  create policy "team reads its room" on realtime.messages for select to authenticated
    using (realtime.topic() = 'team:' || (auth.jwt() ->> 'team') and extension in ('broadcast', 'presence'));
`;

let gw;
gatewayForFile({ sql: POLICIES }, (g) => (gw = g));

/** A private team channel joined with `token`; its system messages and statuses. */
async function teamChannel(token, name = 'team:red') {
  const c = await clientWithToken(gw, token);
  const ch = c.channel(name, { config: { private: true } });
  const system = collect(ch, 'system');
  const statuses = [];
  const { status, err } = await subscribe(ch, 10000, statuses);
  assert.equal(status, 'SUBSCRIBED', err?.message);
  return { c, ch, system, statuses };
}

test('a token whose claims no longer pass the read policy closes the channel', async () => {
  const user = crypto.randomUUID();
  const { c, ch, system, statuses } = await teamChannel(await userToken(gw, user, { extra: { team: 'red' } }));
  const heard = collect(ch, 'broadcast', { event: '*' });
  // a refreshed token that still passes keeps the channel
  await c.realtime.setAuth(await userToken(gw, user, { extra: { team: 'red' }, seconds: 7200 }));
  await sleep(500);
  assert.deepEqual(system, []);
  gw.sql(`select realtime.send('{"still": "in"}'::jsonb, 'e', 'team:red')`);
  await waitFor(() => heard.length === 1, 5000, 'a broadcast after the refresh');
  // moved to another team
  await c.realtime.setAuth(await userToken(gw, user, { extra: { team: 'blue' } }));
  await waitFor(() => system.length === 1, 5000, 'the system error');
  assert.deepEqual(system[0], {
    extension: 'system',
    status: 'error',
    message: 'You no longer have permission to read from this Channel topic: team:red',
    channel: 'team:red',
  });
  await waitFor(() => statuses.includes('CLOSED'), 5000, 'the channel closed');
  gw.sql(`select realtime.send('{"after": "leaving"}'::jsonb, 'e', 'team:red')`);
  await sleep(500);
  assert.equal(heard.length, 1, 'nothing after the channel closed');
  assert.equal(c.getChannels().length, 0, 'realtime-js removed the channel and does not rejoin it');
});

test('an expired access_token closes the channel with Realtime\'s expiry message', async () => {
  const user = crypto.randomUUID();
  const { c, system, statuses } = await teamChannel(await userToken(gw, user, { extra: { team: 'red' } }));
  await c.realtime.setAuth(await userToken(gw, user, { extra: { team: 'red' }, seconds: -30 }));
  await waitFor(() => system.length === 1, 5000, 'the system error');
  assert.equal(system[0].status, 'error');
  assert.equal(system[0].extension, 'system');
  assert.match(system[0].message, /^Token has expired (3\d) seconds ago$/);
  await waitFor(() => statuses.includes('CLOSED'), 5000, 'the channel closed');
  // a malformed one likewise
  const other = await teamChannel(await userToken(gw, user, { extra: { team: 'red' } }));
  await other.c.realtime.setAuth('not.a.jwt');
  await waitFor(() => other.system.length === 1, 5000, 'the system error');
  assert.equal(other.system[0].message, 'The token provided is not a valid JWT');
  await waitFor(() => other.statuses.includes('CLOSED'), 5000, 'the channel closed');
});
