// RPC through supabase-js: POST and GET, named arguments, overloads, scalar / setof / composite / void results,
// filters, order and count on setof results, read-only GET, the role and claims a function sees, errors raised in
// SQL, unknown and ambiguous functions, statement timeouts. Expected values follow PostgREST 14 (postgrest.md §13–§15,
// Error.hs, test/spec/Feature/Query/RpcSpec.hs).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { skipUnless, startRest, result, pgError, USER_A } from './fixture.mjs';

const skip = skipUnless('rpc');

describe('REST RPC', { skip }, () => {
  let gw;
  let db;
  before(async () => {
    gw = await startRest();
    db = gw.client();
  });
  after(async () => gw?.stop());

  test('scalar result with named arguments, POST and GET', async () => {
    assert.deepEqual(result(await db.rpc('add_them', { a: 1, b: 2 })), {
      data: 3,
      error: null,
      count: null,
      status: 200,
      statusText: 'OK',
    });
    const get = await db.rpc('add_them', { a: 40, b: 2 }, { get: true });
    assert.deepEqual(result(get), { data: 42, error: null, count: null, status: 200, statusText: 'OK' });
    const raw = await gw.rest('/rpc/add_them?a=1&b=1');
    assert.equal(raw.status, 200);
    assert.equal(raw.text, '2');
    assert.equal(raw.headers.get('content-type'), 'application/json; charset=utf-8');
  });

  test('overloads are chosen by argument names', async () => {
    assert.equal((await db.rpc('greet', { name: 'Ann' })).data, 'hello Ann');
    assert.equal((await db.rpc('greet')).data, 'hello nobody');
    assert.equal((await db.rpc('greet', {}, { get: true })).data, 'hello nobody');
  });

  test('setof composite: select, filters, order and count apply to the result (RLS too)', async () => {
    const res = await db.rpc('books_by', { author: 2 }, { count: 'exact' }).select('id,title').order('id');
    assert.deepEqual(result(res), {
      data: [
        { id: 3, title: 'Guards! Guards!' },
        { id: 4, title: 'Small Gods' },
      ],
      error: null,
      count: 2,
      status: 200,
      statusText: 'OK',
    });
    const filtered = await db.rpc('books_by', { author: 2 }).select('id').eq('id', 4);
    assert.deepEqual(filtered.data, [{ id: 4 }]);
    const get = await db.rpc('books_by', { author: 1 }, { get: true }).select('id').order('id', { ascending: false }).limit(1);
    assert.deepEqual(get.data, [{ id: 2 }]);
  });

  test('setof scalar is an array; a single composite is an object', async () => {
    assert.deepEqual((await db.rpc('tag_list')).data, ['fantasy', 'scifi', 'humour']);
    const one = await db.rpc('first_book').select('id,title');
    assert.deepEqual(one.data, { id: 1, title: 'A Wizard of Earthsea' });
  });

  test('void is 204 No Content', async () => {
    assert.deepEqual(result(await db.rpc('noop')), { data: null, error: null, count: null, status: 204, statusText: 'No Content' });
  });

  test('a volatile function writes on POST and is refused by the read-only GET (405 25006)', async () => {
    const post = await db.rpc('add_author', { id: 40, name: 'Forty' });
    assert.deepEqual(result(post), {
      data: { id: 40, name: 'Forty', country: null },
      error: null,
      count: null,
      status: 200,
      statusText: 'OK',
    });
    const get = await db.rpc('add_author', { id: 41, name: 'Forty-one' }, { get: true });
    assert.equal(get.status, 405);
    assert.deepEqual(get.error, pgError('25006', 'cannot execute INSERT in a read-only transaction'));
    assert.equal(gw.sql('select count(*) from public.authors where id = 41'), '0');
  });

  test('max-affected with handling=strict on RPC: a SETOF result over the limit is 400 PGRST124', async () => {
    const res = await db.rpc('books_by', { author: 2 }).maxAffected(1);
    assert.equal(res.status, 400);
    assert.deepEqual(res.error, pgError('PGRST124', 'Query result exceeds max-affected preference constraint', 'The query affects 2 rows'));
    const ok = await db.rpc('books_by', { author: 2 }).select('id').order('id').maxAffected(2);
    assert.deepEqual(ok.data, [{ id: 3 }, { id: 4 }]);
  });

  test('max-affected with handling=strict on a non-SETOF function is 400 PGRST128 and nothing runs', async () => {
    const res = await db.rpc('add_author', { id: 42, name: 'Forty-two' }).maxAffected(1);
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.error,
      pgError('PGRST128', 'Function must return SETOF or TABLE when max-affected preference is used with handling=strict'),
    );
    assert.equal(gw.sql('select count(*) from public.authors where id = 42'), '0');
  });

  test('the function sees the caller role and claims', async () => {
    assert.deepEqual((await db.rpc('whoami')).data, { role: 'anon', sub: null, claims_role: 'anon' });
    const user = gw.userClient(await gw.token({ sub: USER_A }));
    assert.deepEqual((await user.rpc('whoami')).data, { role: 'authenticated', sub: USER_A, claims_role: 'authenticated' });
    const service = gw.client(gw.serviceKey);
    assert.deepEqual((await service.rpc('whoami')).data, { role: 'service_role', sub: null, claims_role: 'service_role' });
  });

  test('RAISE in SQL: P0001 is 400 with message, detail and hint', async () => {
    const res = await db.rpc('fail_plainly');
    assert.equal(res.status, 400);
    assert.deepEqual(res.error, pgError('P0001', 'the shelf is empty', 'no books', 'add one'));
  });

  test("RAISE SQLSTATE 'PT402' sets the HTTP status", async () => {
    const res = await db.rpc('fail_with_status');
    assert.equal(res.status, 402);
    assert.deepEqual(res.error, pgError('PT402', 'payment required'));
  });

  test('an unknown function is 404 PGRST202', async () => {
    const res = await db.rpc('zzqx');
    assert.equal(res.status, 404);
    assert.deepEqual(
      res.error,
      pgError(
        'PGRST202',
        'Could not find the function public.zzqx without parameters in the schema cache',
        'Searched for the function public.zzqx without parameters or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      ),
    );
  });

  test('unknown arguments are 404 PGRST202 with the closest signature as hint', async () => {
    const raw = await gw.rest('/rpc/add_them?a=1&b=2&c=3');
    assert.equal(raw.status, 404);
    assert.deepEqual(
      raw.json,
      pgError(
        'PGRST202',
        'Could not find the function public.add_them(a, b, c) in the schema cache',
        'Searched for the function public.add_them with parameters a, b, c, but no matches were found in the schema cache.',
        'Perhaps you meant to call the function public.add_them(a, b)',
      ),
    );
  });

  test('overloads with the same argument names are 300 PGRST203', async () => {
    const res = await db.rpc('overloaded', { x: 1 });
    assert.equal(res.status, 300);
    assert.equal(res.error.code, 'PGRST203');
    assert.equal(res.error.details, null);
    assert.equal(res.error.hint, 'Try renaming the parameters or the function itself in the database so function overloading can be resolved');
    const candidates = ['public.overloaded(x => integer)', 'public.overloaded(x => text)'];
    assert.ok(
      [candidates.join(', '), [...candidates].reverse().join(', ')]
        .map((c) => `Could not choose the best candidate function between: ${c}`)
        .includes(res.error.message),
      res.error.message,
    );
  });

  test('PUT on a function is 405 PGRST101', async () => {
    const raw = await gw.rest('/rpc/add_them', { method: 'PUT', body: { a: 1, b: 2 } });
    assert.equal(raw.status, 405);
    assert.deepEqual(raw.json, pgError('PGRST101', 'Cannot use the PUT method on RPC'));
  });

  test("the anon role's statement_timeout (3 s) cancels a slow function: 500 57014", async () => {
    const res = await db.rpc('sleepy', { seconds: 4 });
    assert.equal(res.status, 500);
    assert.deepEqual(res.error, pgError('57014', 'canceling statement due to statement timeout'));
  });
});
