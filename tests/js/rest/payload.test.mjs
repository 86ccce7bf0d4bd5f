// Non-JSON request bodies (text/csv, form-urlencoded) become rows as PostgREST reads them, and Prefer:
// count=planned / count=estimated with PostgREST's semantics on a server with db-max-rows = 2.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { skipUnless, startRest } from './fixture.mjs';

const skip = skipUnless('payload');
let gw;
before(async () => {
  if (!skip) gw = await startRest({ env: { PGRST_DB_MAX_ROWS: '2' } });
});
after(() => gw?.stop());

const total = (res) => Number(res.headers.get('content-range').split('/')[1]);

test('a text/csv body inserts one row per record, NULL meaning null', { skip }, async () => {
  const body = 'id,name,country\n40,"Le Guin, Ursula",US\n41,"Say ""hi""",NULL\n';
  const res = await gw.rest('/authors?select=id,name,country', {
    method: 'POST',
    headers: { 'content-type': 'text/csv', prefer: 'return=representation' },
    body,
  });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(res.json, [
    { id: 40, name: 'Le Guin, Ursula', country: 'US' },
    { id: 41, name: 'Say "hi"', country: null },
  ]);
  const ragged = await gw.rest('/authors', { method: 'POST', headers: { 'content-type': 'text/csv' }, body: 'id,name\n42,a,b\n' });
  assert.equal(ragged.status, 400);
  assert.equal(ragged.json.code, 'PGRST102');
});

test('a form body inserts one row; CSV answers come back for Accept: text/csv', { skip }, async () => {
  const res = await gw.rest('/authors?select=id,name', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', prefer: 'return=representation', accept: 'text/csv' },
    body: 'id=43&name=Jane+Doe',
  });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
  assert.equal(res.text, 'id,name\n43,"Jane Doe"');
});

test('count=estimated is exact up to db-max-rows and the planner estimate above it', { skip }, async () => {
  const exact = await gw.rest('/books?select=id', { headers: { prefer: 'count=exact' } });
  assert.equal(total(exact), 6); // the visible books (RLS), though a page holds db-max-rows = 2
  const planned = await gw.rest('/books?select=id', { headers: { prefer: 'count=planned' } });
  const estimated = await gw.rest('/books?select=id', { headers: { prefer: 'count=estimated' } });
  assert.equal(estimated.headers.get('preference-applied'), 'count=estimated');
  assert.equal(total(estimated), total(planned)); // 6 > 2: the estimate
  const few = await gw.rest('/books?select=id&id=in.(1,2)', { headers: { prefer: 'count=estimated' } });
  assert.equal(total(few), 2); // within the cap: the exact count
});
