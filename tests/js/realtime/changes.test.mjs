// postgres_changes through supabase-js: each event type with filters, two users each hearing only their own rows
// under RLS, anon hearing nothing, a column the role may not select never sent, DELETE under replica identity
// full checked against the SELECT policies, a token refresh keeping the channel, an expired token closing it,
// and a gateway without replication rights still serving broadcast while answering with a system error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { TABLES, gatewayForFile, startRealtime, anonClient, userToken, clientWithToken, subscribe, waitFor, sleep , closeClients } from './support.mjs';


let gw;
gatewayForFile({ sql: TABLES }, (g) => (gw = g));

/** A channel with postgres_changes bindings; resolves once the server said it is subscribed to PostgreSQL. */
async function changesChannel(client, name, bindings) {
  const ch = client.channel(name);
  const seen = [];
  const system = [];
  const statuses = [];
  for (const b of bindings) ch.on('postgres_changes', b, (p) => seen.push(p));
  ch.on('system', {}, (m) => system.push(m));
  const { status, err } = await subscribe(ch, 10000, statuses);
  assert.equal(status, 'SUBSCRIBED', err?.message);
  await waitFor(() => system.length > 0, 10000, 'the postgres_changes system message');
  return { ch, seen, system, statuses };
}

test('INSERT, UPDATE, DELETE and * with each filter operator', async () => {
  const c = anonClient(gw);
  const t = { schema: 'public', table: 'rt_notes' };
  const { seen, system } = await changesChannel(c, 'notes', [
    { event: 'INSERT', ...t, filter: 'n=gt.10' },
    { event: 'UPDATE', ...t, filter: 'body=eq.hello' },
    { event: 'DELETE', ...t, filter: 'id=in.(2,3)' },
    { event: '*', ...t, filter: 'n=lte.1' },
  ]);
  assert.deepEqual(system[0], { extension: 'postgres_changes', status: 'ok', message: 'Subscribed to PostgreSQL', channel: 'notes' });
  gw.sql(`insert into public.rt_notes values (1, 'a', 5, '{x,y}', '{"k": 1}'), (2, 'b', 11, null, null), (3, 'c', 0, null, null)`);
  gw.sql(`update public.rt_notes set body = 'hello' where id in (1, 2)`);
  gw.sql(`delete from public.rt_notes where id in (1, 2)`);
  await waitFor(() => seen.length >= 5, 8000, 'five events');
  await sleep(300);
  const summary = seen.map((p) => `${p.eventType}:${p.new?.id ?? p.old?.id}`).sort();
  // n>10: insert 2; body=hello: update 1, 2; id in (2,3): delete 2; n<=1: insert 3 (and nothing else changes 3)
  assert.deepEqual(
    summary,
    ['DELETE:2', 'INSERT:2', 'INSERT:3', 'UPDATE:1', 'UPDATE:2'].sort(),
  );
  const insert = seen.find((p) => p.eventType === 'INSERT' && p.new.id === 2);
  assert.equal(insert.schema, 'public');
  assert.equal(insert.table, 'rt_notes');
  assert.match(insert.commit_timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(insert.errors, null);
  const update = seen.find((p) => p.eventType === 'UPDATE' && p.new.id === 1);
  assert.deepEqual(update.new, { id: 1, body: 'hello', n: 5, tags: ['x', 'y'], meta: { k: 1 } });
  assert.deepEqual(update.old, { id: 1 }, 'replica identity default: the key');
  await c.removeAllChannels();
});

test('neq, lt and gte filters, and a filter on a column that does not exist', async () => {
  const c = anonClient(gw);
  const t = { schema: 'public', table: 'rt_notes' };
  const { seen } = await changesChannel(c, 'notes2', [
    { event: 'INSERT', ...t, filter: 'body=neq.skip' },
    { event: 'UPDATE', ...t, filter: 'n=lt.0' },
    { event: 'UPDATE', ...t, filter: 'n=gte.100' },
  ]);
  gw.sql(`insert into public.rt_notes values (10, 'skip', 1), (11, 'keep', 1)`);
  gw.sql(`update public.rt_notes set n = -5 where id = 10`);
  gw.sql(`update public.rt_notes set n = 100 where id = 11`);
  gw.sql(`update public.rt_notes set n = 50 where id = 11`);
  await waitFor(() => seen.length >= 3, 8000, 'three events');
  await sleep(300);
  assert.deepEqual(seen.map((p) => `${p.eventType}:${p.new.id}:${p.new.n}`), ['INSERT:11:1', 'UPDATE:10:-5', 'UPDATE:11:100']);
  const bad = c.channel('bad-filter');
  const system = [];
  bad.on('postgres_changes', { event: '*', ...t, filter: 'nope=eq.1' }, () => {});
  bad.on('system', {}, (m) => system.push(m));
  await subscribe(bad);
  await waitFor(() => system.length > 0, 8000, 'the system error');
  assert.equal(system[0].status, 'error');
  assert.match(system[0].message, /invalid column for filter nope/);
  await c.removeAllChannels();
});

test('two users each hear only their own rows; anon hears nothing; unselectable columns are never sent', async () => {
  const [alice, bob] = [randomUUID(), randomUUID()];
  const ca = await clientWithToken(gw, await userToken(gw, alice));
  const cb = await clientWithToken(gw, await userToken(gw, bob));
  const anon = anonClient(gw);
  const binding = { event: '*', schema: 'public', table: 'rt_todos' };
  const A = await changesChannel(ca, 'todos-a', [binding]);
  const B = await changesChannel(cb, 'todos-b', [binding]);
  const N = await changesChannel(anon, 'todos-anon', [binding]);
  gw.sql(`insert into public.rt_todos (owner, title, secret) values ('${alice}', 'a1', 's'), ('${bob}', 'b1', 's')`);
  gw.sql(`update public.rt_todos set done = true where owner = '${alice}'`);
  gw.sql(`delete from public.rt_todos where owner = '${bob}'`);
  await waitFor(() => A.seen.length >= 2 && B.seen.length >= 2, 8000, 'each user\'s events');
  await sleep(400);
  assert.deepEqual(A.seen.map((p) => `${p.eventType}:${p.new?.title ?? p.old?.title}`), ['INSERT:a1', 'UPDATE:a1']);
  assert.deepEqual(B.seen.map((p) => `${p.eventType}:${p.new?.title ?? p.old?.title}`), ['INSERT:b1', 'DELETE:b1']);
  assert.equal(N.seen.length, 0, 'anon has no grant and no policy');
  for (const p of [...A.seen, ...B.seen]) {
    assert.ok(!('secret' in p.new) && !('secret' in p.old), 'secret is not selectable by authenticated');
  }
  const del = B.seen[1];
  assert.deepEqual(Object.keys(del.old).sort(), ['done', 'id', 'owner', 'title'], 'DELETE under replica identity full: the old row');
  await Promise.all([ca, cb, anon].map((c) => c.removeAllChannels()));
});

test('many users share one batch: one visibility statement per role judges each user by their own claims', async () => {
  // A gateway of its own whose database counts PL function calls, so the statements can be counted.
  const counted = await startRealtime({
    sql: `${TABLES}
      do $$ begin execute format('alter database %I set track_functions = ''pl''', current_database()); end $$;`,
  });
  try {
    const users = Array.from({ length: 12 }, () => randomUUID());
    const binding = { event: '*', schema: 'public', table: 'rt_todos' };
    const subscribers = [];
    for (const [i, user] of users.entries()) {
      const c = await clientWithToken(counted, await userToken(counted, user));
      subscribers.push({ user, ...(await changesChannel(c, `many-${i}`, [binding])) });
      if (i === 0) subscribers.push({ user, ...(await changesChannel(c, 'many-0-again', [binding])) });
    }
    // a token whose sub is not a uuid: the policy's auth.uid() raises for it alone
    const oddClient = await clientWithToken(counted, await userToken(counted, 'not-a-uuid'));
    const odd = await changesChannel(oddClient, 'many-odd', [binding]);
    const nobody = await changesChannel(anonClient(counted), 'many-anon', [binding]);
    const stranger = randomUUID();
    // one transaction, so one batch: two rows per user and one that nobody subscribed owns
    const values = [...users.flatMap((u, i) => [`('${u}', 'u${i}-a')`, `('${u}', 'u${i}-b')`]), `('${stranger}', 'stranger')`];
    counted.sql(`insert into public.rt_todos (owner, title) values ${values.join(', ')}`);
    await waitFor(() => subscribers.every((s) => s.seen.length >= 2), 10000, "every user's two rows");
    await sleep(500);
    for (const s of subscribers) {
      const i = users.indexOf(s.user);
      assert.deepEqual(s.seen.map((p) => p.new.title).sort(), [`u${i}-a`, `u${i}-b`], `user ${i} hears exactly their rows`);
      assert.ok(s.seen.every((p) => p.new.owner === s.user && !('secret' in p.new)));
    }
    assert.equal(odd.seen.length, 0, 'the claims whose check raised see nothing');
    assert.equal(nobody.seen.length, 0, 'anon hears nothing');
    // the whole batch cost one statement per role (authenticated, anon), not one per user
    const calls = () =>
      Number(counted.sql(`select coalesce(sum(calls), 0) from pg_stat_user_functions where funcname like 'realtime_visible_%'`));
    await waitFor(() => calls() >= 2, 20000, 'the function call statistics');
    await sleep(1500);
    assert.equal(calls(), 2, 'one visibility statement for authenticated (13 claims sets) and one for anon');
  } finally {
    closeClients();
    await counted.stop();
  }
});

test('a token refresh keeps the channel (and its changes); an expired token closes it', async () => {
  const alice = randomUUID();
  const c = await clientWithToken(gw, await userToken(gw, alice, { seconds: 4 }));
  const A = await changesChannel(c, 'refresh', [{ event: 'INSERT', schema: 'public', table: 'rt_todos' }]);
  await c.realtime.setAuth(await userToken(gw, alice, { seconds: 3600 }));
  await waitFor(() => A.system.length >= 2, 5000, 'Subscribed to PostgreSQL again');
  await sleep(5000); // past the first token's expiry: the refreshed one keeps the channel
  gw.sql(`insert into public.rt_todos (owner, title) values ('${alice}', 'after refresh')`);
  await waitFor(() => A.seen.length === 1, 8000, 'the change after the refresh');
  assert.equal(A.seen[0].new.title, 'after refresh');

  const short = await clientWithToken(gw, await userToken(gw, randomUUID(), { seconds: 2 }));
  const S = await changesChannel(short, 'expiring', [{ event: 'INSERT', schema: 'public', table: 'rt_todos' }]);
  await waitFor(() => S.system.some((m) => m.status === 'error'), 6000, 'the expiry system error');
  assert.match(S.system.find((m) => m.status === 'error').message, /^Token has expired \d+ seconds ago$/);
  await waitFor(() => S.statuses.includes('CLOSED'), 5000, 'the channel closed');
  assert.ok(!A.statuses.includes('CLOSED'), 'the refreshed channel is still open');
  await c.removeAllChannels();
  await short.removeAllChannels();
});

test('a user token that arrives after the join (a session resolving late) decides what is delivered', async () => {
  const user = randomUUID();
  const token = await userToken(gw, user);
  let release;
  const gate = new Promise((r) => (release = r));
  // supabase-js asks its accessToken callback on connect and pushes the answer as an access_token message
  const c = anonClient(gw, {}, { accessToken: async () => (await gate, token) });
  const ch = c.channel('late-token');
  const seen = [];
  const system = [];
  ch.on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'rt_todos' }, (p) => seen.push(p));
  ch.on('system', {}, (m) => system.push(m));
  assert.equal((await subscribe(ch)).status, 'SUBSCRIBED');
  await waitFor(() => system.some((m) => m.status === 'ok'), 10000, 'subscribed to PostgreSQL');
  gw.sql(`insert into public.rt_todos (owner, title) values ('${user}', 'before the token')`);
  release();
  await waitFor(() => system.filter((m) => m.status === 'ok').length >= 2, 10000, 'subscribed again with the token');
  gw.sql(`insert into public.rt_todos (owner, title) values ('${user}', 'mine')`);
  await waitFor(() => seen.some((p) => p.new.title === 'mine'), 8000, 'the user\'s row');
  await sleep(300);
  // The row written before the token is judged by whichever claims the channel has when its change is dispatched
  // (as on Supabase, where changes are checked when polled): anon's (not delivered) or the user's (their own row).
  // Either way only this user's rows arrive, each once.
  const titles = seen.map((p) => p.new.title);
  assert.ok(seen.every((p) => p.new.owner === user), 'only the user\'s own rows');
  assert.deepEqual(titles.filter((t) => t !== 'before the token'), ['mine']);
  assert.ok(titles.filter((t) => t === 'before the token').length <= 1, 'never twice');
});

test('without replication rights: broadcast still works and postgres_changes answers with a system error', async () => {
  const port = process.env.TEST_PGPORT;
  const limited = await startRealtime({
    env: { REALTIME_REPLICATION_DB_URI: `postgres://authenticator:${process.env.TEST_AUTHENTICATOR_PASSWORD}@127.0.0.1:${port}/` },
  });
  try {
    // point at the gateway's own database
    const c = anonClient(limited);
    const ch = c.channel('degraded', { config: { broadcast: { self: true } } });
    const system = [];
    const got = [];
    ch.on('postgres_changes', { event: '*', schema: 'public', table: 'nothing' }, () => {});
    ch.on('system', {}, (m) => system.push(m));
    ch.on('broadcast', { event: 'e' }, (m) => got.push(m));
    assert.equal((await subscribe(ch)).status, 'SUBSCRIBED');
    await waitFor(() => system.length > 0, 10000, 'the system error');
    assert.equal(system[0].status, 'error');
    assert.match(system[0].message, /^Unable to subscribe to changes: .*(permission|replication)/i);
    await ch.send({ type: 'broadcast', event: 'e', payload: { still: 'works' } });
    await waitFor(() => got.length === 1, 5000, 'the broadcast');
    await c.removeAllChannels();
  } finally {
    await limited.stop();
  }
});
