// The security checklist (security.md J1–J12, A1–A14) as a client sees it through /auth/v1 and supabase-js.
// The unknown-user vs wrong-password timing gap (A1) is measured and reported, not asserted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, importJWK, generateKeyPair, exportJWK } from 'jose';
import { startGateway } from '../lib/gateway.mjs';
import { waitForMail, linkOf, messagesTo } from './mail.mjs';

let gw; // autoconfirm, generous limits
let strict; // confirmations by mail, tight limits
const mailDir = mkdtempSync(join(tmpdir(), 'gw-mail-'));
let signingKey; // the gateway's own private key, to mint edge-case tokens
let kid;
let user; // { id, token, refresh }

before(async () => {
  try {
    await setUp();
  } catch (e) {
    console.error('set-up failed:', e);
    throw e;
  }
});

async function setUp() {
  gw = await startGateway({
    env: {
      GATEWAY_MAIL_DIR: mailDir,
      GOTRUE_MAILER_AUTOCONFIRM: 'true',
      GOTRUE_RATE_LIMIT_TOKEN_REFRESH: '100000',
      GATEWAY_RATE_LIMIT_ACCOUNT: '100000',
      GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL: '0',
    },
  });
  strict = await startGateway({
    env: {
      GATEWAY_MAIL_DIR: mailDir,
      GOTRUE_SITE_URL: 'https://site.example.com',
      GOTRUE_URI_ALLOW_LIST: 'https://*.preview.example.com/**',
      GOTRUE_RATE_LIMIT_TOKEN_REFRESH: '5',
      GOTRUE_RATE_LIMIT_OTP: '20',
      // every request here comes from one client: its share of the mail budget is not what these tests measure
      GATEWAY_RATE_LIMIT_EMAIL_SENT_PER_CLIENT: '1000',
      API_EXTERNAL_URL: 'https://api.example.com',
    },
  });
  const exported = execFileSync(process.env.GATEWAY_BIN, ['keys', 'export'], {
    env: { ...process.env, GATEWAY_ADMIN_DB_URI: `postgres://postgres@127.0.0.1:${process.env.TEST_PGPORT}/${gw.db}` },
    encoding: 'utf8',
  });
  // WebCrypto refuses a private key whose key_ops include "verify": import the signing half only.
  const { key_ops: _ops, ...jwk } = JSON.parse(exported)[0];
  kid = jwk.kid;
  signingKey = await importJWK(jwk, 'ES256');
  const email = `victim.${Date.now()}@example.com`;
  const { data, error } = await gw.client().auth.signUp({ email, password: 'secret-123', options: { data: { role: 'service_role' } } });
  assert.equal(error, null);
  user = { id: data.user.id, email, token: data.session.access_token, refresh: data.session.refresh_token };
}
after(async () => {
  await gw?.stop();
  await strict?.stop();
  rmSync(mailDir, { recursive: true, force: true });
});

const now = () => Math.floor(Date.now() / 1000);
const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');

async function getUser(token, base = gw) {
  const res = await fetch(`${base.url}/auth/v1/user`, {
    headers: { apikey: base.anonKey, authorization: `Bearer ${token}`, 'x-supabase-api-version': '2024-01-01' },
  });
  return { status: res.status, body: await res.json().catch(() => null), headers: res.headers };
}

function claimsFor(extra = {}) {
  return { sub: user.id, aud: 'authenticated', role: 'authenticated', exp: now() + 600, iat: now(), ...extra };
}

async function mint(claims, header = {}) {
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT', ...header }).sign(signingKey);
}

test('J1 alg=none with an empty signature is refused', async () => {
  const token = `${b64({ alg: 'none', typ: 'JWT', kid })}.${b64(claimsFor())}.`;
  const res = await getUser(token);
  assert.equal(res.status, 403);
  assert.equal(res.body.code, 'bad_jwt');
});

test('J2 HS256 signed with the public key as the secret is refused', async () => {
  const doc = await (await fetch(`${gw.url}/auth/v1/.well-known/jwks.json`)).json();
  const secret = new TextEncoder().encode(JSON.stringify(doc.keys[0]));
  const token = await new SignJWT(claimsFor()).setProtectedHeader({ alg: 'HS256', kid }).sign(secret);
  assert.equal((await getUser(token)).status, 403);
});

test('J3/J4 an unknown kid, or a jku/jwk header naming the attacker key, is refused', async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const attacker = await exportJWK(publicKey);
  const unknown = await new SignJWT(claimsFor()).setProtectedHeader({ alg: 'ES256', kid: 'attacker' }).sign(privateKey);
  assert.equal((await getUser(unknown)).status, 403);
  const jku = await new SignJWT(claimsFor())
    .setProtectedHeader({ alg: 'ES256', kid: 'attacker', jku: 'https://evil.example.com/jwks.json', jwk: attacker })
    .sign(privateKey);
  assert.equal((await getUser(jku)).status, 403);
  const sameKid = await new SignJWT(claimsFor()).setProtectedHeader({ alg: 'ES256', kid, jwk: attacker }).sign(privateKey);
  assert.equal((await getUser(sameKid)).status, 403);
});

test('J5 string-typed exp/nbf are refused; J6 expired tokens are refused', async () => {
  assert.equal((await getUser(await mint(claimsFor({ exp: String(now() + 600) })))).status, 403);
  assert.equal((await getUser(await mint(claimsFor({ nbf: String(now() - 10) })))).status, 403);
  assert.equal((await getUser(await mint(claimsFor({ exp: now() - 31 })))).status, 403);
  assert.equal((await getUser(await mint(claimsFor({ session_id: undefined })))).status, 200, 'a well-formed token passes');
});

test('J7 privileged roles never open the admin API; J8 metadata never sets the role', async () => {
  for (const role of ['postgres', 'authenticator', 'supabase_auth_admin', 'authenticated']) {
    const res = await fetch(`${gw.url}/auth/v1/admin/users`, { headers: { authorization: `Bearer ${await mint(claimsFor({ role }))}` } });
    assert.equal(res.status, 403, role);
  }
  const payload = JSON.parse(Buffer.from(user.token.split('.')[1], 'base64url'));
  assert.equal(payload.role, 'authenticated');
  assert.equal(payload.user_metadata.role, 'service_role');
});

test('J9 a token for another audience is refused', async () => {
  const res = await getUser(await mint(claimsFor({ aud: 'other' })));
  assert.equal(res.status, 400);
  assert.equal(res.body.message, "Token audience doesn't match request audience");
});

test('J10 lower-case bearer is accepted; an oversized token is refused', async () => {
  const ok = await fetch(`${gw.url}/auth/v1/user`, { headers: { authorization: `bearer ${user.token}` } });
  assert.equal(ok.status, 200);
  const big = await fetch(`${gw.url}/auth/v1/user`, { headers: { authorization: `Bearer ${'a'.repeat(100_000)}.b.c` } });
  assert.ok(big.status >= 400 && big.status < 500, `status ${big.status}`);
});

test('J12 the JWKS publishes public members only, cacheable for ten minutes', async () => {
  const res = await fetch(`${gw.url}/auth/v1/.well-known/jwks.json`);
  assert.equal(res.headers.get('cache-control'), 'public, max-age=600');
  const { keys } = await res.json();
  assert.ok(keys.length >= 1);
  for (const k of keys) {
    assert.ok(!('d' in k) && !('p' in k) && !('q' in k) && !('k' in k), JSON.stringify(k));
    assert.notEqual(k.kty, 'oct');
    assert.deepEqual(k.key_ops, ['verify']);
    assert.equal(k.use, 'sig');
  }
});

test('A1 unknown e-mail and wrong password get one answer (timing gap measured and reported)', async (t) => {
  const attempt = async (email) => {
    const started = process.hrtime.bigint();
    const res = await fetch(`${gw.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: gw.anonKey },
      body: JSON.stringify({ email, password: 'not-the-password' }),
    });
    const body = await res.text();
    return { status: res.status, body, ms: Number(process.hrtime.bigint() - started) / 1e6 };
  };
  const known = [];
  const unknown = [];
  for (let i = 0; i < 20; i++) {
    known.push(await attempt(user.email));
    unknown.push(await attempt(`nobody.${i}@example.com`));
  }
  assert.equal(known[0].status, 400);
  assert.equal(known[0].body, unknown[0].body);
  const median = (xs) => xs.map((x) => x.ms).sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  t.diagnostic(`A1 timing: wrong password median ${median(known).toFixed(1)} ms, unknown user median ${median(unknown).toFixed(1)} ms, gap ${(median(known) - median(unknown)).toFixed(1)} ms (20 samples each)`);
});

test('A2 sign-up of a registered address answers like a new one and mails nobody', async () => {
  const email = `a2.${Date.now()}@example.com`;
  const admin = strict.client(strict.serviceKey);
  await admin.auth.admin.createUser({ email, password: 'secret-123', email_confirm: true });
  const { data, error } = await strict.client().auth.signUp({ email, password: 'other-pass-1' });
  assert.equal(error, null);
  assert.equal(data.session, null);
  assert.deepEqual(data.user.identities, []);
  assert.notEqual(data.user.id, undefined);
  assert.equal(messagesTo(mailDir, email).length, 0);
});

test('A3 recover answers alike for known and unknown addresses, also when repeated', async () => {
  const email = `a3.${Date.now()}@example.com`;
  await strict.client(strict.serviceKey).auth.admin.createUser({ email, password: 'secret-123', email_confirm: true });
  const c = strict.client();
  const r1 = [await c.auth.resetPasswordForEmail(email), await c.auth.resetPasswordForEmail(`x${email}`)];
  assert.deepEqual(r1[0], r1[1]);
  const r2 = [await c.auth.resetPasswordForEmail(email), await c.auth.resetPasswordForEmail(`x${email}`)];
  assert.equal(r2[0].error.status, 429);
  assert.equal(r2[0].error.code, r2[1].error.code);
  assert.equal(r2[0].error.message, r2[1].error.message);
});

test('A4/A5/A6 refresh reuse revokes the family, the parent is tolerated, logout ends refresh', async () => {
  const refresh = (token) =>
    fetch(`${gw.url}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: gw.anonKey, 'x-supabase-api-version': '2024-01-01' },
      body: JSON.stringify({ refresh_token: token }),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
  const s = (await gw.client().auth.signInWithPassword({ email: user.email, password: 'secret-123' })).data.session;
  const [a, b] = await Promise.all([refresh(s.refresh_token), refresh(s.refresh_token)]);
  assert.equal(a.status, 200);
  assert.equal(b.status, 200, 'A5: a concurrent refresh is no logout');
  assert.equal(a.body.refresh_token, b.body.refresh_token);
  const next = await refresh(a.body.refresh_token);
  const reuse = await refresh(s.refresh_token);
  assert.equal(reuse.body.code, 'refresh_token_already_used');
  assert.equal((await refresh(next.body.refresh_token)).status, 400, 'A4: the newest token dies too');

  const s2 = (await gw.client().auth.signInWithPassword({ email: user.email, password: 'secret-123' })).data.session;
  const c = gw.client();
  await c.auth.setSession(s2);
  await c.auth.signOut({ scope: 'local' });
  assert.equal((await refresh(s2.refresh_token)).status, 400, 'A6');
});

test('A7 redirect_to outside the allow-list falls back to the site URL; A8 links ignore forwarded hosts', async () => {
  const bad = [
    'https://evil.com', '//evil.com', 'https://site.example.com@evil.com', 'https://site.example.com.evil.com',
    'javascript:alert(1)', 'http://2130706433/',
  ];
  const admin = strict.client(strict.serviceKey);
  for (const [i, redirectTo] of [...bad, 'https://pr-7.preview.example.com/welcome', 'http://[::1]:1/'].entries()) {
    const email = `a7.${i}.${Date.now()}@example.com`;
    await admin.auth.admin.createUser({ email, password: 'secret-123', email_confirm: true });
    const res = await fetch(`${strict.url}/auth/v1/recover?redirect_to=${encodeURIComponent(redirectTo)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: strict.anonKey, 'x-forwarded-host': 'evil.com', 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ email }),
    });
    assert.equal(res.status, 200, redirectTo);
    const link = linkOf(await waitForMail(mailDir, email));
    assert.equal(link.origin, 'https://api.example.com', 'A8');
    const expected = bad.includes(redirectTo) ? 'https://site.example.com' : redirectTo;
    assert.equal(link.searchParams.get('redirect_to'), expected, redirectTo);
  }
});

test('A9 token attempts from one address get 429 after the bucket; A11 mass sign-up gets 429', async () => {
  const statuses = [];
  for (let i = 0; i < 8; i++) {
    const { error } = await strict.client().auth.signInWithPassword({ email: `a9.${i}@example.com`, password: 'guess-123' });
    statuses.push(error.status);
  }
  assert.ok(statuses.includes(429), statuses.join(','));
  assert.equal(statuses.find((s) => s === 429) && 'over_request_rate_limit', 'over_request_rate_limit');
  const codes = [];
  for (let i = 0; i < 20; i++) {
    const { error } = await strict.client().auth.signUp({ email: `a11.${Date.now()}.${i}@example.com`, password: 'secret-123' });
    codes.push(error?.status ?? 200);
  }
  assert.ok(codes.includes(429), codes.join(','));
});

test('A10 weak passwords are refused with weak_password', async () => {
  const { error } = await gw.client().auth.signUp({ email: `a10.${Date.now()}@example.com`, password: '12345' });
  assert.equal(error.name, 'AuthWeakPasswordError');
  assert.equal(error.status, 422);
  assert.deepEqual(error.reasons, ['length']);
});

test('A12 an e-mail change takes effect only after both addresses confirm', async () => {
  const email = `a12.${Date.now()}@example.com`;
  const next = `a12n.${Date.now()}@example.com`;
  const s = (await gw.client().auth.signUp({ email, password: 'secret-123' })).data.session;
  const c = gw.client();
  await c.auth.setSession(s);
  const { data, error } = await c.auth.updateUser({ email: next });
  assert.equal(error, null);
  assert.equal(data.user.email, email);
  assert.equal(data.user.new_email, next);
  assert.equal((await gw.client().auth.signInWithPassword({ email: next, password: 'secret-123' })).error.code, 'invalid_credentials');
});

test('A13 the admin API refuses anon and user tokens', async () => {
  const { error } = await gw.client().auth.admin.listUsers();
  assert.equal(error.status, 403);
  assert.equal(error.code, 'not_admin');
  const asUser = await fetch(`${gw.url}/auth/v1/admin/users`, { headers: { authorization: `Bearer ${user.token}` } });
  assert.equal(asUser.status, 403);
  const { data } = await gw.client(gw.serviceKey).auth.admin.listUsers();
  assert.ok(data.users.length >= 1);
});

test('A14 the demo JWT secret is refused in production', async () => {
  await assert.rejects(
    startGateway({ env: { GOTRUE_JWT_SECRET: 'super-secret-jwt-token-with-at-least-32-characters-long', GATEWAY_ENV: 'production' } }),
    /demo secret/,
  );
});
