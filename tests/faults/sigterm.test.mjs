// SIGTERM under load (issue 14, case 2): the gateway stops accepting at once, finishes in-flight requests and
// uploads, exits 0 within GATEWAY_SHUTDOWN_TIMEOUT_SECS even when a client trickles past it; every write answered
// 2xx is stored, every object row has its whole file, and no partial or orphan file is left.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { call, load, openStack, serviceHeaders, sleep, statusCounts, waitFor } from './lib/faults.mjs';

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
