// Writes through supabase-js: insert single / bulk with columns, missing=default, upsert merge / ignore, update,
// delete, return=representation vs minimal, counts on writes, max-affected with handling=strict, strict preferences,
// RLS on writes, and PostgreSQL / PostgREST write errors. Expected values follow PostgREST 14 (postgrest.md §10, §12,
// §14; Response.hs). Tests run in order and build on each other's rows (authors 10+ are created here).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { skipUnless, startRest, result, pgError, USER_A, USER_B } from './fixture.mjs';

const skip = skipUnless('write');

describe('REST writes', { skip }, () => {
  let gw;
  let anon;
  let userA;
  let service;
  before(async () => {
    gw = await startRest();
    anon = gw.client();
    userA = gw.userClient(await gw.token({ sub: USER_A }));
    service = gw.client(gw.serviceKey);
  });
  after(async () => gw?.stop());

  const authorsInDb = (where) =>
    JSON.parse(gw.sql(`select coalesce(json_agg(a order by id), '[]') from public.authors a where ${where}`));

  describe('insert', () => {
    test('single insert without select: 201 Created, no body, Content-Range */*', async () => {
      const res = await anon.from('authors').insert({ id: 10, name: 'Ten' });
      assert.deepEqual(result(res), { data: null, error: null, count: null, status: 201, statusText: 'Created' });
      const raw = await gw.rest('/authors', { method: 'POST', body: { id: 11, name: 'Eleven' } });
      assert.equal(raw.status, 201);
      assert.equal(raw.text, '');
      assert.equal(raw.headers.get('content-range'), '*/*');
      assert.equal(raw.headers.get('content-length'), '0');
      assert.equal(raw.headers.get('content-type'), null);
      assert.deepEqual(authorsInDb('id in (10, 11)'), [
        { id: 10, name: 'Ten', country: null },
        { id: 11, name: 'Eleven', country: null },
      ]);
    });

    test('insert with select returns the representation', async () => {
      const res = await anon.from('authors').insert({ id: 12, name: 'Twelve', country: 'NZ' }).select();
      assert.deepEqual(result(res), {
        data: [{ id: 12, name: 'Twelve', country: 'NZ' }],
        error: null,
        count: null,
        status: 201,
        statusText: 'Created',
      });
      const single = await anon.from('authors').insert({ id: 13, name: 'Thirteen' }).select('id,name').single();
      assert.deepEqual(single.data, { id: 13, name: 'Thirteen' });
      assert.equal(single.status, 201);
    });

    test('.single() on an insert of two rows is 406 PGRST116 and rolls the insert back', async () => {
      const res = await anon
        .from('authors')
        .insert([
          { id: 24, name: 'Twenty-four' },
          { id: 25, name: 'Twenty-five' },
        ])
        .select('id')
        .single();
      assert.deepEqual(result(res), {
        data: null,
        error: pgError('PGRST116', 'Cannot coerce the result to a single JSON object', 'The result contains 2 rows'),
        count: null,
        status: 406,
        statusText: 'Not Acceptable',
      });
      assert.deepEqual(authorsInDb('id in (24, 25)'), []);
    });

    test('bulk insert: columns is the union of keys, a missing key becomes NULL', async () => {
      const res = await anon
        .from('authors')
        .insert([
          { id: 14, name: 'Fourteen' },
          { id: 15, name: 'Fifteen', country: 'FR' },
        ])
        .select('id,country');
      assert.equal(res.status, 201);
      assert.deepEqual(res.data, [
        { id: 14, country: null },
        { id: 15, country: 'FR' },
      ]);
    });

    test('return=minimal and return=headers-only: no body; headers-only adds Location', async () => {
      const minimal = await gw.rest('/authors', { method: 'POST', headers: { prefer: 'return=minimal' }, body: { id: 18, name: 'Eighteen' } });
      assert.equal(minimal.status, 201);
      assert.equal(minimal.text, '');
      assert.equal(minimal.headers.get('preference-applied'), 'return=minimal');
      const located = await gw.rest('/authors', {
        method: 'POST',
        headers: { prefer: 'return=headers-only' },
        body: { id: 19, name: 'Nineteen' },
      });
      assert.equal(located.status, 201);
      assert.equal(located.text, '');
      assert.equal(located.headers.get('location'), '/authors?id=eq.19');
      assert.equal(located.headers.get('content-range'), '*/*');
      assert.equal(located.headers.get('content-length'), '0');
      assert.equal(located.headers.get('content-type'), null);
      assert.equal(located.headers.get('preference-applied'), 'return=headers-only');
    });

    test('?columns= limits the inserted keys; an unknown one is 400 PGRST204', async () => {
      const raw = await gw.rest('/authors?columns=id,name', {
        method: 'POST',
        headers: { prefer: 'return=representation' },
        body: [{ id: 26, name: 'Twenty-six', country: 'IGNORED' }],
      });
      assert.equal(raw.status, 201);
      assert.deepEqual(raw.json, [{ id: 26, name: 'Twenty-six', country: null }]);
      const bad = await gw.rest('/authors?columns=helicopter', { method: 'POST', body: [{ id: 27, name: 'x' }] });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.json, pgError('PGRST204', "Could not find the 'helicopter' column of 'authors' in the schema cache"));
    });

    test('count=exact on insert: Content-Range */N', async () => {
      const raw = await gw.rest('/authors', {
        method: 'POST',
        headers: { prefer: 'count=exact' },
        body: [
          { id: 16, name: 'Sixteen' },
          { id: 17, name: 'Seventeen' },
        ],
      });
      assert.equal(raw.status, 201);
      assert.equal(raw.headers.get('content-range'), '*/2');
    });

    test('missing=default: keys absent from an object take the column default, not NULL', async () => {
      const nulls = await userA
        .from('todos')
        .insert([{ task: 'z' }, { task: 'w', priority: 7 }])
        .select('task,priority,done,owner');
      assert.equal(nulls.status, 201);
      assert.deepEqual(nulls.data, [
        { task: 'z', priority: null, done: false, owner: USER_A },
        { task: 'w', priority: 7, done: false, owner: USER_A },
      ]);
      const defaults = await userA
        .from('todos')
        .insert([{ task: 'x' }, { task: 'y', priority: 7 }], { defaultToNull: false })
        .select('task,priority');
      assert.equal(defaults.status, 201);
      assert.deepEqual(defaults.data, [
        { task: 'x', priority: 3 },
        { task: 'y', priority: 7 },
      ]);
    });

    test('a duplicate key is 409 23505', async () => {
      const res = await anon.from('authors').insert({ id: 1, name: 'dup' });
      assert.deepEqual(result(res), {
        data: null,
        error: pgError('23505', 'duplicate key value violates unique constraint "authors_pkey"', 'Key (id)=(1) already exists.'),
        count: null,
        status: 409,
        statusText: 'Conflict',
      });
    });

    test('a NOT NULL violation is 400 23502', async () => {
      const res = await anon.from('authors').insert({ id: 20 });
      assert.equal(res.status, 400);
      assert.deepEqual(
        res.error,
        pgError('23502', 'null value in column "name" of relation "authors" violates not-null constraint', 'Failing row contains (20, null, null).'),
      );
    });

    test('a foreign key violation is 409 23503', async () => {
      const res = await service.from('books').insert({ id: 50, title: 'x', author_id: 99 });
      assert.equal(res.status, 409);
      assert.deepEqual(
        res.error,
        pgError(
          '23503',
          'insert or update on table "books" violates foreign key constraint "books_author_id_fkey"',
          'Key (author_id)=(99) is not present in table "authors".',
        ),
      );
    });

    test('an unknown column in the payload is 400 PGRST204', async () => {
      const res = await anon.from('authors').insert({ id: 21, nope: 1 });
      assert.equal(res.status, 400);
      assert.deepEqual(res.error, pgError('PGRST204', "Could not find the 'nope' column of 'authors' in the schema cache"));
    });

    test('invalid JSON is 400 PGRST102', async () => {
      const raw = await gw.rest('/authors', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":' });
      assert.equal(raw.status, 400);
      assert.deepEqual(raw.json, pgError('PGRST102', 'Empty or invalid json'));
    });

    test('a bulk body whose objects have different keys (no columns) is 400 PGRST102', async () => {
      const raw = await gw.rest('/authors', { method: 'POST', body: [{ id: 22, name: 'a' }, { id: 23 }] });
      assert.equal(raw.status, 400);
      assert.deepEqual(raw.json, pgError('PGRST102', 'All object keys must match'));
      assert.deepEqual(authorsInDb('id in (22, 23)'), []);
    });
  });

  describe('upsert', () => {
    test('merge-duplicates updating an existing row is 200; only payload columns change', async () => {
      const res = await anon.from('authors').upsert({ id: 1, name: 'U. K. Le Guin' }).select();
      assert.deepEqual(result(res), {
        data: [{ id: 1, name: 'U. K. Le Guin', country: 'US' }],
        error: null,
        count: null,
        status: 200,
        statusText: 'OK',
      });
    });

    test('merge-duplicates inserting a new row is 201', async () => {
      const res = await anon.from('authors').upsert({ id: 30, name: 'Thirty' }).select();
      assert.equal(res.status, 201);
      assert.deepEqual(res.data, [{ id: 30, name: 'Thirty', country: null }]);
    });

    test('ignore-duplicates leaves the existing row and returns nothing for it', async () => {
      const res = await anon.from('authors').upsert({ id: 30, name: 'ignored' }, { ignoreDuplicates: true }).select();
      assert.deepEqual(result(res), { data: [], error: null, count: null, status: 201, statusText: 'Created' });
      assert.deepEqual(authorsInDb('id = 30'), [{ id: 30, name: 'Thirty', country: null }]);
    });

    test('bulk upsert: merge returns every row (201 when any was inserted); ignore returns only the new ones', async () => {
      const merged = await anon
        .from('authors')
        .upsert([
          { id: 2, name: 'Sir Terry Pratchett' },
          { id: 31, name: 'Thirty-one' },
        ])
        .select('id,name');
      assert.equal(merged.status, 201);
      assert.deepEqual(merged.data, [
        { id: 2, name: 'Sir Terry Pratchett' },
        { id: 31, name: 'Thirty-one' },
      ]);
      const ignored = await anon
        .from('authors')
        .upsert(
          [
            { id: 2, name: 'ignored' },
            { id: 32, name: 'Thirty-two' },
          ],
          { ignoreDuplicates: true },
        )
        .select('id,name');
      assert.equal(ignored.status, 201);
      assert.deepEqual(ignored.data, [{ id: 32, name: 'Thirty-two' }]);
      assert.deepEqual(authorsInDb('id = 2'), [{ id: 2, name: 'Sir Terry Pratchett', country: 'UK' }]);
    });

    test('on_conflict names the conflict target', async () => {
      const res = await anon.from('authors').upsert({ id: 30, name: 'Thirty again' }, { onConflict: 'id' }).select('name');
      assert.equal(res.status, 200);
      assert.deepEqual(res.data, [{ name: 'Thirty again' }]);
    });
  });

  describe('update', () => {
    test('update without select: 204, Content-Range of the affected rows', async () => {
      const res = await anon.from('authors').update({ country: 'GB' }).eq('id', 2);
      assert.deepEqual(result(res), { data: null, error: null, count: null, status: 204, statusText: 'No Content' });
      const raw = await gw.rest('/authors?id=in.(10,11)', { method: 'PATCH', body: { country: 'IE' } });
      assert.equal(raw.status, 204);
      assert.equal(raw.text, '');
      assert.equal(raw.headers.get('content-range'), '0-1/*');
      assert.equal(raw.headers.get('content-type'), null);
      assert.equal(raw.headers.get('content-length'), null);
      assert.deepEqual(authorsInDb("country = 'IE'"), [
        { id: 10, name: 'Ten', country: 'IE' },
        { id: 11, name: 'Eleven', country: 'IE' },
      ]);
    });

    test('update with select returns the new rows', async () => {
      const res = await anon.from('authors').update({ country: 'DE' }).eq('id', 12).select('id,country');
      assert.deepEqual(result(res), { data: [{ id: 12, country: 'DE' }], error: null, count: null, status: 200, statusText: 'OK' });
    });

    test('the representation of a write can embed related rows', async () => {
      const res = await anon.from('authors').update({ country: 'US' }).eq('id', 3).select('id,country,books(id,title)');
      assert.deepEqual(result(res), {
        data: [{ id: 3, country: 'US', books: [{ id: 5, title: 'Kindred' }] }],
        error: null,
        count: null,
        status: 200,
        statusText: 'OK',
      });
    });

    test('update matching nothing: 204 and */*', async () => {
      const raw = await gw.rest('/authors?id=eq.999', { method: 'PATCH', body: { country: 'XX' } });
      assert.equal(raw.status, 204);
      assert.equal(raw.headers.get('content-range'), '*/*');
    });

    test('RLS: a user cannot update or delete rows it cannot see (0 rows, no error)', async () => {
      const upd = await userA.from('todos').update({ note: 'hacked' }).eq('task', 'b1').select();
      assert.deepEqual(result(upd), { data: [], error: null, count: null, status: 200, statusText: 'OK' });
      const del = await userA.from('todos').delete().eq('task', 'b1');
      assert.equal(del.status, 204);
      assert.equal(gw.sql("select note from public.todos where task = 'b1'"), 'other');
    });

    test('RLS: a write that violates the policy is 403 42501 for a signed-in user', async () => {
      const res = await userA.from('todos').insert({ task: 'steal', owner: USER_B });
      assert.equal(res.status, 403);
      assert.deepEqual(res.error, pgError('42501', 'new row violates row-level security policy for table "todos"'));
    });

    test('write-only table (INSERT policy, no SELECT policy): insert is 201, asking for the row back is 42501 and keeps nothing', async () => {
      const sent = await anon.from('inbox').insert({ id: 1, msg: 'hello' });
      assert.deepEqual(result(sent), { data: null, error: null, count: null, status: 201, statusText: 'Created' });
      const readBack = await anon.from('inbox').insert({ id: 2, msg: 'peek' }).select();
      assert.equal(readBack.status, 401);
      assert.deepEqual(readBack.error, pgError('42501', 'new row violates row-level security policy for table "inbox"'));
      assert.deepEqual((await anon.from('inbox').select('*')).data, []);
      assert.equal(gw.sql('select string_agg(msg, \',\' order by id) from public.inbox'), 'hello');
      const empty = await anon.from('inbox').insert({ id: 3, msg: '' });
      assert.equal(empty.status, 401);
      assert.deepEqual(empty.error, pgError('42501', 'new row violates row-level security policy for table "inbox"'));
    });

    test('no table privilege: 401 42501 for anon', async () => {
      const res = await anon.from('todos').insert({ task: 'anon' });
      assert.equal(res.status, 401);
      assert.deepEqual(res.error, pgError('42501', 'permission denied for table todos'));
    });
  });

  describe('max-affected and strict preferences', () => {
    test('handling=strict + max-affected below the affected rows: 400 PGRST124 and nothing changes', async () => {
      const res = await anon.from('authors').update({ country: 'ZZ' }).in('id', [10, 11]).maxAffected(1);
      assert.equal(res.status, 400);
      assert.deepEqual(res.error, pgError('PGRST124', 'Query result exceeds max-affected preference constraint', 'The query affects 2 rows'));
      assert.equal(gw.sql("select count(*) from public.authors where country = 'ZZ'"), '0');
    });

    test('handling=strict + max-affected within the limit succeeds and is echoed', async () => {
      const raw = await gw.rest('/authors?id=in.(10,11)', {
        method: 'PATCH',
        headers: { prefer: 'handling=strict, max-affected=2' },
        body: { country: 'YY' },
      });
      assert.equal(raw.status, 204);
      assert.equal(raw.headers.get('preference-applied'), 'handling=strict, max-affected=2');
      assert.equal(gw.sql("select count(*) from public.authors where country = 'YY'"), '2');
    });

    test('handling=strict rejects unknown preferences with 400 PGRST122', async () => {
      const raw = await gw.rest('/authors?id=eq.10', {
        method: 'PATCH',
        headers: { prefer: 'handling=strict, foo=bar' },
        body: { country: 'QQ' },
      });
      assert.equal(raw.status, 400);
      assert.deepEqual(raw.json, pgError('PGRST122', 'Invalid preferences given with handling=strict', 'Invalid preferences: foo=bar'));
    });

    test('handling=lenient ignores unknown preferences', async () => {
      const raw = await gw.rest('/authors?id=eq.10', {
        method: 'PATCH',
        headers: { prefer: 'handling=lenient, foo=bar' },
        body: { country: 'LL' },
      });
      assert.equal(raw.status, 204);
      assert.equal(raw.headers.get('preference-applied'), 'handling=lenient');
    });
  });

  describe('delete', () => {
    test('delete without select: 204', async () => {
      const res = await anon.from('authors').delete().eq('id', 17);
      assert.deepEqual(result(res), { data: null, error: null, count: null, status: 204, statusText: 'No Content' });
      assert.deepEqual(authorsInDb('id = 17'), []);
    });

    test('delete with select returns the deleted rows; count=exact gives */N', async () => {
      const res = await anon.from('authors').delete({ count: 'exact' }).in('id', [14, 15]).select('id');
      assert.deepEqual(result(res), {
        data: [{ id: 14 }, { id: 15 }],
        error: null,
        count: 2,
        status: 200,
        statusText: 'OK',
      });
      const raw = await gw.rest('/authors?id=eq.16', { method: 'DELETE', headers: { prefer: 'count=exact' } });
      assert.equal(raw.status, 204);
      assert.equal(raw.headers.get('content-range'), '*/1');
    });
  });
});
