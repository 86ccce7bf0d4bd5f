// Reads through supabase-js as anon: select grammar, every filter operator, logic trees, order, ranges, counts,
// HEAD, single-object responses, CSV, schema profiles. Expected values follow PostgREST 14 (postgrest.md §6–§11).
// Book 6 is hidden from anon by RLS, so anon sees books 1, 2, 3, 4, 5, 7.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { skipUnless, startRest, result, ids, pgError } from './fixture.mjs';

const skip = skipUnless('read');

describe('REST reads', { skip }, () => {
  let gw;
  let db;
  before(async () => {
    gw = await startRest();
    db = gw.client();
  });
  after(async () => gw?.stop());

  const books = () => db.from('books');

  describe('select grammar', () => {
    test('columns, RLS-filtered rows, status text', async () => {
      const res = await books().select('id,title').order('id');
      assert.deepEqual(result(res), {
        data: [
          { id: 1, title: 'A Wizard of Earthsea' },
          { id: 2, title: 'The Left Hand of Darkness' },
          { id: 3, title: 'Guards! Guards!' },
          { id: 4, title: 'Small Gods' },
          { id: 5, title: 'Kindred' },
          { id: 7, title: 'Orphan pamphlet' },
        ],
        error: null,
        count: null,
        status: 200,
        statusText: 'OK',
      });
    });

    test('* renders PostgreSQL types as PostgreSQL does (numeric, arrays, jsonb, date)', async () => {
      const { data } = await books().select('*').eq('id', 1);
      assert.deepEqual(data, [
        {
          id: 1,
          title: 'A Wizard of Earthsea',
          author_id: 1,
          pages: 183,
          price: 9.99,
          tags: ['fantasy', 'classic'],
          meta: { series: 'Earthsea', ratings: [5, 4] },
          published: '1968-11-01',
          visible: true,
        },
      ]);
    });

    test('aliases and casts', async () => {
      const { data, error } = await books().select('id,name:title,pages::text,cost:price::text').eq('id', 1);
      assert.equal(error, null);
      assert.deepEqual(data, [{ id: 1, name: 'A Wizard of Earthsea', pages: '183', cost: '9.99' }]);
    });

    test('JSON paths: -> keeps JSON, ->> gives text, the output key is the last path element or the alias', async () => {
      const { data, error } = await books().select('id,meta->>series,first:meta->ratings->0,meta->ratings').eq('id', 3);
      assert.equal(error, null);
      assert.deepEqual(data, [{ id: 3, series: 'Discworld', first: 4, ratings: [4, 4] }]);
    });

    test('names with spaces, punctuation and non-ASCII letters: in the path, select, filters and order', async () => {
      const res = await db.from('odd names').select('id, "my col", ünïcode').order('my col', { ascending: false });
      assert.deepEqual(result(res), {
        data: [
          { id: 2, 'my col': 'c,d', ünïcode: null },
          { id: 1, 'my col': 'a b', ünïcode: 'ü' },
        ],
        error: null,
        count: null,
        status: 200,
        statusText: 'OK',
      });
      const filtered = await db.from('odd names').select('id').eq('my col', 'a b');
      assert.deepEqual(filtered.data, [{ id: 1 }]);
      const quoted = await db.from('odd names').select('id').in('my col', ['c,d']);
      assert.deepEqual(quoted.data, [{ id: 2 }]);
    });

    test('filter on a JSON path', async () => {
      const { data } = await books().select('id').eq('meta->>series', 'Discworld');
      assert.deepEqual(data, [{ id: 3 }]);
    });

    test('an unknown column is PostgreSQL 42703 with status 400', async () => {
      const res = await books().select('id,nope');
      assert.equal(res.status, 400);
      assert.deepEqual(res.error, pgError('42703', 'column books.nope does not exist'));
    });

    test('an unknown table is 404 PGRST205, with a hint only for a close name', async () => {
      const far = await db.from('zzqx').select('*');
      assert.equal(far.status, 404);
      assert.deepEqual(far.error, pgError('PGRST205', "Could not find the table 'public.zzqx' in the schema cache"));
      const near = await db.from('book').select('*');
      assert.equal(near.status, 404);
      assert.deepEqual(
        near.error,
        pgError('PGRST205', "Could not find the table 'public.book' in the schema cache", null, "Perhaps you meant the table 'public.books'"),
      );
    });
  });

  describe('filters', () => {
    const cases = [
      ['eq', (q) => q.eq('author_id', 2), [3, 4]],
      ['neq', (q) => q.neq('author_id', 1), [3, 4, 5]],
      ['gt', (q) => q.gt('pages', 272), [2, 3]],
      ['gte', (q) => q.gte('pages', 272), [2, 3, 4]],
      ['lt', (q) => q.lt('pages', 183), [7]],
      ['lte', (q) => q.lte('pages', 183), [1, 7]],
      ['like with %', (q) => q.like('title', '%Gods'), [4]],
      ['like with * (PostgREST wildcard)', (q) => q.filter('title', 'like', '*Gods'), [4]],
      ['ilike', (q) => q.ilike('title', '%guards%'), [3]],
      ['match (regex)', (q) => q.regexMatch('title', '^The'), [2]],
      ['imatch (case-insensitive regex)', (q) => q.regexIMatch('title', '^the'), [2]],
      ['match({...}) is eq per key', (q) => q.match({ author_id: 1, pages: 304 }), [2]],
      ['in', (q) => q.in('id', [1, 3, 99]), [1, 3]],
      ['in with a quoted element containing a comma', (q) => q.in('title', ['Guards! Guards!', 'a,b']), [3]],
      ['is null', (q) => q.is('price', null), [4]],
      ['not.is.null', (q) => q.not('price', 'is', null), [1, 2, 3, 5, 7]],
      ['is true', (q) => q.is('visible', true), [1, 2, 3, 4, 5, 7]],
      ['isdistinct (NULL is distinct)', (q) => q.isDistinct('author_id', 1), [3, 4, 5, 7]],
      ['cs on an array', (q) => q.contains('tags', ['classic']), [1, 2]],
      ['cd on an array', (q) => q.containedBy('tags', ['fantasy', 'classic', 'humour']), [1, 3, 4, 7]],
      ['ov on an array', (q) => q.overlaps('tags', ['humour', 'scifi']), [2, 3, 5]],
      ['cs on jsonb', (q) => q.contains('meta', { series: 'Discworld' }), [3]],
      ['fts on a text column with a config', (q) => q.textSearch('title', 'wizard', { config: 'english' }), [1]],
      ['plfts', (q) => q.textSearch('title', 'darkness left', { type: 'plain', config: 'english' }), [2]],
      ['phfts', (q) => q.textSearch('title', 'left hand', { type: 'phrase', config: 'english' }), [2]],
      ['wfts', (q) => q.textSearch('title', 'guards -small', { type: 'websearch', config: 'english' }), [3]],
      ['like(any)', (q) => q.likeAnyOf('title', ['%Gods', 'Kin%']), [4, 5]],
      ['ilike(all)', (q) => q.ilikeAllOf('title', ['%the%', '%dark%']), [2]],
      ['eq(any)', (q) => q.filter('id', 'eq(any)', '{1,3}'), [1, 3]],
      ['gt(all)', (q) => q.filter('pages', 'gt(all)', '{200,270}'), [2, 3, 4]],
      ['not.in', (q) => q.not('id', 'in', '(1,2,3)'), [4, 5, 7]],
      ['not.like(any)', (q) => q.not('title', 'like(any)', '{%Gods,%!}'), [1, 2, 5, 7]],
      ['two filters on one column are ANDed', (q) => q.gt('pages', 100).lt('pages', 270), [1, 5]],
      ['or', (q) => q.or('pages.lt.200,price.gt.12'), [1, 2, 7]],
      ['or with a nested and', (q) => q.or('id.eq.5,and(author_id.eq.2,pages.gt.280)'), [3, 5]],
      ['or with a negated condition inside', (q) => q.or('author_id.not.eq.1,id.eq.1'), [1, 3, 4, 5]],
      ['or with not.and inside', (q) => q.or('id.eq.7,not.and(author_id.gte.1,pages.gt.200)'), [1, 7]],
    ];
    for (const [name, apply, want] of cases) {
      test(name, async () => {
        const res = await apply(books().select('id')).order('id');
        assert.equal(res.error, null, JSON.stringify(res.error));
        assert.deepEqual(ids(res.data), want);
      });
    }

    const rangeCases = [
      ['sl (strictly left of)', (q) => q.rangeLt('during', '[8,9)'), [1]],
      ['sr (strictly right of)', (q) => q.rangeGt('during', '[8,9)'), [3]],
      ['nxr (does not extend to the right of)', (q) => q.rangeLte('during', '[8,9)'), [1]],
      ['nxl (does not extend to the left of)', (q) => q.rangeGte('during', '[8,9)'), [3]],
      ['adj (adjacent to)', (q) => q.rangeAdjacent('during', '[20,30)'), [3]],
      ['ov on ranges', (q) => q.overlaps('during', '[4,6)'), [1, 2]],
      ['cs on a range', (q) => q.contains('during', '[6,7)'), [2]],
      ['not.cd on a range', (q) => q.not('during', 'cd', '[0,10)'), [3]],
    ];
    for (const [name, apply, want] of rangeCases) {
      test(`range operator ${name}`, async () => {
        const res = await apply(db.from('slots').select('id')).order('id');
        assert.equal(res.error, null, JSON.stringify(res.error));
        assert.deepEqual(ids(res.data), want);
      });
    }

    test('not.or=(…) negates a whole tree; and=(…) is explicit AND', async () => {
      const neg = await gw.rest('/books?select=id&not.or=(id.eq.1,id.eq.2)&order=id');
      assert.equal(neg.status, 200);
      assert.deepEqual(ids(neg.json), [3, 4, 5, 7]);
      const and = await gw.rest('/books?select=id&and=(author_id.eq.1,pages.gt.200)');
      assert.deepEqual(ids(and.json), [2]);
    });

    test('values are bound, never spliced: quotes in a value match nothing', async () => {
      const res = await books().select('id').eq('title', "x' or '1'='1");
      assert.deepEqual(result(res), { data: [], error: null, count: null, status: 200, statusText: 'OK' });
    });

    test('a value of the wrong type is PostgreSQL 22P02, 400', async () => {
      const res = await gw.rest('/books?select=id&id=eq.1)or(1=1');
      assert.equal(res.status, 400);
      assert.deepEqual(res.json, pgError('22P02', 'invalid input syntax for type integer: "1)or(1=1"'));
    });

    test('a filter without an operator is PGRST100 with the parser position', async () => {
      const res = await gw.rest('/books?id=0');
      assert.equal(res.status, 400);
      assert.deepEqual(
        res.json,
        pgError('PGRST100', '"failed to parse filter (0)" (line 1, column 1)', 'unexpected "0" expecting "not" or operator (eq, gt, ...)'),
      );
    });

    test('an empty logic tree is PGRST100', async () => {
      const res = await gw.rest('/books?or=()');
      assert.equal(res.status, 400);
      assert.deepEqual(
        res.json,
        pgError(
          'PGRST100',
          '"failed to parse logic tree (())" (line 1, column 4)',
          'unexpected ")" expecting field name (* or [a..z0..9_$]), negation operator (not) or logic operator (and, or)',
        ),
      );
    });
  });

  test('every error is a JSON object with exactly code, details, hint and message', async () => {
    const cases = [
      ['/zzqx', {}, 404],
      ['/books?id=zz.1', {}, 400],
      ['/books?select=nope', {}, 400],
      ['/books', { 'accept-profile': 'nope' }, 406],
      ['/secrets', {}, 401],
      ['/books?select=id&limit=-1', {}, 416],
    ];
    for (const [path, headers, status] of cases) {
      const res = await gw.rest(path, { headers });
      assert.equal(res.status, status, path);
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8', path);
      assert.deepEqual(Object.keys(res.json).sort(), ['code', 'details', 'hint', 'message'], path);
      assert.equal(typeof res.json.code, 'string', path);
      assert.equal(typeof res.json.message, 'string', path);
    }
  });

  describe('order, limit, offset', () => {
    test('nulls first / last', async () => {
      const first = await books().select('id').order('price', { ascending: true, nullsFirst: true });
      assert.deepEqual(ids(first.data), [4, 7, 3, 1, 5, 2]);
      const last = await books().select('id').order('price', { ascending: false, nullsFirst: false });
      assert.deepEqual(ids(last.data), [2, 5, 1, 3, 7, 4]);
    });

    test('several order terms', async () => {
      const res = await books().select('id').order('author_id', { ascending: false, nullsFirst: false }).order('id');
      assert.deepEqual(ids(res.data), [5, 3, 4, 1, 2, 7]);
    });

    test('order by a JSON path', async () => {
      const res = await books().select('id').not('meta', 'is', null).order('meta->>series', { nullsFirst: true }).order('id');
      assert.deepEqual(ids(res.data), [2, 5, 3, 1]);
    });

    test('limit and range', async () => {
      assert.deepEqual(ids((await books().select('id').order('id').limit(2)).data), [1, 2]);
      assert.deepEqual(ids((await books().select('id').order('id').range(1, 2)).data), [2, 3]);
    });

    test('a bad order term is PGRST100', async () => {
      const res = await gw.rest('/books?order=id.asc.nullslasttt');
      assert.equal(res.status, 400);
      assert.deepEqual(
        res.json,
        pgError('PGRST100', '"failed to parse order (id.asc.nullslasttt)" (line 1, column 17)', 'unexpected \'t\' expecting "," or end of input'),
      );
    });

    test('a negative limit is 416 PGRST103', async () => {
      const res = await gw.rest('/books?limit=-1');
      assert.equal(res.status, 416);
      assert.deepEqual(res.json, pgError('PGRST103', 'Requested range not satisfiable', 'Limit should be greater than or equal to zero.'));
    });
  });

  describe('counts and Content-Range', () => {
    test('plain reads carry Content-Range with an unknown total', async () => {
      const res = await gw.rest('/books?select=id&order=id&limit=2');
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-range'), '0-1/*');
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
      const none = await gw.rest('/books?select=id&id=eq.99');
      assert.equal(none.headers.get('content-range'), '*/*');
      assert.equal(none.text, '[]');
    });

    test('count=exact counts only the rows RLS lets anon see', async () => {
      const res = await books().select('id', { count: 'exact' });
      assert.equal(res.count, 6);
      assert.equal(res.status, 200);
    });

    test('a partial page with count=exact is 206 Partial Content', async () => {
      const res = await books().select('id', { count: 'exact' }).order('id').range(0, 1);
      assert.deepEqual(result(res), {
        data: [{ id: 1 }, { id: 2 }],
        error: null,
        count: 6,
        status: 206,
        statusText: 'Partial Content',
      });
      const raw = await gw.rest('/books?select=id&order=id&offset=2&limit=2', { headers: { prefer: 'count=exact' } });
      assert.equal(raw.status, 206);
      assert.equal(raw.headers.get('content-range'), '2-3/6');
      assert.equal(raw.headers.get('preference-applied'), 'count=exact');
    });

    test('count=exact with no matching rows: */0', async () => {
      const raw = await gw.rest('/books?select=id&id=eq.99', { headers: { prefer: 'count=exact' } });
      assert.equal(raw.status, 200);
      assert.equal(raw.headers.get('content-range'), '*/0');
    });

    test('an offset past the end with count=exact is 416 PGRST103', async () => {
      const raw = await gw.rest('/books?select=id&offset=10', { headers: { prefer: 'count=exact' } });
      assert.equal(raw.status, 416);
      assert.deepEqual(
        raw.json,
        pgError('PGRST103', 'Requested range not satisfiable', 'An offset of 10 was requested, but there are only 6 rows.'),
      );
    });

    test('HEAD with count: no body, the count in Content-Range', async () => {
      const res = await books().select('*', { count: 'exact', head: true });
      assert.deepEqual(result(res), { data: null, error: null, count: 6, status: 200, statusText: 'OK' });
      const raw = await gw.rest('/books?select=*', { method: 'HEAD', headers: { prefer: 'count=exact' } });
      assert.equal(raw.status, 200);
      assert.equal(raw.text, '');
      assert.equal(raw.headers.get('content-range'), '0-5/6');
    });

    test('count=planned and count=estimated give a numeric total', async () => {
      for (const count of ['planned', 'estimated']) {
        const raw = await gw.rest('/books?select=id&limit=1', { headers: { prefer: `count=${count}` } });
        assert.match(raw.headers.get('content-range'), /^0-0\/\d+$/, count);
        assert.equal(raw.headers.get('preference-applied'), `count=${count}`);
        assert.deepEqual(raw.json.length, 1);
      }
    });
  });

  describe('single-object responses', () => {
    test('.single() with one row returns the object', async () => {
      const res = await books().select('id,title').eq('id', 1).single();
      assert.deepEqual(result(res), {
        data: { id: 1, title: 'A Wizard of Earthsea' },
        error: null,
        count: null,
        status: 200,
        statusText: 'OK',
      });
      const raw = await gw.rest('/books?select=id&id=eq.1', { headers: { accept: 'application/vnd.pgrst.object+json' } });
      assert.equal(raw.headers.get('content-type'), 'application/vnd.pgrst.object+json; charset=utf-8');
      assert.equal(raw.text, '{"id":1}');
    });

    test('.single() with several rows or none is 406 PGRST116', async () => {
      const many = await books().select('id').single();
      assert.deepEqual(result(many), {
        data: null,
        error: pgError('PGRST116', 'Cannot coerce the result to a single JSON object', 'The result contains 6 rows'),
        count: null,
        status: 406,
        statusText: 'Not Acceptable',
      });
      const none = await books().select('id').eq('id', 6).single();
      assert.equal(none.status, 406);
      assert.deepEqual(none.error, pgError('PGRST116', 'Cannot coerce the result to a single JSON object', 'The result contains 0 rows'));
    });

    test('.maybeSingle() with no row is null data and no error', async () => {
      const res = await books().select('id').eq('id', 99).maybeSingle();
      assert.deepEqual(result(res), { data: null, error: null, count: null, status: 200, statusText: 'OK' });
      const one = await books().select('id').eq('id', 2).maybeSingle();
      assert.deepEqual(one.data, { id: 2 });
    });
  });

  describe('media types', () => {
    test('.csv() returns the header line and PostgreSQL record text', async () => {
      const res = await books().select('id,title').in('id', [1, 3]).order('id').csv();
      assert.equal(res.error, null);
      assert.equal(res.data, 'id,title\n1,"A Wizard of Earthsea"\n3,"Guards! Guards!"');
      const raw = await gw.rest('/books?select=id&id=eq.1', { headers: { accept: 'text/csv' } });
      assert.equal(raw.headers.get('content-type'), 'text/csv; charset=utf-8');
      assert.equal(raw.text, 'id\n1');
    });

    test('.csv() of no rows is a lone newline', async () => {
      const raw = await gw.rest('/books?select=id&id=eq.99', { headers: { accept: 'text/csv' } });
      assert.equal(raw.status, 200);
      assert.equal(raw.text, '\n');
    });

    test('.stripNulls() drops null-valued keys', async () => {
      const res = await books().select('id,price,meta,pages').in('id', [4, 5]).order('id').stripNulls();
      assert.equal(res.error, null);
      assert.deepEqual(res.data, [
        { id: 4, pages: 272 },
        { id: 5, price: 11, meta: { ratings: [] }, pages: 264 }, // json_strip_nulls is recursive
      ]);
    });

    test('an unsupported Accept is 406 PGRST107', async () => {
      const raw = await gw.rest('/books?select=id', { headers: { accept: 'text/html' } });
      assert.equal(raw.status, 406);
      assert.deepEqual(raw.json, pgError('PGRST107', 'None of these media types are available: text/html'));
    });
  });

  describe('CORS for browsers (PostgREST Cors.hs)', () => {
    const list = (v) => (v ?? '').split(',').map((x) => x.trim().toLowerCase()).filter(Boolean);

    test('a cross-origin read is allowed and exposes Content-Range (else count is null in browsers)', async () => {
      const res = await gw.rest('/books?select=id&limit=1', { headers: { origin: 'https://app.example', prefer: 'count=exact' } });
      assert.equal(res.status, 206);
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.ok(list(res.headers.get('access-control-expose-headers')).includes('content-range'));
    });

    test('a preflight allows the methods and echoes the requested headers', async () => {
      const asked = 'apikey, authorization, x-client-info, content-type, accept-profile, content-profile, prefer, x-retry-count';
      const res = await fetch(`${gw.url}/rest/v1/books`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'PATCH', 'access-control-request-headers': asked },
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      const methods = list(res.headers.get('access-control-allow-methods'));
      for (const m of ['get', 'post', 'patch', 'put', 'delete', 'options']) assert.ok(methods.includes(m), m);
      const allowed = list(res.headers.get('access-control-allow-headers'));
      for (const h of list(asked)) assert.ok(allowed.includes(h), h);
      assert.equal(res.headers.get('access-control-max-age'), '86400');
    });
  });

  describe('schema profiles', () => {
    test('Accept-Profile selects an exposed schema and is echoed as Content-Profile', async () => {
      const res = await db.schema('stock').from('items').select('id,name,qty').order('id');
      assert.deepEqual(result(res), {
        data: [
          { id: 1, name: 'shelf', qty: 3 },
          { id: 2, name: 'lamp', qty: 0 },
        ],
        error: null,
        count: null,
        status: 200,
        statusText: 'OK',
      });
      const raw = await gw.rest('/items?select=id&order=id', { headers: { 'accept-profile': 'stock' } });
      assert.equal(raw.headers.get('content-profile'), 'stock');
    });

    test('with several exposed schemas the default one is echoed as Content-Profile', async () => {
      const raw = await gw.rest('/books?select=id&id=eq.1', { key: null });
      assert.equal(raw.headers.get('content-profile'), 'public');
    });

    test('reads follow Accept-Profile only and writes Content-Profile only', async () => {
      const read = await gw.rest('/items?select=id', { headers: { 'content-profile': 'stock' } });
      assert.equal(read.status, 404);
      assert.deepEqual(read.json, pgError('PGRST205', "Could not find the table 'public.items' in the schema cache"));
      const write = await gw.rest('/items', { method: 'POST', headers: { 'accept-profile': 'stock' }, body: { id: 9, name: 'x' } });
      assert.equal(write.status, 404);
      assert.deepEqual(write.json, pgError('PGRST205', "Could not find the table 'public.items' in the schema cache"));
    });

    test('Content-Profile selects the schema of a write', async () => {
      const res = await db.schema('stock').from('items').insert({ id: 3, name: 'desk' }).select();
      assert.equal(res.status, 201);
      assert.deepEqual(res.data, [{ id: 3, name: 'desk', qty: 0 }]);
    });

    test('a schema that is not exposed is 406 PGRST106', async () => {
      for (const [header, method] of [
        ['accept-profile', 'GET'],
        ['content-profile', 'POST'],
      ]) {
        const raw = await gw.rest('/users', { method, headers: { [header]: 'auth' }, body: method === 'POST' ? {} : undefined });
        assert.equal(raw.status, 406, header);
        assert.deepEqual(raw.json, pgError('PGRST106', 'Invalid schema: auth', null, 'Only the following schemas are exposed: public, stock'));
      }
    });
  });
});
