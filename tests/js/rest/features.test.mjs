// Features switched by configuration, each checked off (the Supabase defaults) and on: aggregates
// (PGRST_DB_AGGREGATES_ENABLED), explain (PGRST_DB_PLAN_ENABLED), transaction override (PGRST_DB_TX_END), max rows
// (PGRST_DB_MAX_ROWS, security.md D9), strict apikey (GATEWAY_REQUIRE_APIKEY, security.md K1/K2), and the request body
// limit (GATEWAY_MAX_BODY_BYTES, security.md D1). Expected values follow PostgREST 14 (postgrest.md §6, §9, §10;
// AggregateFunctionsSpec.hs, PlanSpec.hs).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { skipUnless, startRest, result, ids, pgError } from './fixture.mjs';

const skip = skipUnless('features');

describe('REST features with the default configuration', { skip }, () => {
  let gw;
  let db;
  before(async () => {
    gw = await startRest();
    db = gw.client();
  });
  after(async () => gw?.stop());

  test('aggregates are disabled: 400 PGRST123', async () => {
    const res = await db.from('books').select('pages.sum()');
    assert.equal(res.status, 400);
    assert.deepEqual(res.error, pgError('PGRST123', 'Use of aggregate functions is not allowed'));
  });

  test('the legacy embedded count works without aggregates', async () => {
    const res = await db.from('authors').select('id,books(count)').eq('id', 3);
    assert.deepEqual(res.data, [{ id: 3, books: [{ count: 1 }] }]);
  });

  test('explain is not offered: 406 PGRST107', async () => {
    const raw = await gw.rest('/books?select=id', { headers: { accept: 'application/vnd.pgrst.plan+text' } });
    assert.equal(raw.status, 406);
    assert.equal(raw.json.code, 'PGRST107');
  });

  test('tx=rollback is ignored unless the server allows the override', async () => {
    const res = await db.from('authors').insert({ id: 60, name: 'Sixty' }).select('id').rollback();
    assert.equal(res.status, 201);
    assert.deepEqual(res.data, [{ id: 60 }]);
    assert.equal(gw.sql('select count(*) from public.authors where id = 60'), '1');
  });

  test('no max rows: every visible row comes back', async () => {
    assert.equal((await db.from('books').select('id')).data.length, 6);
  });

  test('requests without an apikey are served as anon (local-dev mode)', async () => {
    const raw = await gw.rest('/books?select=id&id=eq.1', { key: null });
    assert.equal(raw.status, 200);
    assert.deepEqual(raw.json, [{ id: 1 }]);
  });

  test('D1: a body above the limit (1 MiB by default) is 413 and nothing is written', async () => {
    const big = JSON.stringify({ id: 61, name: 'x'.repeat(2 * 1024 * 1024) });
    const raw = await gw.rest('/authors', { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    assert.equal(raw.status, 413);
    assert.equal(gw.sql('select count(*) from public.authors where id = 61'), '0');
    const ok = await gw.rest('/authors', { method: 'POST', body: { id: 62, name: 'y'.repeat(512 * 1024) } });
    assert.equal(ok.status, 201);
  });
});

describe('REST features when enabled', { skip }, () => {
  let gw;
  let db;
  before(async () => {
    gw = await startRest({
      env: {
        PGRST_DB_AGGREGATES_ENABLED: 'true',
        PGRST_DB_PLAN_ENABLED: 'true',
        PGRST_DB_TX_END: 'commit-allow-override',
        PGRST_DB_MAX_ROWS: '3',
        GATEWAY_REQUIRE_APIKEY: 'true',
      },
    });
    db = gw.client();
  });
  after(async () => gw?.stop());

  test('aggregates group by the other selected columns', async () => {
    const res = await db.from('books').select('author_id,pages.sum(),count()').not('author_id', 'is', null).order('author_id');
    assert.deepEqual(result(res), {
      data: [
        { author_id: 1, sum: 487, count: 2 },
        { author_id: 2, sum: 560, count: 2 },
        { author_id: 3, sum: 264, count: 1 },
      ],
      error: null,
      count: null,
      status: 200,
      statusText: 'OK',
    });
    const aliased = await db.from('books').select('longest:pages.max(),pages.min()::text');
    assert.deepEqual(aliased.data, [{ longest: 304, min: '12' }]);
    const counted = await db.from('books').select('count()');
    assert.deepEqual(counted.data, [{ count: 6 }]);
  });

  test('aggregates inside an embed, and an embedded to-one column in the group by', async () => {
    const inside = await db.from('authors').select('name,books(pages.sum())').in('id', [3, 4]).order('id');
    assert.deepEqual(inside.data, [
      { name: 'Octavia Butler', books: [{ sum: 264 }] },
      { name: 'Anonymous', books: [{ sum: null }] },
    ]);
    const grouped = await db.from('books').select('author_id,total:pages.sum(),authors(name)').in('author_id', [1, 2]).order('author_id');
    assert.deepEqual(grouped.data, [
      { author_id: 1, total: 487, authors: { name: 'Ursula K. Le Guin' } },
      { author_id: 2, total: 560, authors: { name: 'Terry Pratchett' } },
    ]);
  });

  test('explain returns the plan of the request as text', async () => {
    const raw = await gw.rest('/books?select=id&id=in.(1,2,3)', { headers: { accept: 'application/vnd.pgrst.plan+text' } });
    assert.equal(raw.status, 200);
    assert.equal(raw.headers.get('content-type'), 'application/vnd.pgrst.plan+text; for="application/json"; charset=utf-8');
    assert.ok(raw.text.startsWith('Aggregate'), raw.text);
    const res = await db.from('books').select('id').explain();
    assert.equal(res.status, 200);
    assert.equal(typeof res.data, 'string');
    assert.ok(res.data.startsWith('Aggregate'), res.data);
  });

  test('tx=rollback returns the representation and keeps nothing', async () => {
    const res = await db.from('authors').insert({ id: 70, name: 'Seventy' }).select('id,name').rollback();
    assert.deepEqual(result(res), {
      data: [{ id: 70, name: 'Seventy' }],
      error: null,
      count: null,
      status: 201,
      statusText: 'Created',
    });
    assert.equal(gw.sql('select count(*) from public.authors where id = 70'), '0');
    const raw = await gw.rest('/authors?id=eq.1', {
      method: 'PATCH',
      headers: { prefer: 'return=representation, tx=rollback' },
      body: { name: 'rolled back' },
    });
    assert.equal(raw.status, 200);
    assert.equal(raw.headers.get('preference-applied'), 'return=representation, tx=rollback');
    assert.deepEqual(raw.json, [{ id: 1, name: 'rolled back', country: 'US' }]);
    assert.equal(gw.sql('select name from public.authors where id = 1'), 'Ursula K. Le Guin');
  });

  test('D9: max rows caps reads; count still reports the full total', async () => {
    const res = await db.from('books').select('id', { count: 'exact' }).order('id');
    assert.deepEqual(result(res), {
      data: [{ id: 1 }, { id: 2 }, { id: 3 }],
      error: null,
      count: 6,
      status: 206,
      statusText: 'Partial Content',
    });
    const raw = await gw.rest('/books?select=id&order=id');
    assert.equal(raw.headers.get('content-range'), '0-2/*');
    assert.deepEqual(ids(raw.json), [1, 2, 3]);
  });

  test('K1/K2: with a required apikey, a missing or unknown apikey is 401; the anon key passes', async () => {
    const missing = await gw.rest('/books?select=id', { key: null });
    assert.equal(missing.status, 401);
    const unknown = await gw.rest('/books?select=id', { key: 'not-a-key', bearer: null });
    assert.equal(unknown.status, 401);
    const anon = await gw.rest('/books?select=id&id=eq.1');
    assert.equal(anon.status, 200);
    assert.deepEqual(anon.json, [{ id: 1 }]);
  });

  test('K5: the JWKS document stays reachable without an apikey', async () => {
    const res = await fetch(`${gw.url}/auth/v1/.well-known/jwks.json`);
    assert.equal(res.status, 200);
    assert.ok(Array.isArray((await res.json()).keys));
  });
});

describe('REST with a one-connection pool (security.md D3)', { skip }, () => {
  let gw;
  before(async () => {
    gw = await startRest({ env: { PGRST_DB_POOL: '1', PGRST_DB_POOL_ACQUISITION_TIMEOUT: '1' } });
  });
  after(async () => gw?.stop());

  test('while the only connection is busy: 504 PGRST003 for data, but bad tokens and unknown tables need no connection', async () => {
    const slow = gw.rest('/rpc/sleepy', { method: 'POST', body: { seconds: 2.8 } });
    await new Promise((r) => setTimeout(r, 1000)); // let the slow call take the connection
    const [waiting, badToken, unknownTable] = await Promise.all([
      gw.rest('/books?select=id&id=eq.1'),
      gw.rest('/books?select=id', { bearer: 'abc.def' }),
      gw.rest('/zzqx?select=id'),
    ]);
    // PostgREST answers 504; security.md D3 also allows 503 when it carries Retry-After (supabase-js retries 503).
    assert.ok(waiting.status === 504 || (waiting.status === 503 && waiting.headers.get('retry-after')), `${waiting.status}`);
    assert.deepEqual(waiting.json, pgError('PGRST003', 'Timed out acquiring connection from connection pool.'));
    assert.equal(badToken.status, 401);
    assert.equal(badToken.json.code, 'PGRST301');
    assert.equal(unknownTable.status, 404);
    assert.equal(unknownTable.json.code, 'PGRST205');
    const done = await slow;
    assert.equal(done.status, 200);
    assert.equal(done.text, '1');
    const after = await gw.rest('/books?select=id&id=eq.1');
    assert.deepEqual(after.json, [{ id: 1 }]);
  });
});

describe('REST after DDL (schema reload, security.md D7)', { skip }, () => {
  let gw;
  before(async () => {
    gw = await startRest();
  });
  after(async () => gw?.stop());

  /** Repeats a request until `done(res)` or 15 s pass; returns the last response. Not a speed assertion. */
  async function eventually(request, done) {
    const deadline = Date.now() + 15000;
    let res;
    do {
      res = await request();
      if (done(res)) return res;
      await new Promise((r) => setTimeout(r, 200));
    } while (Date.now() < deadline);
    return res;
  }

  test('a new column and a new table become reachable without a restart; cached statements do not break', async () => {
    const before = await gw.rest('/books?select=*&id=eq.1');
    assert.equal(before.status, 200);
    gw.sql("alter table public.books add column isbn text default 'n/a'");
    gw.sql('create table public.shelves (id int primary key, label text); grant select on public.shelves to anon');
    gw.sql("insert into public.shelves values (1, 'top')");
    const star = await eventually(
      () => gw.rest('/books?select=*&id=eq.1'),
      (r) => r.status === 200 && r.json?.[0]?.isbn !== undefined,
    );
    assert.equal(star.status, 200, star.text);
    assert.equal(star.json[0].isbn, 'n/a');
    const named = await eventually(() => gw.rest('/books?select=id,isbn&id=eq.2'), (r) => r.status === 200);
    assert.deepEqual(named.json, [{ id: 2, isbn: 'n/a' }]);
    const table = await eventually(() => gw.rest('/shelves?select=*'), (r) => r.status === 200);
    assert.deepEqual(table.json, [{ id: 1, label: 'top' }]);
  });
});
