// SIGTERM under load (issue 14, case 2): the gateway stops accepting at once, finishes in-flight requests and
// uploads, exits 0 within GATEWAY_SHUTDOWN_TIMEOUT_SECS even when a client trickles past it; every write answered
// 2xx is stored, every object row has its whole file, and no partial or orphan file is left. The outbox claim is
// flushed too: a message being sent when SIGTERM comes is finished and marked sent within the bound (or, when the
// relay holds it past the bound, released unchanged), no new message is claimed, and a second gateway sends what
// is left — every message accepted by the relay exactly once. With GATEWAY_SHUTDOWN_DELAY_SECS, `/ready` answers 503
// at once while new connections are still served until the delay ends (a load balancer's health check takes the
// gateway out first), and only then are connections refused.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { call, load, openStack, serviceHeaders, sleep, statusCounts, waitFor } from './lib/faults.mjs';
import { freePort, slowSink } from './lib/smtp-sink.mjs';

let stack;
before(() => {
  stack = openStack('sigterm');
  stack.cluster.sql(`create table public.fault_writes (id bigserial primary key, tag text unique not null);
    grant select, insert on public.fault_writes to service_role;
    grant usage on sequence public.fault_writes_id_seq to service_role;`);
});
after(() => stack?.close());

/** A body of `chunks` pieces of `size` bytes, one every `everyMs`. */
function trickle(chunks, size, everyMs) {
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent === chunks) return controller.close();
      await sleep(everyMs);
      sent++;
      controller.enqueue(randomBytes(size));
    },
  });
}

const files = (dir) =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));

test('SIGTERM under load: stop accepting, finish in-flight work, exit 0 within the bound, nothing half-written', async () => {
  const boundSecs = 4;
  const gw = await stack.gateway({ GATEWAY_SHUTDOWN_TIMEOUT_SECS: String(boundSecs) });
  const headers = serviceHeaders(gw);
  assert.equal((await call(`${gw.url}/storage/v1/bucket`, { method: 'POST', headers, body: '{"name":"faults"}' })).status, 200);
  await waitFor('the schema cache', async () => (await call(`${gw.url}/rest/v1/fault_writes?limit=1`, { headers })).status === 200);

  let stop = false;
  const upload = (name, body, limitMs) =>
    call(`${gw.url}/storage/v1/object/faults/${name}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body,
      duplex: 'half',
    }, limitMs).then((r) => ({ ...r, name }));
  const step = (w, i) => {
    if (w < 2) return upload(`load-${w}-${i}.bin`, randomBytes(64 * 1024));
    const tag = randomUUID();
    const body = JSON.stringify({ tag });
    return call(`${gw.url}/rest/v1/fault_writes`, { method: 'POST', headers: { ...headers, prefer: 'return=minimal' }, body })
      .then((r) => ({ ...r, tag }));
  };
  const running = load(6, step, () => stop);
  await sleep(800);
  // one upload that ends well inside the bound, one that trickles past it
  const inFlight = upload('in-flight.bin', trickle(10, 16 * 1024, 150));
  const tooSlow = upload('too-slow.bin', trickle(100, 1024, 200), 30000);
  await sleep(300);
  const signalled = performance.now();
  gw.child.kill('SIGTERM');
  stop = true;
  await sleep(300);
  const late = await call(`${gw.url}/rest/v1/fault_writes?limit=1`, { headers }, 3000);
  const { code } = await Promise.race([gw.exited, sleep((boundSecs + 10) * 1000).then(() => ({ code: 'hung' }))]);
  const exitMs = Math.round(performance.now() - signalled);
  const results = await running;
  const [finished, cut] = await Promise.all([inFlight, tooSlow]);
  console.log(`sigterm: ${results.length} requests ${JSON.stringify(statusCounts(results))}, in-flight upload ${finished.status}` +
    ` in ${Math.round(finished.ms)} ms, trickling upload ${cut.status}, exit ${code} after ${exitMs} ms, late request: ${late.text.slice(0, 80)}`);

  assert.equal(late.status, 0, 'a connection made after SIGTERM is not served');
  assert.match(late.text, /ECONNREFUSED/, 'and is refused at once, not left waiting');
  assert.ok(late.ms < 1000, `refused fast (${Math.round(late.ms)} ms)`);
  assert.equal(code, 0, `exit status 0 (stderr: ${gw.stderr().slice(-2000)})`);
  assert.ok(exitMs < (boundSecs + 2.5) * 1000, `exited within the ${boundSecs} s bound (${exitMs} ms)`);
  assert.equal(finished.status, 200, `the in-flight upload finished: ${finished.text}`);
  assert.notEqual(cut.status, 200, 'the upload still trickling at the bound is not acknowledged');
  for (const r of results) assert.ok([0, 200, 201].includes(r.status), `no error answers while draining: ${r.status} ${r.text}`);

  const acknowledged = results.filter((r) => r.tag && r.status === 201).map((r) => r.tag);
  const stored = new Set(stack.cluster.sql('select tag from public.fault_writes').split('\n'));
  assert.deepEqual(acknowledged.filter((t) => !stored.has(t)), [], `every write answered 201 is stored (${acknowledged.length})`);
  const uploaded = [...results.filter((r) => r.name && r.status === 200).map((r) => r.name), 'in-flight.bin'];
  const rows = new Set(stack.cluster.sql("select name from storage.objects where bucket_id = 'faults'").split('\n').filter(Boolean));
  assert.deepEqual(uploaded.filter((n) => !rows.has(n)), [], `every upload answered 200 has its row (${uploaded.length})`);
  assert.ok(!rows.has('too-slow.bin'), 'no row for the cut upload');
  const storage = join(stack.dir, 'storage');
  assert.deepEqual(files(join(storage, 'tmp')), [], 'no partial file left in the staging folder');
  const objects = files(join(storage, 'objects'));
  assert.equal(objects.length, rows.size, 'one whole file per object row, no orphan');
});

/** GET `url` on a connection of its own (no keep-alive pool): its status and body, or status 0 and the error. */
const fresh = (url, headers = {}) =>
  new Promise((resolve) => {
    const req = get(url, { agent: false, timeout: 3000, headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c)).on('end', () => resolve({ status: res.statusCode, text: body }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out'))).on('error', (e) => resolve({ status: 0, text: String(e) }));
  });

test('SIGTERM with a delay: /ready answers 503 at once, new connections are served until the delay ends, then refused', async () => {
  const delaySecs = 1.5;
  const gw = await stack.gateway({ GATEWAY_SHUTDOWN_DELAY_SECS: String(delaySecs), GATEWAY_SHUTDOWN_TIMEOUT_SECS: '4' });
  const headers = serviceHeaders(gw);
  const read = `${gw.url}/rest/v1/fault_writes?limit=1`;
  await waitFor('the schema cache', async () => (await call(read, { headers })).status === 200);
  assert.equal((await fresh(`${gw.url}/ready`)).status, 200, 'ready before the signal');
  const signalled = performance.now();
  gw.child.kill('SIGTERM');
  const seen = [];
  while (performance.now() - signalled < delaySecs * 1000 - 300) {
    const [ready, data] = await Promise.all([fresh(`${gw.url}/ready`), fresh(read, headers)]);
    seen.push({ at: Math.round(performance.now() - signalled), ready: ready.status, reason: ready.text, data: data.status });
    await sleep(100);
  }
  const { code } = await Promise.race([gw.exited, sleep(15000).then(() => ({ code: 'hung' }))]);
  const exitMs = Math.round(performance.now() - signalled);
  const late = await fresh(`${gw.url}/ready`);
  console.log(`sigterm with a ${delaySecs} s delay: ${seen.length} probes, exit ${code} after ${exitMs} ms, then ${late.text.slice(0, 60)}`);
  const afterFirst = seen.slice(1);
  assert.ok(afterFirst.length >= 5, `probed through the delay (${seen.length})`);
  for (const s of afterFirst) {
    assert.equal(s.ready, 503, `/ready 503 while stopping: ${JSON.stringify(s)}`);
    assert.match(s.reason, /shutting down/);
    assert.equal(s.data, 200, `a new connection is still served during the delay: ${JSON.stringify(s)}`);
  }
  assert.equal(code, 0, `exit status 0 (stderr: ${gw.stderr().slice(-2000)})`);
  assert.ok(exitMs >= delaySecs * 1000, `served on for the delay (${exitMs} ms)`);
  assert.ok(exitMs < (delaySecs + 4) * 1000, `then exited within the bound (${exitMs} ms)`);
  assert.match(late.text, /ECONNREFUSED/, 'refused once stopped');
});

/** SIGTERM to `gw`: its exit code ('hung' past the bound and 10 s) and the milliseconds it took. */
async function terminate(gw, boundSecs) {
  const signalled = performance.now();
  gw.child.kill('SIGTERM');
  const { code } = await Promise.race([gw.exited, sleep((boundSecs + 10) * 1000).then(() => ({ code: 'hung' }))]);
  return { code, ms: Math.round(performance.now() - signalled) };
}

const smtpEnv = (port) => ({
  GOTRUE_SMTP_HOST: '127.0.0.1',
  GOTRUE_SMTP_PORT: String(port),
  GOTRUE_SMTP_ADMIN_EMAIL: 'noreply@faults.test',
  GATEWAY_OUTBOX_RETRY_BASE_SECS: '0.25',
  GATEWAY_OUTBOX_RETRY_MAX_SECS: '1',
  GATEWAY_OUTBOX_POLL_SECS: '0.5',
});
const enqueue = (n) =>
  stack.cluster.sql(`select gateway.enqueue_mail('term' || g || '@example.com', 'Term ' || g, 'body') from generate_series(1, ${n}) g`)
    .split('\n').map(Number);
const outboxRows = (ids) =>
  stack.cluster.sql(`select id, status, attempts from gateway.outbox where id in (${ids}) order by id`)
    .split('\n').map((l) => l.split('|')).map(([id, status, attempts]) => ({ id: Number(id), status, attempts: Number(attempts) }));
/** The outbox row id in a Message-ID `<outbox.ID.CREATED@domain>`. */
const rowOf = (messageId) => Number(messageId.match(/^<outbox\.(\d+)\./)?.[1]);

/** A second gateway on the relay sends everything in `ids`; then each must have been accepted exactly once. */
async function secondGatewaySendsTheRest(sink, port, ids) {
  sink.delays = { rcptMs: 0, dataMs: 0 };
  const next = await stack.gateway(smtpEnv(port));
  const sent = () => outboxRows(ids).every((r) => r.status === 'sent');
  await waitFor('a second gateway to send the rest', sent, 20000);
  await sleep(1500); // anything sent twice would arrive now
  await next.stop();
  const accepted = sink.accepted.map(rowOf).sort((a, b) => a - b);
  assert.deepEqual(accepted, [...ids].sort((a, b) => a - b), `each message accepted exactly once: ${sink.accepted.join(' ')}`);
}

test('SIGTERM while the outbox sends: the message is finished and marked sent within the bound, no new claim', async () => {
  const boundSecs = 5;
  const port = await freePort();
  const sink = await slowSink(port, { dataMs: 1500 }); // the 250 after the data comes 1.5 s late
  try {
    const gw = await stack.gateway({ ...smtpEnv(port), GATEWAY_SHUTDOWN_TIMEOUT_SECS: String(boundSecs) });
    const ids = enqueue(3);
    await waitFor('the first message to reach the relay', () => sink.received.length === 1);
    const stopped = await terminate(gw, boundSecs);
    const rows = outboxRows(ids);
    console.log(`sigterm mid-send: exit ${stopped.code} after ${stopped.ms} ms; accepted ${sink.accepted.join(' ')};` +
      ` rows ${rows.map((r) => `${r.id}:${r.status}/${r.attempts}`).join(' ')}`);
    assert.equal(stopped.code, 0, `exit status 0 (stderr: ${gw.stderr().slice(-2000)})`);
    assert.ok(stopped.ms < (boundSecs + 2.5) * 1000, `exited within the ${boundSecs} s bound (${stopped.ms} ms)`);
    assert.equal(sink.accepted.length, 1, 'the message being sent was finished before the exit');
    const first = rowOf(sink.accepted[0]);
    for (const r of rows) {
      const expected = r.id === first ? { status: 'sent', attempts: 1 } : { status: 'queued', attempts: 0 };
      assert.deepEqual({ status: r.status, attempts: r.attempts }, expected, `row ${r.id} (the sent one is ${first})`);
    }
    await secondGatewaySendsTheRest(sink, port, ids);
  } finally {
    sink.server.close();
  }
});

test('SIGTERM while the relay holds a send past the bound: the claim is released, the next gateway sends it once', async () => {
  const boundSecs = 2;
  const port = await freePort();
  const sink = await slowSink(port, { rcptMs: 8000 }); // RCPT TO answered only after the bound
  try {
    const gw = await stack.gateway({ ...smtpEnv(port), GATEWAY_SHUTDOWN_TIMEOUT_SECS: String(boundSecs) });
    const ids = enqueue(1);
    await waitFor('the relay to hold the recipient', () => sink.rcpts === 1);
    const stopped = await terminate(gw, boundSecs);
    const [row] = outboxRows(ids);
    console.log(`sigterm mid-send past the bound: exit ${stopped.code} after ${stopped.ms} ms; row ${row.status}/${row.attempts}`);
    assert.equal(stopped.code, 0, `exit status 0 (stderr: ${gw.stderr().slice(-2000)})`);
    assert.ok(stopped.ms < (boundSecs + 2.5) * 1000, `exited within the ${boundSecs} s bound (${stopped.ms} ms)`);
    assert.ok(stopped.ms > (boundSecs - 0.5) * 1000, `the send in progress was given the bound (${stopped.ms} ms)`);
    assert.deepEqual({ status: row.status, attempts: row.attempts }, { status: 'queued', attempts: 0 }, 'released unchanged');
    assert.match(gw.stderr(), /released for a later attempt/);
    assert.deepEqual(sink.accepted, [], 'nothing accepted from the stopped gateway');
    await secondGatewaySendsTheRest(sink, port, ids);
  } finally {
    sink.server.close();
  }
});
