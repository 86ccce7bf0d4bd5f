// The e-mail/password journey with mail delivered over real SMTP: the gateway is started with GOTRUE_SMTP_HOST/PORT
// (and USER/PASS) pointing at an SMTP server run by this test that requires AUTH, with autoconfirm off. Stock
// supabase-js signs up → the confirmation mail arrives → its link is followed → sign-in → getClaims() verified from the
// JWKS → refresh → updateUser → a recovery mail whose link signs the user in and lets them set a password → sign-out.
// Every HTTP status supabase-js sees is recorded through its `global.fetch` option and asserted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SMTPServer } from 'smtp-server';
import { decodeProtectedHeader } from 'jose';
import { startGateway } from '../lib/gateway.mjs';
import { parseMessage } from './mime.mjs';

const SMTP_USER = 'gateway-mailer';
const SMTP_PASS = 'smtp-test-password';
const SENDER = 'no-reply@firm.example';
const SITE = 'http://localhost:3000';
const CONFIRM_SUBJECT = 'Confirm your sign-up to Firm';
const RECOVERY_SUBJECT = 'Reset your Firm password';

/** Every message the SMTP server accepted: envelope, authenticated user and raw text. */
const received = [];
let smtp;
let gw;

before(async () => {
  smtp = new SMTPServer({
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: true, // loopback only: the gateway allows plain SMTP to local hosts
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASS) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (d) => chunks.push(d));
      stream.on('end', () => {
        received.push({
          mailFrom: session.envelope.mailFrom.address,
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          user: session.user,
          raw: Buffer.concat(chunks).toString('latin1'),
        });
        callback();
      });
    },
  });
  await new Promise((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(0, '127.0.0.1', resolve);
  });
  gw = await startGateway({
    env: {
      GOTRUE_SMTP_HOST: '127.0.0.1',
      GOTRUE_SMTP_PORT: String(smtp.server.address().port),
      GOTRUE_SMTP_USER: SMTP_USER,
      GOTRUE_SMTP_PASS: SMTP_PASS,
      GOTRUE_SMTP_ADMIN_EMAIL: SENDER,
      GOTRUE_SMTP_SENDER_NAME: 'Firm',
      GOTRUE_MAILER_AUTOCONFIRM: 'false',
      GOTRUE_MAILER_SUBJECTS_CONFIRMATION: CONFIRM_SUBJECT,
      GOTRUE_MAILER_SUBJECTS_RECOVERY: RECOVERY_SUBJECT,
      GOTRUE_SITE_URL: SITE,
      GOTRUE_URI_ALLOW_LIST: `${SITE}/**`,
      // The sign-up mail and the recovery mail go to one address within a minute.
      GOTRUE_SMTP_MAX_FREQUENCY: '0',
      GATEWAY_OUTBOX: 'off',
    },
  });
});

after(async () => {
  await gw?.stop();
  await new Promise((r) => (smtp ? smtp.close(r) : r()));
});

/** A supabase-js client whose requests are logged as `METHOD /path → status`. */
function recordingClient() {
  const log = [];
  const fetchAndRecord = async (input, init = {}) => {
    const res = await fetch(input, init);
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    log.push(`${(init.method ?? input.method ?? 'GET').toUpperCase()} ${url.pathname} → ${res.status}`);
    return res;
  };
  const client = gw.client(gw.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: fetchAndRecord },
  });
  /** The requests made since the last call. */
  const take = () => log.splice(0);
  return { client, take };
}

/** Waits (bounded: ~15 s) for message number `n` (1-based) addressed to `address`, and parses it. */
async function mailTo(address, n = 1) {
  for (let i = 0; i < 300; i++) {
    const list = received.filter((m) => m.rcptTo.includes(address));
    if (list.length >= n) return { ...list[n - 1], ...parseMessage(list[n - 1].raw) };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail #${n} to ${address}; received: ${JSON.stringify(received.map((m) => m.rcptTo))}`);
}

/** The verify link of a message: present in the text part, and the same (HTML-escaped) in the HTML part. */
function verifyLink(message) {
  const links = message.text.match(/https?:\/\/\S+\/auth\/v1\/verify\?\S+/g) ?? [];
  assert.equal(links.length, 1, `one verify link in the text part:\n${message.text}`);
  assert.ok(message.html.includes(links[0].replaceAll('&', '&amp;')), 'the HTML part carries the same link');
  return new URL(links[0]);
}

/** Follows an e-mail link as a browser would: GET, then the redirect's target with the session in its fragment. */
async function follow(link) {
  const res = await fetch(link, { redirect: 'manual' });
  const location = res.headers.get('location');
  return { status: res.status, location: location && new URL(location) };
}

test('sign-up confirmed through an SMTP-delivered link, then sign-in, claims, refresh, update, recovery by mail, sign-out', async () => {
  const { client: supabase, take } = recordingClient();
  const email = `smtp.${Date.now()}@example.com`;

  // Sign-up: no session until the address is confirmed.
  const signUp = await supabase.auth.signUp({
    email,
    password: 'first-secret-1',
    options: { emailRedirectTo: `${SITE}/welcome`, data: { first_name: 'Sam' } },
  });
  assert.equal(signUp.error, null);
  assert.equal(signUp.data.session, null);
  assert.equal(signUp.data.user.email, email);
  assert.equal(signUp.data.user.email_confirmed_at, undefined);
  assert.equal(signUp.data.user.user_metadata.first_name, 'Sam');
  assert.deepEqual(take(), ['POST /auth/v1/signup → 200']);

  const early = await supabase.auth.signInWithPassword({ email, password: 'first-secret-1' });
  assert.equal(early.error.code, 'email_not_confirmed');
  assert.equal(early.error.status, 400);
  assert.equal(early.data.session, null);
  take();

  // The confirmation mail went over SMTP, authenticated, from the configured sender to the new user only.
  const confirmation = await mailTo(email);
  assert.equal(confirmation.user, SMTP_USER);
  assert.equal(confirmation.mailFrom, SENDER);
  assert.deepEqual(confirmation.rcptTo, [email]);
  assert.match(confirmation.from, /^"?Firm"? <no-reply@firm\.example>$/, 'display name and sender address');
  assert.equal(confirmation.to, email);
  assert.equal(confirmation.subject, CONFIRM_SUBJECT);
  assert.ok(confirmation.text.includes(email), 'the text names the address being confirmed');
  const confirmLink = verifyLink(confirmation);
  assert.equal(confirmLink.origin + confirmLink.pathname, `${gw.url}/auth/v1/verify`);
  assert.equal(confirmLink.searchParams.get('type'), 'signup');
  assert.equal(confirmLink.searchParams.get('redirect_to'), `${SITE}/welcome`);

  // Following the link: 303 to the requested page with the session in the fragment, which the app adopts.
  const confirmed = await follow(confirmLink);
  assert.equal(confirmed.status, 303);
  assert.equal(confirmed.location.origin + confirmed.location.pathname, `${SITE}/welcome`);
  const fragment = new URLSearchParams(confirmed.location.hash.slice(1));
  assert.equal(fragment.get('type'), 'signup');
  assert.equal(fragment.get('token_type'), 'bearer');
  assert.ok(fragment.get('refresh_token'));
  const fromLink = await supabase.auth.setSession({
    access_token: fragment.get('access_token'),
    refresh_token: fragment.get('refresh_token'),
  });
  assert.equal(fromLink.error, null);
  assert.equal(fromLink.data.user.email, email);
  assert.ok(fromLink.data.user.email_confirmed_at);
  assert.equal(decodeProtectedHeader(fragment.get('access_token')).alg, 'ES256');
  take();

  // The link is single-use: a second click lands on the site with the error, not a session.
  const again = await follow(confirmLink);
  assert.equal(again.status, 303);
  const againFragment = new URLSearchParams(again.location.hash.slice(1));
  assert.equal(againFragment.get('error_code'), 'otp_expired');
  assert.equal(againFragment.get('access_token'), null);

  // Sign-in with the password now works.
  const signIn = await supabase.auth.signInWithPassword({ email, password: 'first-secret-1' });
  assert.equal(signIn.error, null);
  assert.equal(signIn.data.user.email, email);
  assert.ok(signIn.data.session.access_token);
  assert.equal(signIn.data.session.token_type, 'bearer');
  assert.deepEqual(take(), ['POST /auth/v1/token → 200']);

  // getClaims verifies the ES256 token locally with the key from the JWKS (no /user round trip).
  const claims = await supabase.auth.getClaims();
  assert.equal(claims.error, null);
  assert.deepEqual(take(), ['GET /auth/v1/.well-known/jwks.json → 200']);
  const jwks = await (await fetch(`${gw.url}/auth/v1/.well-known/jwks.json`)).json();
  assert.ok(jwks.keys.some((k) => k.kid === claims.data.header.kid), 'signed by a published key');
  assert.equal(claims.data.header.alg, 'ES256');
  assert.equal(claims.data.claims.sub, signIn.data.user.id);
  assert.equal(claims.data.claims.email, email);
  assert.equal(claims.data.claims.role, 'authenticated');
  assert.equal(claims.data.claims.aud, 'authenticated');
  assert.equal(claims.data.claims.iss, `${gw.url}/auth/v1`);
  assert.equal(claims.data.claims.session_id, JSON.parse(atob(signIn.data.session.access_token.split('.')[1])).session_id);
  assert.equal(claims.data.claims.user_metadata.first_name, 'Sam');

  // Refresh rotates the refresh token and keeps the user.
  const refreshed = await supabase.auth.refreshSession();
  assert.equal(refreshed.error, null);
  assert.notEqual(refreshed.data.session.refresh_token, signIn.data.session.refresh_token);
  assert.equal(refreshed.data.user.id, signIn.data.user.id);
  assert.deepEqual(take(), ['POST /auth/v1/token → 200']);

  // updateUser changes the metadata, visible to a fresh read of the user.
  const updated = await supabase.auth.updateUser({ data: { first_name: 'Samira' } });
  assert.equal(updated.error, null);
  assert.equal(updated.data.user.user_metadata.first_name, 'Samira');
  const reread = await supabase.auth.getUser();
  assert.equal(reread.data.user.user_metadata.first_name, 'Samira');
  assert.deepEqual(take(), ['PUT /auth/v1/user → 200', 'GET /auth/v1/user → 200']);

  // Recovery, from another browser: a second mail over SMTP whose link signs the user in to set a new password.
  const other = recordingClient();
  const sent = await other.client.auth.resetPasswordForEmail(email, { redirectTo: `${SITE}/reset` });
  assert.deepEqual(sent, { data: {}, error: null });
  assert.deepEqual(other.take(), ['POST /auth/v1/recover → 200']);
  const recovery = await mailTo(email, 2);
  assert.equal(recovery.user, SMTP_USER);
  assert.equal(recovery.mailFrom, SENDER);
  assert.deepEqual(recovery.rcptTo, [email]);
  assert.equal(recovery.to, email);
  assert.equal(recovery.subject, RECOVERY_SUBJECT);
  const recoveryLink = verifyLink(recovery);
  assert.equal(recoveryLink.searchParams.get('type'), 'recovery');
  assert.equal(recoveryLink.searchParams.get('redirect_to'), `${SITE}/reset`);
  const recovered = await follow(recoveryLink);
  assert.equal(recovered.status, 303);
  assert.equal(recovered.location.origin + recovered.location.pathname, `${SITE}/reset`);
  const recoveryFragment = new URLSearchParams(recovered.location.hash.slice(1));
  assert.equal(recoveryFragment.get('type'), 'recovery');
  const adopted = await other.client.auth.setSession({
    access_token: recoveryFragment.get('access_token'),
    refresh_token: recoveryFragment.get('refresh_token'),
  });
  assert.equal(adopted.error, null);
  assert.equal(adopted.data.user.id, signIn.data.user.id);
  other.take();
  const changed = await other.client.auth.updateUser({ password: 'second-secret-2' });
  assert.equal(changed.error, null);
  assert.deepEqual(other.take(), ['PUT /auth/v1/user → 200']);
  const oldPassword = await gw.client().auth.signInWithPassword({ email, password: 'first-secret-1' });
  assert.equal(oldPassword.error.code, 'invalid_credentials');
  assert.equal(oldPassword.error.status, 400);
  const newPassword = await gw.client().auth.signInWithPassword({ email, password: 'second-secret-2' });
  assert.equal(newPassword.error, null);
  assert.equal(newPassword.data.user.id, signIn.data.user.id);

  // The new password ended the first browser's session: its refresh token no longer works.
  const ended = await supabase.auth.refreshSession();
  assert.equal(ended.data.session, null);
  assert.equal(ended.error.code, 'refresh_token_not_found');
  take();

  // Sign-out ends the recovery session: 204, no local session, and its refresh token is refused afterwards.
  const otherRefresh = (await other.client.auth.getSession()).data.session.refresh_token;
  const out = await other.client.auth.signOut();
  assert.equal(out.error, null);
  assert.deepEqual(other.take(), ['POST /auth/v1/logout → 204']);
  assert.equal((await other.client.auth.getSession()).data.session, null);
  const reuse = await gw.client().auth.refreshSession({ refresh_token: otherRefresh });
  assert.equal(reuse.data.session, null);
  assert.equal(reuse.error.code, 'refresh_token_not_found');

  // Exactly two messages reached this address, in order: confirmation, then recovery.
  assert.deepEqual(
    received.filter((m) => m.rcptTo.includes(email)).map((m) => parseMessage(m.raw).subject),
    [CONFIRM_SUBJECT, RECOVERY_SUBJECT],
  );
});

test('a recovery request for an unknown address is answered like a known one and sends no mail', async () => {
  const { client, take } = recordingClient();
  const known = `known.${Date.now()}@example.com`;
  const unknown = `nobody.${Date.now()}@example.com`;
  const created = await gw.client(gw.serviceKey).auth.admin.createUser({ email: known, password: 'secret-123', email_confirm: true });
  assert.equal(created.error, null);
  // The unknown address first: the known address's mail arriving afterwards shows the requests were handled.
  assert.deepEqual(await client.auth.resetPasswordForEmail(unknown), { data: {}, error: null });
  assert.deepEqual(await client.auth.resetPasswordForEmail(known), { data: {}, error: null });
  assert.deepEqual(take(), ['POST /auth/v1/recover → 200', 'POST /auth/v1/recover → 200']);
  const mail = await mailTo(known);
  assert.equal(mail.subject, RECOVERY_SUBJECT);
  assert.deepEqual(
    received.filter((m) => m.rcptTo.includes(unknown)),
    [],
  );
});
