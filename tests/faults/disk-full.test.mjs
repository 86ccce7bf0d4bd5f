// A full disk during uploads (issue 14, case 5): the storage folder is a 2 MB tmpfs. An upload that does not fit
// gets a clear Storage error (507 InsufficientStorage), leaves no partial file and no row, and the gateway keeps
// serving: stored objects download whole, the data API answers, and uploads work again once space is freed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { call, openStack, serviceHeaders } from './lib/faults.mjs';

let stack;
let mounted = null;
before(() => (stack = openStack('disk-full')));
after(async () => {
  if (mounted) execFileSync('umount', ['-l', mounted]);
  await stack?.close();
});

const files = (dir) =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));

test('disk full during an upload: a clear Storage error, no partial object, service goes on', async (t) => {
  if (process.getuid() !== 0) return t.skip('mounting a small tmpfs needs root');
  const storage = join(stack.dir, 'small-disk');
  mkdirSync(storage);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m,mode=0700', 'tmpfs', storage]);
  mounted = storage;
  const gw = await stack.gateway({ FILE_STORAGE_BACKEND_PATH: storage });
  const headers = serviceHeaders(gw);
  const upload = (name, bytes) =>
    call(`${gw.url}/storage/v1/object/full/${name}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body: bytes,
    });
  assert.equal((await call(`${gw.url}/storage/v1/bucket`, { method: 'POST', headers, body: '{"name":"full"}' })).status, 200);

  const first = randomBytes(1200 * 1024);
  assert.equal((await upload('first.bin', first)).status, 200);
  const refused = await upload('second.bin', randomBytes(1200 * 1024));
  console.log(`disk full: second upload answered ${refused.status} ${refused.text}`);
  assert.equal(refused.status, 507, refused.text);
  assert.equal(refused.json?.error, 'InsufficientStorage', refused.text);
  assert.match(refused.json?.message ?? '', /storage is full/i);

  const rows = stack.cluster.sql("select name from storage.objects where bucket_id = 'full' order by name");
  assert.equal(rows, 'first.bin', 'no row without its file');
  assert.deepEqual(files(join(storage, 'tmp')), [], 'no partial file left behind');
  assert.equal(files(join(storage, 'objects')).length, 1, 'only the stored object');

  const download = await fetch(`${gw.url}/storage/v1/object/full/first.bin`, { headers });
  assert.equal(download.status, 200);
  assert.ok(Buffer.from(await download.arrayBuffer()).equals(first), 'the stored object is whole');
  assert.equal((await call(`${gw.url}/rest/v1/`, { headers })).status < 500, true, 'the data API still answers');
  const removed = await call(`${gw.url}/storage/v1/object/full`, { method: 'DELETE', headers, body: '{"prefixes":["first.bin"]}' });
  assert.equal(removed.status, 200, removed.text);
  assert.equal((await upload('third.bin', randomBytes(1200 * 1024))).status, 200, 'uploads work again once space is freed');
});
