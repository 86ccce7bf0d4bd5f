// GET /rest/v1/: the Swagger 2.0 document as PostgREST serves it, read by a tool that reads PostgREST's document
// (swagger-parser validates it against the Swagger 2.0 schema and resolves every $ref), privileges followed per
// role, Accept-Profile, and the request rules (406 for other media types, HEAD without a body).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import SwaggerParser from '@apidevtools/swagger-parser';
import { skipUnless, startRest } from './fixture.mjs';

const skip = skipUnless('openapi');
const SQL = `
comment on schema public is 'Library API
The books, their authors and the loans.';
comment on table public.authors is 'Authors

People who wrote books.';
comment on column public.authors.name is 'Full name';
create type public.shelf_state as enum ('open', 'closed');
create table public.shelves (code varchar(8) primary key, state public.shelf_state not null default 'open',
  opened date default '2020-01-01', note text default 'new');
grant select on public.shelves to anon, authenticated;
create table public.staff_only (id int primary key);
grant select on public.staff_only to authenticated;
create function public.shelf_count(state public.shelf_state default 'open') returns int language sql stable
  as $$ select count(*)::int from public.shelves s where s.state = shelf_count.state $$;
comment on function public.shelf_count(public.shelf_state) is 'How many shelves are in a state';
create function public.touch_shelf(code text) returns void language sql as $$ select $$;
create function public.staff_hello() returns text language sql stable as $$ select 'hi' $$;
revoke execute on function public.staff_hello() from public;
grant execute on function public.staff_hello() to authenticated;
`;

let gw;
before(async () => {
  if (!skip) gw = await startRest({ sql: SQL });
});
after(() => gw?.stop());

const spec = async (opts = {}) => {
  const res = await gw.rest('/', { headers: { accept: 'application/openapi+json', ...opts.headers }, ...opts });
  return res;
};

test('the document is valid Swagger 2.0 with every $ref resolving', { skip }, async () => {
  const res = await spec();
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/openapi+json; charset=utf-8');
  const api = await SwaggerParser.validate(structuredClone(res.json));
  assert.equal(api.swagger, '2.0');
  assert.equal(api.info.title, 'Library API');
  assert.equal(api.info.description, 'The books, their authors and the loans.');
  assert.equal(api.basePath, '/rest/v1');
});

test('tables, columns and functions are described as PostgREST does', { skip }, async () => {
  const doc = (await spec()).json;
  assert.equal(doc.paths['/authors'].get.summary, 'Authors');
  assert.equal(doc.paths['/authors'].get.description, 'People who wrote books.');
  assert.deepEqual(doc.definitions.authors.required, ['id', 'name']);
  assert.deepEqual(doc.definitions.authors.properties.id, {
    type: 'integer', format: 'int32', description: 'Note:\nThis is a Primary Key.<pk/>',
  });
  assert.deepEqual(doc.definitions.books.properties.author_id, {
    type: 'integer', format: 'int32',
    description: "Note:\nThis is a Foreign Key to `authors.id`.<fk table='authors' column='id'/>",
  });
  // an array default ('{}'::text[]) is not JSON: no default, as in PostgREST
  assert.deepEqual(doc.definitions.books.properties.tags, { type: 'array', format: 'text[]', items: { type: 'string' } });
  assert.deepEqual(doc.definitions.shelves.properties.code, {
    type: 'string', format: 'character varying', maxLength: 8, description: 'Note:\nThis is a Primary Key.<pk/>',
  });
  assert.deepEqual(doc.definitions.shelves.properties.state, {
    type: 'string', format: 'shelf_state', enum: ['open', 'closed'], default: 'open',
  });
  assert.equal(doc.definitions.shelves.properties.opened.default, '2020-01-01');
  const rpc = doc.paths['/rpc/shelf_count'];
  assert.equal(rpc.get.summary, 'How many shelves are in a state');
  assert.deepEqual(rpc.get.parameters, [{ name: 'state', required: false, in: 'query', type: 'string', format: 'shelf_state' }]);
  assert.deepEqual(Object.keys(doc.paths['/rpc/touch_shelf']), ['post']); // volatile: POST only
});

test('privileges are followed: anon and authenticated see different documents', { skip }, async () => {
  const anon = (await spec()).json;
  assert.equal(anon.paths['/staff_only'], undefined);
  assert.equal(anon.definitions.staff_only, undefined);
  assert.equal(anon.paths['/rpc/staff_hello'], undefined);
  const user = (await spec({ bearer: await gw.token({ sub: '00000000-0000-4000-8000-00000000000a' }) })).json;
  assert.deepEqual(user.paths['/staff_only'].get.tags, ['staff_only']);
  assert.deepEqual(user.paths['/rpc/staff_hello'].post.tags, ['(rpc) staff_hello']);
  await SwaggerParser.validate(structuredClone(user));
});

test('Accept-Profile picks the schema; other media types are refused; HEAD has no body', { skip }, async () => {
  const stock = await spec({ headers: { 'accept-profile': 'stock' } });
  assert.equal(stock.status, 200);
  assert.equal(stock.headers.get('content-profile'), 'stock');
  assert.deepEqual(Object.keys(stock.json.paths).sort(), ['/', '/items']);
  const unknown = await spec({ headers: { 'accept-profile': 'nope' } });
  assert.equal(unknown.status, 406);
  assert.equal(unknown.json.code, 'PGRST106');
  const csv = await gw.rest('/', { headers: { accept: 'text/csv' } });
  assert.equal(csv.status, 406);
  assert.deepEqual(csv.json, { code: 'PGRST107', details: null, hint: null, message: 'None of these media types are available: text/csv' });
  const head = await gw.rest('/', { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.text, '');
  assert.equal(head.headers.get('content-type'), 'application/openapi+json; charset=utf-8');
  const plain = await gw.rest('/', { headers: { accept: 'application/json' } });
  assert.equal(plain.headers.get('content-type'), 'application/openapi+json; charset=utf-8');
});
