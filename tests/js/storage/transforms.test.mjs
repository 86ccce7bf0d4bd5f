// Image transformations through storage-js (supabase-js): an SVG asked for with transformation options — a signed
// URL, an authenticated download, a public URL — answers 200 with the stored SVG and its own type, as Supabase
// (imgproxy passes vector sources through); a raster is still rendered; other documents are still refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { crc32, deflateSync } from 'node:zlib';
import { startGateway } from '../lib/gateway.mjs';

const SVG = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20"/></svg>\n';
/** A grey `w`×`h` PNG (8-bit greyscale), built with node:zlib. */
function png(w, h) {
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc((w + 1) * h, 0x80);
  for (let y = 0; y < h; y++) rows[y * (w + 1)] = 0; // filter: none
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}
const PNG = png(400, 300);
const COVER = { transform: { width: 200, height: 200, resize: 'cover' } };

let gw;
let storage;

before(async () => {
  gw = await startGateway();
  storage = gw.client(gw.serviceKey).storage;
  for (const [id, pub] of [['art', false], ['open-art', true]]) {
    const { error } = await storage.createBucket(id, { public: pub });
    assert.equal(error, null);
    const bucket = storage.from(id);
    const uploads = [
      ['logo.svg', SVG, 'image/svg+xml'],
      ['dot.png', PNG, 'image/png'],
      ['notes.pdf', '%PDF-1.4\n%%EOF\n', 'application/pdf'],
    ];
    for (const [name, body, contentType] of uploads) {
      assert.equal((await bucket.upload(name, body, { contentType })).error, null, name);
    }
  }
});

after(async () => {
  await gw?.stop();
});

test('a signed URL with transform answers an SVG with the stored SVG and its own type', async () => {
  const { data, error } = await storage.from('art').createSignedUrl('logo.svg', 60, COVER);
  assert.equal(error, null);
  assert.match(data.signedUrl, /\/storage\/v1\/render\/image\/sign\/art\/logo\.svg\?token=/);
  for (const accept of ['*/*', 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8']) {
    const res = await fetch(data.signedUrl, { headers: { accept } });
    assert.equal(res.status, 200, accept);
    assert.equal(res.headers.get('content-type'), 'image/svg+xml');
    assert.equal(res.headers.get('content-security-policy'), "default-src 'none'; sandbox");
    assert.equal(await res.text(), SVG, 'the bytes as stored');
  }
});

test('downloads and public URLs with transform pass the SVG through too', async () => {
  const { data, error } = await storage.from('art').download('logo.svg', { transform: { width: 64, height: 64 } });
  assert.equal(error, null);
  assert.equal(data.type, 'image/svg+xml');
  assert.equal(await data.text(), SVG);
  const url = storage.from('open-art').getPublicUrl('logo.svg', COVER).data.publicUrl;
  const res = await fetch(url);
  assert.equal(res.status, 200);
  assert.equal(await res.text(), SVG);
});

test('a raster is still rendered and other documents are still refused', async () => {
  const png = await storage.from('art').createSignedUrl('dot.png', 60, COVER);
  const rendered = await fetch(png.data.signedUrl);
  assert.equal(rendered.status, 200);
  assert.equal(rendered.headers.get('content-type'), 'image/png');
  const bytes = Buffer.from(await rendered.arrayBuffer());
  assert.deepEqual([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], [200, 200], 'the PNG header says 200×200');

  const pdf = await storage.from('art').createSignedUrl('notes.pdf', 60, COVER);
  const refused = await fetch(pdf.data.signedUrl);
  assert.equal(refused.status, 400);
  const body = await refused.json();
  assert.equal(body.message, 'The source image is invalid or unsupported for rendering');
  const { error } = await storage.from('art').download('notes.pdf', { transform: { width: 64 } });
  assert.ok(error, 'refused through storage-js too');
  assert.equal(error.status, 400);
  assert.equal(error.message, 'The source image is invalid or unsupported for rendering');
});
