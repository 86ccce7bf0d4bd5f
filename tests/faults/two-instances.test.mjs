// Two gateways on one database (issue 14, case 7): a rotated signing key and a schema change are seen by both within
// a second (NOTIFY), auth rate limits count requests to either, and a refresh token whose reuse one instance detected is refused by the other, with the whole
// session revoked.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { gatewayBin } from '../ops/lib/stack.mjs';
import { call, openStack, waitFor } from './lib/faults.mjs';

let stack;
let a;
let b;
before(async () => {
  stack = openStack('two');
  // sign-ins poll for the new key: their limit (shared by all instances) refills fast enough here
  const env = { GOTRUE_MAILER_AUTOCONFIRM: 'true', GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL: '0', GOTRUE_RATE_LIMIT_TOKEN_REFRESH: '100000' };
  [a, b] = [await stack.gateway(env), await stack.gateway(env)];
});
after(() => stack?.close());

const auth = (gw, path, body) =>
  call(`${gw.url}/auth/v1/${path}`, { method: 'POST', headers: { apikey: gw.anonKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const kidOf = (jwt) => JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString()).kid;

test('a rotated signing key is used by both instances within a second', async () => {
  const user = { email: 'two@example.com', password: 'correct horse 2' };
  assert.equal((await auth(a, 'signup', user)).status, 200);
  const signIn = async (gw) => (await auth(gw, 'token?grant_type=password', user)).json?.access_token;
  const before = kidOf(await signIn(a));
  const { stdout } = await promisify(execFile)(gatewayBin, ['keys', 'rotate'], {
    env: { ...process.env, ...stack.cluster.env, GATEWAY_ADMIN_DB_URI: `${stack.cluster.admin}/app` },
  });
  const rotated = performance.now();
  const kid = stdout.match(/key (\S+) is now current/)[1];
  assert.notEqual(kid, before);
  // when the first sign-in that got a token under the new key was sent (a sign-in itself takes a while under load)
  const seen = await Promise.all([a, b].map((gw) =>
    waitFor('the new key', async () => {
      const sent = performance.now() - rotated;
      return kidOf(await signIn(gw)) === kid && Math.max(sent, 1);
    }, 5000)));
  console.log(`two instances: new signing key used by both after ${seen.map(Math.round).join(' and ')} ms`);
  for (const ms of seen) assert.ok(ms <= 1000, `within a second (${Math.round(ms)} ms)`);
  // a token signed by one instance is accepted by the other
  const token = await signIn(a);
  const me = await call(`${b.url}/auth/v1/user`, { headers: { apikey: b.anonKey, authorization: `Bearer ${token}` } });
  assert.equal(me.json?.email, user.email, me.text);
});

test('a schema change is served by both instances within a second', async () => {
  stack.cluster.sql('create table public.fault_late (id int primary key); grant select on public.fault_late to anon;');
  const changed = performance.now();
  const seen = await Promise.all([a, b].map((gw) =>
    waitFor('the new table', async () =>
      (await call(`${gw.url}/rest/v1/fault_late`, { headers: { apikey: gw.anonKey } })).status === 200 && performance.now() - changed, 5000)));
  console.log(`two instances: new table served by both after ${seen.map(Math.round).join(' and ')} ms`);
  for (const ms of seen) assert.ok(ms <= 1000, `within a second (${Math.round(ms)} ms)`);
});

test('refresh-token reuse detected on one instance is refused on the other', async () => {
  const user = { email: 'reuse@example.com', password: 'correct horse 3' };
  const session = (await auth(a, 'signup', user)).json;
  const first = session.refresh_token;
  // rotated twice on A: the first token is no longer the parent of the active one (whose reuse is a lost answer)
  const refresh = async (gw, token) => (await auth(gw, 'token?grant_type=refresh_token', { refresh_token: token })).json?.refresh_token;
  const second = await refresh(a, await refresh(a, first));
  assert.ok(second, 'rotated twice on A');
  const reused = await auth(b, 'token?grant_type=refresh_token', { refresh_token: first });
  assert.equal(reused.status, 400, reused.text);
  assert.equal(reused.json?.error_code ?? reused.json?.code, 'refresh_token_already_used', reused.text);
  const revoked = await auth(a, 'token?grant_type=refresh_token', { refresh_token: second });
  assert.equal(revoked.status, 400, `the session is revoked on A too: ${revoked.text}`);
});

// last: it spends the per-client budget of sign-ups and recoveries that every instance on the database shares
test('auth rate limits count across both instances (kept in PostgreSQL)', async () => {
  // a budget of 6 password-recovery requests per client per 5 minutes, spent half on each instance
  const env = { GOTRUE_RATE_LIMIT_OTP: '6' };
  const [c, d] = [await stack.gateway(env), await stack.gateway(env)];
  const statuses = [];
  for (let i = 0; i < 5; i++) {
    for (const [n, gw] of [c, d].entries()) {
      statuses.push((await auth(gw, 'recover', { email: `nobody${i}-${n}@example.com` })).status);
    }
  }
  console.log(`two instances: recover x10 alternating -> ${statuses.join(' ')}`);
  assert.deepEqual(statuses.slice(0, 6), [200, 200, 200, 200, 200, 200], 'the budget is served');
  assert.deepEqual(statuses.slice(6), [429, 429, 429, 429], 'and refused on both once spent on both together');
});
