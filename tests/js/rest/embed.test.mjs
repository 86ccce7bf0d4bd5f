// Resource embedding through supabase-js as anon: to-one / to-many, aliases, FK hints and ambiguity, !inner, spread,
// embedded counts, filters / or-trees / order / limit / offset inside embeds, related order, RLS inside embeds.
// Expected values follow PostgREST 14 (postgrest.md §6–§8, Error.hs). Book 6 and its chapter 7 are hidden from anon.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { skipUnless, startRest, result, ids, pgError } from './fixture.mjs';

const skip = skipUnless('embed');

describe('REST embedding', { skip }, () => {
  let gw;
  let db;
  before(async () => {
    gw = await startRest();
    db = gw.client();
  });
  after(async () => gw?.stop());

  test('many-to-one embeds an object (null when there is no parent)', async () => {
    const res = await db.from('books').select('id,authors(name)').in('id', [1, 7]).order('id');
    assert.deepEqual(result(res), {
      data: [
        { id: 1, authors: { name: 'Ursula K. Le Guin' } },
        { id: 7, authors: null },
      ],
      error: null,
      count: null,
      status: 200,
      statusText: 'OK',
    });
  });

  test('one-to-many embeds an array (empty when there are no children; RLS applies inside)', async () => {
    const res = await db.from('authors').select('id,books(id)').order('id').order('id', { referencedTable: 'books' });
    assert.equal(res.error, null);
    assert.deepEqual(res.data, [
      { id: 1, books: [{ id: 1 }, { id: 2 }] },
      { id: 2, books: [{ id: 3 }, { id: 4 }] },
      { id: 3, books: [{ id: 5 }] },
      { id: 4, books: [] },
    ]);
  });

  test('aliased embeds and nested embeds', async () => {
    const res = await db.from('books').select('title,writer:authors(name),chapters(no,title)')
      .eq('id', 3)
      .order('no', { referencedTable: 'chapters' });
    assert.deepEqual(res.data, [
      {
        title: 'Guards! Guards!',
        writer: { name: 'Terry Pratchett' },
        chapters: [
          { no: 1, title: 'The Summoning' },
          { no: 2, title: 'Lady Ramkin' },
        ],
      },
    ]);
    const nested = await db.from('chapters').select('title,books(title,authors(name))').eq('id', 6);
    assert.deepEqual(nested.data, [{ title: 'The River', books: { title: 'Kindred', authors: { name: 'Octavia Butler' } } }]);
  });

  test('two FKs to one table: hints by column or constraint name disambiguate', async () => {
    const res = await db
      .from('loans')
      .select('id,lender:members!lender_id(name),borrower:members!loans_borrower_id_fkey(name)')
      .order('id');
    assert.equal(res.error, null);
    assert.deepEqual(res.data, [
      { id: 1, lender: { name: 'Ann' }, borrower: { name: 'Bob' } },
      { id: 2, lender: { name: 'Bob' }, borrower: { name: 'Cy' } },
      { id: 3, lender: { name: 'Ann' }, borrower: { name: 'Cy' } },
    ]);
  });

  test('an ambiguous embed is 300 PGRST201 listing the candidates', async () => {
    const res = await db.from('loans').select('id,members(name)');
    assert.equal(res.status, 300);
    assert.equal(res.statusText, 'Multiple Choices');
    const { code, message, hint, details } = res.error;
    assert.equal(code, 'PGRST201');
    assert.equal(message, "Could not embed because more than one relationship was found for 'loans' and 'members'");
    const byName = [...details].sort((a, b) => a.relationship.localeCompare(b.relationship));
    assert.deepEqual(byName, [
      {
        cardinality: 'many-to-one',
        embedding: 'loans with members',
        relationship: 'loans_borrower_id_fkey using loans(borrower_id) and members(id)',
      },
      {
        cardinality: 'many-to-one',
        embedding: 'loans with members',
        relationship: 'loans_lender_id_fkey using loans(lender_id) and members(id)',
      },
    ]);
    const order = details.map((d) => `'members!${d.relationship.split(' ')[0]}'`).join(', ');
    assert.equal(hint, `Try changing 'members' to one of the following: ${order}. Find the desired relationship in the 'details' key.`);
  });

  test('no relationship is 400 PGRST200', async () => {
    const res = await db.from('books').select('id,zzqx(id)');
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.error,
      pgError(
        'PGRST200',
        "Could not find a relationship between 'books' and 'zzqx' in the schema cache",
        "Searched for a foreign key relationship between 'books' and 'zzqx' in the schema 'public', but no matches were found.",
      ),
    );
  });

  test('filters on an embed filter the embedded rows only', async () => {
    const res = await db.from('books').select('id,chapters(title)').eq('chapters.no', 2).in('id', [1, 2]).order('id');
    assert.deepEqual(res.data, [
      { id: 1, chapters: [{ title: 'The Shadow' }] },
      { id: 2, chapters: [] },
    ]);
  });

  test('!inner drops parents without matching children', async () => {
    const res = await db.from('books').select('id,chapters!inner(title)').eq('chapters.no', 2).order('id');
    assert.deepEqual(res.data, [
      { id: 1, chapters: [{ title: 'The Shadow' }] },
      { id: 3, chapters: [{ title: 'Lady Ramkin' }] },
    ]);
  });

  test('!inner with count=exact counts the parents that remain', async () => {
    const res = await db.from('books').select('id,chapters!inner(id)', { count: 'exact', head: true }).eq('chapters.no', 1);
    assert.deepEqual(result(res), { data: null, error: null, count: 3, status: 200, statusText: 'OK' });
  });

  test('embed=is.null / not.is.null is an anti / semi join', async () => {
    const orphans = await db.from('books').select('id,authors(id)').is('authors', null);
    assert.deepEqual(orphans.data, [{ id: 7, authors: null }]);
    const withChapters = await db.from('books').select('id,chapters()').not('chapters', 'is', null).order('id');
    assert.deepEqual(withChapters.data, [{ id: 1 }, { id: 3 }, { id: 5 }]);
  });

  test('spread hoists the columns of a to-one embed', async () => {
    const res = await db.from('books').select('title,...authors(author:name,country)').eq('id', 3);
    assert.deepEqual(res.data, [{ title: 'Guards! Guards!', author: 'Terry Pratchett', country: 'UK' }]);
  });

  test('rel(count) counts the visible embedded rows', async () => {
    const res = await db.from('authors').select('name,books(count)').order('id');
    assert.deepEqual(res.data, [
      { name: 'Ursula K. Le Guin', books: [{ count: 2 }] },
      { name: 'Terry Pratchett', books: [{ count: 2 }] },
      { name: 'Octavia Butler', books: [{ count: 1 }] },
      { name: 'Anonymous', books: [{ count: 0 }] },
    ]);
  });

  test('order, limit and offset per embed', async () => {
    const desc = await db
      .from('authors')
      .select('id,books(id)')
      .in('id', [1, 2])
      .order('id')
      .order('id', { referencedTable: 'books', ascending: false });
    assert.deepEqual(desc.data, [
      { id: 1, books: [{ id: 2 }, { id: 1 }] },
      { id: 2, books: [{ id: 4 }, { id: 3 }] },
    ]);
    const limited = await db
      .from('authors')
      .select('id,books(id)')
      .in('id', [1, 2])
      .order('id')
      .order('id', { referencedTable: 'books', ascending: false })
      .limit(1, { referencedTable: 'books' });
    assert.deepEqual(limited.data, [
      { id: 1, books: [{ id: 2 }] },
      { id: 2, books: [{ id: 4 }] },
    ]);
    const offset = await gw.rest('/authors?select=id,books(id)&id=in.(1,2)&order=id&books.order=id.asc&books.offset=1&books.limit=5');
    assert.deepEqual(offset.json, [
      { id: 1, books: [{ id: 2 }] },
      { id: 2, books: [{ id: 4 }] },
    ]);
  });

  test('nulls first / last inside an embed', async () => {
    const res = await db
      .from('authors')
      .select('id,books(id,price)')
      .eq('id', 2)
      .order('price', { referencedTable: 'books', ascending: true, nullsFirst: true });
    assert.deepEqual(res.data, [{ id: 2, books: [{ id: 4, price: null }, { id: 3, price: 8.0 }] }]);
  });

  test('or-trees inside an embed', async () => {
    const res = await db
      .from('authors')
      .select('id,books(id)')
      .in('id', [1, 2])
      .or('id.eq.1,id.eq.4', { referencedTable: 'books' })
      .order('id');
    assert.deepEqual(res.data, [
      { id: 1, books: [{ id: 1 }] },
      { id: 2, books: [{ id: 4 }] },
    ]);
  });

  test('order parents by a to-one embedded column', async () => {
    const res = await gw.rest('/books?select=id,authors(name)&order=authors(name).asc,id.asc');
    assert.equal(res.status, 200);
    assert.deepEqual(ids(res.json), [5, 3, 4, 1, 2, 7]);
  });

  test('ordering by a to-many embed is 400 PGRST118', async () => {
    const res = await gw.rest('/authors?select=id,books(id)&order=books(id)');
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.json,
      pgError(
        'PGRST118',
        "A related order on 'books' is not possible",
        "'authors' and 'books' do not form a many-to-one or one-to-one relationship",
      ),
    );
  });

  test('embedding through a security_invoker view: relationships carry over, RLS still applies', async () => {
    const res = await db.from('book_titles').select('id,authors(name)', { count: 'exact' }).in('id', [1, 6, 7]).order('id');
    assert.deepEqual(result(res), {
      data: [
        { id: 1, authors: { name: 'Ursula K. Le Guin' } },
        { id: 7, authors: null },
      ],
      error: null,
      count: 2,
      status: 200,
      statusText: 'OK',
    });
    const reverse = await db.from('authors').select('id,book_titles(title)').eq('id', 3);
    assert.deepEqual(reverse.data, [{ id: 3, book_titles: [{ title: 'Kindred' }] }]);
  });

  test('filtering an embed that is not selected is 400 PGRST108', async () => {
    const res = await db.from('books').select('id').eq('chapters.no', 1);
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.error,
      pgError(
        'PGRST108',
        "'chapters' is not an embedded resource in this request",
        null,
        "Verify that 'chapters' is included in the 'select' query parameter.",
      ),
    );
  });

  test('an operator other than is on an embed is 400 PGRST120', async () => {
    const res = await gw.rest('/books?select=id,authors(id)&authors=eq.1');
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.json,
      pgError('PGRST120', "Bad operator on the 'authors' embedded resource", 'Only is null or not is null filters are allowed on embedded resources'),
    );
  });
});
