// The whole e-mail/password journey through the real supabase-js: sign up with confirmation by mail, confirm through
// the link, sign in, getClaims() verified from the JWKS (and by jose), refresh, update, recover, sign out.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteJWKSet, jwtVerify, decodeProtectedHeader } from 'jose';
import { startGateway } from '../lib/gateway.mjs';
import { waitForMail, linkOf, codeOf } from './mail.mjs';

let gw;
const mailDir = mkdtempSync(join(tmpdir(), 'gw-mail-'));
before(async () => {
  gw = await startGateway({
    env: { GATEWAY_MAIL_DIR: mailDir, GOTRUE_SITE_URL: 'http://localhost:3000', GOTRUE_SMTP_MAX_FREQUENCY: '0' },
  });
});
after(async () => {
  await gw?.stop();
  rmSync(mailDir, { recursive: true, force: true });
});

/** Follows an e-mail link the way a browser would (no JS), returning the redirect's fragment parameters. */
async function clickLink(link) {
  const local = new URL(link.pathname + link.search, gw.url);
  const res = await fetch(local, { redirect: 'manual' });
  assert.equal(res.status, 303);
  const location = new URL(res.headers.get('location'));
  return { location, params: new URLSearchParams(location.hash.slice(1)) };
}

test('sign-up needs the mailed confirmation, then the user can sign in and everything verifies from the JWKS', async () => {
  const supabase = gw.client();
  const email = `Ann.${Date.now()}@Example.com`;
  const { data, error } = await supabase.auth.signUp({ email, password: 'secret-123', options: { data: { first_name: 'Ann' } } });
  assert.equal(error, null);
  assert.equal(data.session, null, 'confirmation required: no session');
  assert.equal(data.user.email, email.toLowerCase());
  assert.equal(data.user.user_metadata.first_name, 'Ann');

  const early = await supabase.auth.signInWithPassword({ email, password: 'secret-123' });
  assert.equal(early.error.code, 'email_not_confirmed');

  const message = await waitForMail(mailDir, email.toLowerCase());
  const { location, params } = await clickLink(linkOf(message));
  assert.equal(location.origin, 'http://localhost:3000');
  assert.equal(params.get('type'), 'signup');
  assert.ok(params.get('access_token'));

  const signedIn = await supabase.auth.signInWithPassword({ email, password: 'secret-123' });
  assert.equal(signedIn.error, null);
  const token = signedIn.data.session.access_token;
  assert.ok(signedIn.data.user.email_confirmed_at);

  // getClaims verifies locally with the published key (ES256, kid in the header).
  const claims = await supabase.auth.getClaims();
  assert.equal(claims.error, null);
  assert.equal(claims.data.claims.email, email.toLowerCase());
  assert.equal(claims.data.header.alg, 'ES256');
  assert.equal(claims.data.claims.role, 'authenticated');

  // Any JOSE library verifies the token from the JWKS URL.
  const jwks = createRemoteJWKSet(new URL(`${gw.url}/auth/v1/.well-known/jwks.json`));
  const verified = await jwtVerify(token, jwks, { audience: 'authenticated' });
  assert.equal(verified.payload.sub, signedIn.data.user.id);
  assert.equal(decodeProtectedHeader(token).kid, verified.protectedHeader.kid);

  const refreshed = await supabase.auth.refreshSession();
  assert.equal(refreshed.error, null);
  assert.notEqual(refreshed.data.session.refresh_token, signedIn.data.session.refresh_token);

  const updated = await supabase.auth.updateUser({ data: { first_name: 'Anna' } });
  assert.equal(updated.error, null);
  assert.equal(updated.data.user.user_metadata.first_name, 'Anna');
  const user = await supabase.auth.getUser();
  assert.equal(user.data.user.user_metadata.first_name, 'Anna');

  const out = await supabase.auth.signOut();
  assert.equal(out.error, null);
  const stale = await gw.client().auth.getUser(refreshed.data.session.access_token);
  assert.equal(stale.error.name, 'AuthSessionMissingError');
});

test('password recovery by mail signs the user in and lets them set a new password', async () => {
  const admin = gw.client(gw.serviceKey);
  const email = `bob.${Date.now()}@example.com`;
  const created = await admin.auth.admin.createUser({ email, password: 'old-secret-1', email_confirm: true });
  assert.equal(created.error, null);

  const supabase = gw.client();
  const sent = await supabase.auth.resetPasswordForEmail(email, { redirectTo: 'http://localhost:3000/reset' });
  assert.deepEqual(sent, { data: {}, error: null });
  const unknown = await supabase.auth.resetPasswordForEmail(`nobody.${Date.now()}@example.com`);
  assert.deepEqual(unknown, { data: {}, error: null }, 'unknown addresses get the same answer');

  const message = await waitForMail(mailDir, email);
  const link = linkOf(message);
  assert.equal(link.searchParams.get('type'), 'recovery');
  assert.equal(link.searchParams.get('redirect_to'), 'http://localhost:3000/reset');
  const verified = await supabase.auth.verifyOtp({ token_hash: link.searchParams.get('token'), type: 'recovery' });
  assert.equal(verified.error, null);
  assert.ok(verified.data.session.access_token);
  const changed = await supabase.auth.updateUser({ password: 'new-secret-2' });
  assert.equal(changed.error, null);
  assert.equal((await gw.client().auth.signInWithPassword({ email, password: 'old-secret-1' })).error.code, 'invalid_credentials');
  assert.equal((await gw.client().auth.signInWithPassword({ email, password: 'new-secret-2' })).error, null);
});

test('the mailed code works as well as the link (verifyOtp with email + token)', async () => {
  const supabase = gw.client();
  const email = `cat.${Date.now()}@example.com`;
  await supabase.auth.signUp({ email, password: 'secret-123' });
  const code = codeOf(await waitForMail(mailDir, email));
  const { data, error } = await supabase.auth.verifyOtp({ email, token: code, type: 'signup' });
  assert.equal(error, null);
  assert.equal(data.user.email, email);
  const again = await gw.client().auth.verifyOtp({ email, token: code, type: 'signup' });
  assert.equal(again.error.code, 'otp_expired');
});

test('PKCE: the mailed link returns a code that the same client exchanges for a session', async () => {
  const supabase = gw.client(gw.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType: 'pkce' },
  });
  const email = `pkce.${Date.now()}@example.com`;
  const { error } = await supabase.auth.signUp({ email, password: 'secret-123', options: { emailRedirectTo: 'http://localhost:3000/welcome' } });
  assert.equal(error, null);
  const link = linkOf(await waitForMail(mailDir, email));
  assert.match(link.searchParams.get('token'), /^pkce_/);
  const res = await fetch(new URL(link.pathname + link.search, gw.url), { redirect: 'manual' });
  const location = new URL(res.headers.get('location'));
  assert.equal(location.origin + location.pathname, 'http://localhost:3000/welcome');
  const exchanged = await supabase.auth.exchangeCodeForSession(location.searchParams.get('code'));
  assert.equal(exchanged.error, null);
  assert.equal(exchanged.data.user.email, email);
});
