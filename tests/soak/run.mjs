// make soak: the gateway (release build) under a steady mix of data API reads and writes, sign-ins and storage
// uploads/downloads (8 loops) for SOAK_SECS (default 600) on a private cluster. Reports per window (a minute; a fifth
// of a shorter run; the first window is the warm-up): steps, failures, p50/p99 step time, the gateway's RSS. Fails on
// - any failed step;
// - RSS growing more than 10 % from its size at the end of the warm-up;
// - p99 not stable: a window after the warm-up whose p99 exceeds P99_FACTOR (2) times the p99 of the warm-up's second
//   half plus P99_FLOOR_MS (25 ms) (windows of fewer than 50 steps, such as a short last one, are not judged).
// Before the clock starts, FILL_TOKENS (1,000) distinct access tokens (refresh grants, no password hashing) are
// each used once, so the identity cache — bounded at 1,000 verified identities, ~6 KB each — is full: its filling
// is growth by design, not a leak, and would otherwise run through the whole soak (2 sign-ins/s reach 1,000 after
// about 8 minutes). The RSS before and after the fill is printed.
//   GATEWAY_BIN=target/release/gateway node tests/soak/run.mjs
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { call, load, openStack, serviceHeaders, sleep } from '../faults/lib/faults.mjs';

const seconds = Number(process.env.SOAK_SECS ?? 600);
const windowSecs = Math.min(60, seconds / 5);
const warmup = windowSecs;
const P99_FACTOR = 2;
const P99_FLOOR_MS = 25;
const MIN_JUDGED_STEPS = 50;
const stack = openStack('soak');
stack.cluster.sql(`create table public.soak_notes (id bigint generated always as identity primary key,
  user_id uuid not null default auth.uid(), body text not null check (length(body) <= 200));
  alter table public.soak_notes enable row level security;
  create policy own on public.soak_notes for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
  grant select, insert on public.soak_notes to authenticated;`);
const gw = await stack.gateway({
  GATEWAY_HTTP_WORKERS: '2',
  GOTRUE_RATE_LIMIT_TOKEN_REFRESH: '1000000',
  GATEWAY_RATE_LIMIT_ACCOUNT: '1000000',
});
const rss = () => Number(readFileSync(`/proc/${gw.child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) * 1024;

// One confirmed user, a private bucket.
const email = `soak-${randomUUID().slice(0, 8)}@example.com`;
const password = 'soak-password-123';
const json = (gwHeaders, body) => ({ method: 'POST', headers: gwHeaders, body: JSON.stringify(body) });
const created = await call(`${gw.url}/auth/v1/admin/users`, json(serviceHeaders(gw), { email, password, email_confirm: true }));
if (created.status !== 200) throw new Error(`admin create user: ${created.status} ${created.text}`);
const bucket = await call(`${gw.url}/storage/v1/bucket`, json(serviceHeaders(gw), { name: 'soak', public: false }));
if (bucket.status !== 200) throw new Error(`create bucket: ${bucket.status} ${bucket.text}`);
const signIn = () =>
  call(`${gw.url}/auth/v1/token?grant_type=password`, json({ apikey: gw.anonKey, 'content-type': 'application/json' }, { email, password }));
let token = (await signIn()).json.access_token;
const user = () => ({ apikey: gw.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' });
const anon = { apikey: gw.anonKey, authorization: `Bearer ${gw.anonKey}` };
const file = Buffer.alloc(4096, 'soak ');

const steps = [
  // 0-3: reads of public rows
  () => call(`${gw.url}/rest/v1/jobs?select=id,title,location&status=eq.active&order=posted_date.desc&limit=10`, { headers: anon }),
  () => call(`${gw.url}/rest/v1/jobs?select=*&limit=1`, { headers: anon }),
  // 2: a write and a read of one's own rows under RLS
  async () => {
    const r = await call(`${gw.url}/rest/v1/soak_notes`, json({ ...user(), prefer: 'return=representation' }, { body: 'note' }));
    if (r.status !== 201) return r;
    return call(`${gw.url}/rest/v1/soak_notes?id=eq.${r.json[0].id}`, { headers: user() });
  },
  // 3: sign-in (password hashing), then the new token is used
  async () => {
    const r = await signIn();
    if (r.status === 200) token = r.json.access_token;
    await sleep(400);
    return r;
  },
  // 4: upload, download, delete
  async () => {
    const name = `${randomUUID()}.txt`;
    const up = await call(`${gw.url}/storage/v1/object/soak/${name}`, {
      method: 'POST',
      headers: { ...serviceHeaders(gw), 'content-type': 'text/plain' },
      body: file,
    });
    if (up.status !== 200) return up;
    const down = await call(`${gw.url}/storage/v1/object/soak/${name}`, { headers: serviceHeaders(gw) });
    if (down.status !== 200 || down.text.length !== file.length) return { ...down, status: down.status === 200 ? 599 : down.status };
    return call(`${gw.url}/storage/v1/object/soak/${name}`, { method: 'DELETE', headers: serviceHeaders(gw) });
  },
];
const workerSteps = [0, 0, 1, 2, 2, 3, 4, 4];

// Fill the identity cache to its bound (see the header).
const FILL_TOKENS = Number(process.env.SOAK_FILL_TOKENS ?? 1000);
const beforeFill = rss();
let session = (await signIn()).json;
for (let i = 0; i < FILL_TOKENS; i++) {
  const refreshed = await call(`${gw.url}/auth/v1/token?grant_type=refresh_token`,
    json({ apikey: gw.anonKey, 'content-type': 'application/json' }, { refresh_token: session.refresh_token }));
  if (refreshed.status !== 200) throw new Error(`refresh: ${refreshed.status} ${refreshed.text}`);
  session = refreshed.json;
  const used = await call(`${gw.url}/rest/v1/jobs?select=id&limit=1`, { headers: { apikey: gw.anonKey, authorization: `Bearer ${session.access_token}` } });
  if (used.status !== 200) throw new Error(`a filling token's read: ${used.status} ${used.text}`);
}
const mbOf = (b) => `${(b / 1048576).toFixed(1)} MB`;
console.log(`identity cache filled with ${FILL_TOKENS} distinct tokens: RSS ${mbOf(beforeFill)} -> ${mbOf(rss())}`);

const started = performance.now();
const windows = [];
const errors = [];
const warmupEnd = []; // step times in the warm-up's second half: the reference for p99
const bucketOf = (at) => Math.floor((at - started) / (windowSecs * 1000));
const samples = [];
const sampler = setInterval(() => samples.push({ at: performance.now(), rss: rss() }), 5000);
await load(
  workerSteps.length,
  async (w) => {
    const r = await steps[workerSteps[w]]();
    const m = (windows[bucketOf(r.started)] ??= { n: 0, errors: 0, ms: [] });
    m.n++;
    m.ms.push(r.ms);
    const offset = (r.started - started) / 1000;
    if (offset >= warmup / 2 && offset < warmup) warmupEnd.push(r.ms);
    if (r.status < 200 || r.status >= 300) {
      m.errors++;
      if (errors.length < 10) errors.push(`${r.status} ${r.url}: ${r.text.slice(0, 200)}`);
    }
    return null;
  },
  () => performance.now() - started > seconds * 1000,
);
clearInterval(sampler);
await stack.close();

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const mb = (b) => `${(b / 1048576).toFixed(1)} MB`;
console.log('window  from s     steps  errors   p50 ms   p99 ms   RSS at end');
windows.forEach((m, i) => {
  const at = samples.filter((s) => bucketOf(s.at) === i).at(-1);
  const from = String(Math.round(i * windowSecs)).padStart(6);
  console.log(`${String(i + 1).padStart(6)}  ${from}  ${String(m.n).padStart(8)}  ${String(m.errors).padStart(6)}  ${pct(m.ms, 50).toFixed(1).padStart(7)}  ${pct(m.ms, 99).toFixed(1).padStart(7)}   ${at ? mb(at.rss) : '-'}`);
});
const afterWarmup = samples.filter((s) => s.at - started >= warmup * 1000);
const base = afterWarmup[0]?.rss ?? samples[0].rss;
const end = samples.at(-1).rss;
const peak = Math.max(...samples.map((s) => s.rss));
const growth = (100 * (end - base)) / base;
const total = windows.reduce((a, m) => a + m.n, 0);
const failed = windows.reduce((a, m) => a + m.errors, 0);
// p99 stability: every judged window after the warm-up within P99_FACTOR x the warm-up-end p99 + P99_FLOOR_MS
const reference = pct(warmupEnd, 99);
const limit = P99_FACTOR * reference + P99_FLOOR_MS;
const judged = windows.map((m, i) => ({ i, p99: pct(m.ms, 99), n: m.n })).filter((w) => w.i > 0 && w.n >= MIN_JUDGED_STEPS);
const worst = judged.reduce((a, w) => (a && a.p99 >= w.p99 ? a : w), null);
const p99Stable = judged.length > 0 && judged.every((w) => w.p99 <= limit);
console.log(`soak: ${seconds} s, ${total} steps (${(total / seconds).toFixed(0)}/s; a step is one read, a write + read, a sign-in, or an upload + download + delete), ${failed} failed`);
console.log(`RSS after warm-up ${mb(base)}, at end ${mb(end)} (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} %), peak ${mb(peak)}`);
console.log(`p99 at the end of the warm-up ${reference.toFixed(1)} ms; limit ${P99_FACTOR} x that + ${P99_FLOOR_MS} ms = ${limit.toFixed(1)} ms;` +
  ` highest after the warm-up ${worst ? `${worst.p99.toFixed(1)} ms (window ${worst.i + 1})` : '-'} over ${judged.length} windows` +
  ` — ${p99Stable ? 'stable' : 'NOT stable'}`);
for (const e of errors) console.log(`  error: ${e}`);
const verdict = { 'no failed step': failed === 0, 'RSS growth <= 10 %': growth <= 10, 'p99 stable': p99Stable };
const broken = Object.entries(verdict).filter(([, ok]) => !ok).map(([rule]) => rule);
console.log(broken.length === 0 ? 'soak: passed' : `soak: FAILED (${broken.join(', ')})`);
process.exit(broken.length === 0 ? 0 : 1);
