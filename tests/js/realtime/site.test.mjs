// The site's use of Realtime: a profile view recorded by an anonymous visitor reaches an admin's postgres_changes
// subscription on profile_views (migration 0290) under its admin-only RLS; a candidate and an anonymous
// subscriber receive nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gatewayForFile, anonClient, clientWithToken, subscribe, waitFor, sleep } from './support.mjs';
import { fixturesSql, accessToken } from '../policies/identities.mjs';

let gw;
gatewayForFile({ sql: fixturesSql }, (g) => (gw = g));

async function listen(client, name) {
  const ch = client.channel(name);
  const seen = [];
  const system = [];
  ch.on('postgres_changes', { event: '*', schema: 'public', table: 'profile_views' }, (p) => seen.push(p));
  ch.on('system', {}, (m) => system.push(m));
  assert.equal((await subscribe(ch)).status, 'SUBSCRIBED');
  await waitFor(() => system.length > 0, 10000, `${name} subscribed to PostgreSQL`);
  assert.equal(system[0].status, 'ok', system[0].message);
  return seen;
}

test('a recorded profile view reaches admins live, and nobody else', async () => {
  const admin = await clientWithToken(gw, await accessToken(gw, gw.signingKey, 'admin'));
  const candidate = await clientWithToken(gw, await accessToken(gw, gw.signingKey, 'cand1'));
  const visitor = anonClient(gw);
  const [adminSeen, candidateSeen, anonSeen] = [
    await listen(admin, 'admin-views'),
    await listen(candidate, 'candidate-views'),
    await listen(visitor, 'anon-views'),
  ];
  const profileId = gw.sql("select id from public.candidate_profiles where status = 'active' limit 1");
  const { error } = await visitor.from('profile_views').insert({ profile_id: profileId, user_agent: 'realtime test' });
  assert.equal(error, null);
  await waitFor(() => adminSeen.length === 1, 8000, 'the admin hearing the view');
  assert.equal(adminSeen[0].eventType, 'INSERT');
  assert.equal(adminSeen[0].new.profile_id, profileId);
  await sleep(500);
  assert.equal(candidateSeen.length, 0, 'candidates may not read profile views');
  assert.equal(anonSeen.length, 0, 'visitors may not read profile views');
});
