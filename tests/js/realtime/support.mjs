// Realtime test support: a gateway with short join/connect back-offs, tokens minted with the database's signing
// key, and small promise helpers around supabase-js channels (the stock client from npm, with `ws` on Node 20).
import { spawn } from 'node:child_process';
import { before, after } from 'node:test';
import { SignJWT } from 'jose';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { startGateway } from '../lib/gateway.mjs';
import { currentSigningKey } from '../policies/identities.mjs';

/** Tables the postgres_changes suites subscribe to: one without RLS, one with per-owner RLS and a private column. */
export const TABLES = `
  create table public.rt_notes (id int primary key, body text, n int, tags text[], meta jsonb);
  grant select on public.rt_notes to anon, authenticated;
  alter publication supabase_realtime add table public.rt_notes;
  create table public.rt_todos (
    id bigint generated always as identity primary key, owner uuid not null, title text, secret text,
    done boolean not null default false);
  alter table public.rt_todos enable row level security;
  alter table public.rt_todos replica identity full;
  grant select (id, owner, title, done) on public.rt_todos to authenticated;
  create policy "own rows" on public.rt_todos for select to authenticated using (owner = (select auth.uid()));
  alter publication supabase_realtime add table public.rt_todos;
`;

/** Realtime's back-offs shortened so refused joins answer quickly in tests (their values are Realtime's otherwise). */
export const FAST = { CHANNEL_ERROR_BACKOFF_MS: '200', CONNECT_ERROR_BACKOFF_MS: '50' };

/** One gateway for a whole test file: started before its tests (handed to `use`), its clients closed and the gateway
 *  stopped after them. */
export function gatewayForFile(options, use) {
  let gw;
  before(async () => {
    gw = await startRealtime(options);
    use(gw);
  });
  after(async () => {
    closeClients();
    await gw?.stop();
  });
}

export async function startRealtime({ env = {}, sql = null } = {}) {
  const gw = await startGateway({ env: { ...FAST, ...env }, sql });
  gw.signingKey = await currentSigningKey(gw);
  return gw;
}

/** A user access token (role authenticated) for `sub`, expiring in `seconds`. */
export async function userToken(gw, sub = randomUUID(), { seconds = 3600, role = 'authenticated', extra = {} } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub, role, aud: 'authenticated', ...extra })
    .setProtectedHeader({ alg: 'ES256', kid: gw.signingKey.kid, typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + seconds)
    .sign(gw.signingKey.key);
}

const clients = [];

/** A supabase-js client with the anon key and these realtime options (`ws` as the transport on Node 20). */
export function anonClient(gw, realtime = {}, options = {}) {
  const c = gw.client(gw.anonKey, { ...options, realtime: { transport: WebSocket, ...realtime } });
  clients.push(c);
  return c;
}

/** Closes every client's socket (else realtime-js keeps it, and the test process, alive for 50 s). */
export function closeClients() {
  for (const c of clients.splice(0)) c.realtime.disconnect();
}

/** A supabase-js client signed in as `token` (its accessToken callback gives the token to Realtime too). */
export async function clientWithToken(gw, token, realtime = {}) {
  const c = anonClient(gw, realtime, { accessToken: async () => token });
  await c.realtime.setAuth(token);
  return c;
}

/** Waits until `predicate()` is truthy (polling), or fails after `ms`. */
export async function waitFor(predicate, ms = 8000, what = 'condition') {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const v = await predicate();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Subscribes and resolves with the first status (SUBSCRIBED, CHANNEL_ERROR, TIMED_OUT, CLOSED); every later status
 * is pushed onto `statuses`.
 */
export function subscribe(channel, timeoutMs = 10000, statuses = []) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ status: 'NO_ANSWER' }), timeoutMs);
    channel.subscribe((status, err) => {
      statuses.push(status);
      clearTimeout(timer);
      resolve({ status, err });
    });
  });
}

/** Collects events of one kind on a channel into an array (call before subscribe). */
export function collect(channel, type, filter = {}) {
  const seen = [];
  channel.on(type, filter, (payload) => seen.push(payload));
  return seen;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Another gateway process on `gw`'s database (a second instance, or a restart of it): `{ url, client, stop, kill }`
 * where `stop` sends SIGTERM (a clean shutdown) and `kill` SIGKILL (a crash).
 */
export async function instanceOn(gw, env = {}) {
  const port = process.env.TEST_PGPORT;
  const child = spawn(process.env.GATEWAY_BIN, ['serve'], {
    env: {
      ...process.env,
      DATABASE_URL: `postgres://authenticator:${process.env.TEST_AUTHENTICATOR_PASSWORD}@127.0.0.1:${port}/${gw.db}`,
      GATEWAY_ADMIN_DB_URI: `postgres://postgres@127.0.0.1:${port}/${gw.db}`,
      PORT: '0',
      RUST_LOG: 'warn',
      ...FAST,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on ([0-9.:]+)\)/);
      if (m) resolve(`http://${m[1]}`);
    });
    child.on('exit', (code) => reject(new Error(`the other gateway exited with ${code}`)));
  });
  const ended = (signal) => async () => {
    child.kill(signal);
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.on('exit', r)));
  };
  return {
    ...gw,
    url,
    client: (key, options) => gw.clientAt(url, key, options),
    stop: ended('SIGTERM'),
    kill: ended('SIGKILL'),
  };
}
