// Realtime benchmark driver (tests/bench/realtime.sh starts the cluster and a release gateway, then runs this).
// Raw Phoenix vsn 2.0.0 frames exactly as supabase-js sends them (a supabase-js client per socket would make the
// load generator the bottleneck): 1) N idle sockets, each joined to a channel — gateway RSS per socket;
// 2) broadcast fan-out to S subscribers — deliveries/s and latency percentiles, nothing lost; 3) postgres_changes
// at R changes/s to U subscribers (one user each) under an RLS policy — commit→client latency, losses, and the
// PostgreSQL CPU the gateway's replication and visibility checks cost per change.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { importPKCS8, SignJWT } from 'jose';

const { BENCH_URL: url, BENCH_ANON: anon, BENCH_DB: db, GATEWAY_PID: pid } = process.env;
const IDLE = Number(process.env.BENCH_IDLE_SOCKETS ?? 10000);
const FANOUT = Number(process.env.BENCH_FANOUT_SUBSCRIBERS ?? 1000);
const CHANGE_SUBS = Number(process.env.BENCH_CHANGE_SUBSCRIBERS ?? 100);
const CHANGE_RATE = Number(process.env.BENCH_CHANGE_RATE ?? 500);
const CHANGE_SECONDS = Number(process.env.BENCH_CHANGE_SECONDS ?? 10);
const wsUrl = `${url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${anon}&vsn=2.0.0`;

const psql = (sql) => execFileSync('psql', ['-qAtX', '-v', 'ON_ERROR_STOP=1', db, '-c', sql], { encoding: 'utf8' }).trim();
const rssKb = (p) => Number(readFileSync(`/proc/${p}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/** Opens a socket and joins `topic` with `payload`; resolves with the socket once the join reply is ok. */
function join(topic, payload, onMessage = () => {}) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl);
    ws.binaryType = 'arraybuffer';
    ws.on('open', () => ws.send(JSON.stringify(['1', '1', topic, 'phx_join', payload])));
    ws.on('message', (data, isBinary) => {
      if (!isBinary) {
        const m = JSON.parse(data.toString());
        if (m[3] === 'phx_reply' && m[1] === '1') {
          return m[4].status === 'ok' ? resolve(ws) : reject(new Error(JSON.stringify(m[4])));
        }
      }
      onMessage(data, isBinary);
    });
    ws.on('error', reject);
  });
}

async function inBatches(n, size, make) {
  const out = [];
  for (let i = 0; i < n; i += size) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(size, n - i) }, (_, k) => make(i + k)))));
  }
  return out;
}

const closeAll = async (sockets) => {
  for (const s of sockets) s.terminate();
  await sleep(1000);
};

async function idleSockets() {
  const before = rssKb(pid);
  const started = Date.now();
  const sockets = await inBatches(IDLE, 500, (i) => join(`realtime:idle-${i % 100}`, { config: { broadcast: { self: false }, postgres_changes: [] } }));
  const opened = (Date.now() - started) / 1000;
  await sleep(3000);
  const after = rssKb(pid);
  await closeAll(sockets);
  return { sockets: IDLE, rss_before_mb: before / 1024, rss_after_mb: after / 1024, kb_per_socket: (after - before) / IDLE, open_seconds: opened };
}

/** Kind-3 frame: user broadcast push with a JSON payload. */
function kind3(joinRef, ref, topic, event, json) {
  const enc = new TextEncoder();
  const [j, r, t, e, p] = [joinRef, ref, topic, event, json].map((x) => enc.encode(x));
  const out = new Uint8Array(7 + j.length + r.length + t.length + e.length + p.length);
  out.set([3, j.length, r.length, t.length, e.length, 0, 1]);
  let o = 7;
  for (const part of [j, r, t, e, p]) {
    out.set(part, o);
    o += part.length;
  }
  return out;
}

async function fanout(rate, count) {
  const latencies = [];
  let delivered = 0;
  let last = 0;
  const onMessage = (data, isBinary) => {
    if (!isBinary) return;
    const b = new Uint8Array(data);
    const [tl, el, ml] = [b[1], b[2], b[3]];
    const body = JSON.parse(new TextDecoder().decode(b.subarray(5 + tl + el + ml)));
    const t = nowMs();
    latencies.push(t - body.t);
    delivered++;
    last = t;
  };
  const topic = `realtime:fan-${rate}`;
  const subs = await inBatches(FANOUT, 250, () => join(topic, { config: { broadcast: { self: false } } }, onMessage));
  const sender = await join(topic, { config: { broadcast: { self: false } } });
  await sleep(1000);
  const first = nowMs();
  for (let i = 0; i < count; i++) {
    sender.send(kind3('1', String(i + 2), topic, 'tick', JSON.stringify({ t: nowMs(), i })));
    const due = first + ((i + 1) * 1000) / rate;
    const wait = due - nowMs();
    if (wait > 0) await sleep(wait);
  }
  const expected = count * FANOUT;
  const until = Date.now() + 30000;
  while (delivered < expected && Date.now() < until) await sleep(50);
  await closeAll([...subs, sender]);
  return {
    subscribers: FANOUT,
    messages: count,
    send_rate: rate,
    delivered,
    lost: expected - delivered,
    deliveries_per_s: Math.round(delivered / ((last - first) / 1000)),
    p50_ms: pct(latencies, 50),
    p99_ms: pct(latencies, 99),
  };
}

function pem(base64) {
  return `-----BEGIN PRIVATE KEY-----\n${base64.replace(/\s+/g, '').match(/.{1,64}/g).join('\n')}\n-----END PRIVATE KEY-----\n`;
}

/** utime+stime (ms) of the PostgreSQL backends whose pid this query returns. */
function cpuMs(pids) {
  let ticks = 0;
  for (const p of pids) {
    try {
      const f = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      /* gone */
    }
  }
  return ticks * 10; // USER_HZ = 100
}

async function changes() {
  const [kid, der] = psql("select kid || '|' || encode(private_key_der, 'base64') from gateway.signing_keys where status = 'current'").split('|');
  const key = await importPKCS8(pem(der), 'ES256');
  const users = Array.from({ length: CHANGE_SUBS }, () => randomUUID());
  const latencies = [];
  let received = 0;
  const onMessage = (data, isBinary) => {
    if (isBinary) return;
    const m = JSON.parse(data.toString());
    if (m[3] !== 'postgres_changes') return;
    received++;
    latencies.push(Date.now() - Date.parse(m[4].data.record.sent_at));
  };
  const subscribed = new Set();
  const sockets = await inBatches(CHANGE_SUBS, 50, async (i) => {
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const token = await new SignJWT({ sub: users[i], role: 'authenticated', exp })
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .sign(key);
    return join(
      `realtime:changes-${i}`,
      { config: { postgres_changes: [{ event: 'INSERT', schema: 'public', table: 'bench_changes' }] }, access_token: token },
      (data, isBinary) => {
        if (!isBinary && data.toString().includes('Subscribed to PostgreSQL')) subscribed.add(i);
        onMessage(data, isBinary);
      },
    );
  });
  const until = Date.now() + 30000;
  while (subscribed.size < CHANGE_SUBS && Date.now() < until) await sleep(50);
  // the walsender and the dispatcher's backend (which runs the RLS checks; it connects at the first change, so
  // the set is read again at the end and a backend that started meanwhile counts from zero)
  const realtimePids = () =>
    psql("select coalesce(string_agg(pid::text, ','), '') from pg_stat_activity where application_name = 'gateway realtime' or backend_type = 'walsender'")
      .split(',')
      .filter(Boolean);
  const total = CHANGE_RATE * CHANGE_SECONDS;
  const cpu0 = new Map(realtimePids().map((p) => [p, cpuMs([p])]));
  const inserter = spawn('psql', ['-qAtX', db, '-c', `call bench_insert(${total}, ${CHANGE_RATE}, array['${users.join("','")}']::uuid[])`], { stdio: 'inherit' });
  await new Promise((r) => inserter.on('exit', r));
  const wait = Date.now() + 20000;
  while (received < total && Date.now() < wait) await sleep(50);
  let spentMs = 0;
  for (const p of new Set([...cpu0.keys(), ...realtimePids()])) spentMs += Math.max(0, cpuMs([p]) - (cpu0.get(p) ?? 0));
  await closeAll(sockets);
  return {
    subscribers: CHANGE_SUBS,
    subscribed: subscribed.size,
    changes: total,
    rate: CHANGE_RATE,
    received,
    lost: total - received,
    p50_ms: pct(latencies, 50),
    p99_ms: pct(latencies, 99),
    pg_cpu_ms_per_change: spentMs / total,
  };
}

const results = {};
if (IDLE > 0) results.idle = await idleSockets();
results.fanout_paced = await fanout(Number(process.env.BENCH_FANOUT_RATE ?? 20), Number(process.env.BENCH_FANOUT_MESSAGES ?? 200));
results.fanout_burst = await fanout(1e6, Number(process.env.BENCH_FANOUT_BURST ?? 100));
results.changes = await changes();
results.rss_end_mb = rssKb(pid) / 1024;
console.log(JSON.stringify(results, null, 2));
process.exit(0);
