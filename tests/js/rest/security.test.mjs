// Attacks on /rest/v1 that are observable over HTTP (security.md J1–J7, J10, K3–K4, R9–R13, R18): forged,
// unsigned, expired and malformed tokens, role claims outside the allowed set, apikey handling, column privileges,
// identifier and value injection, schema switching. Token errors follow PostgREST 14 (Error.hs JwtError,
// test/io/test_auth.py, test/spec/Feature/Auth/AuthSpec.hs); privilege errors are PostgreSQL's 42501 mapped to 401 for
// anon and 403 for a signed-in role.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, generateKeyPair } from 'jose';
import { skipUnless, startRest, pgError, USER_A, USER_B } from './fixture.mjs';

const skip = skipUnless('security');

const b64url = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

describe('REST security', { skip }, () => {
  let gw;
  before(async () => {
    gw = await startRest();
  });
  after(async () => gw?.stop());

  const whoami = (opts) => gw.rest('/rpc/whoami', { method: 'POST', body: {}, ...opts });

  /** A rejected token: 401, the PostgREST code and message, and the matching WWW-Authenticate challenge. */
  function assertTokenRejected(res, code, messages) {
    assert.equal(res.status, 401, res.text);
    assert.equal(res.json.code, code);
    assert.ok(messages.includes(res.json.message), res.json.message);
    assert.equal(res.json.hint, null);
    assert.equal(
      res.headers.get('www-authenticate'),
      `Bearer error="invalid_token", error_description=${JSON.stringify(res.json.message)}`,
    );
  }

  describe('tokens (J1–J7, J10, K3, K4)', () => {
    test('no apikey and no bearer is the anon role (Supabase CLI behaviour)', async () => {
      const res = await whoami({ key: null });
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, { role: 'anon', sub: null, claims_role: 'anon' });
    });

    test('apikey anon + a user bearer runs as the user; a JWT apikey alone is used as the bearer', async () => {
      const userToken = await gw.token({ sub: USER_A });
      const user = await whoami({ bearer: userToken });
      assert.deepEqual(user.json, { role: 'authenticated', sub: USER_A, claims_role: 'authenticated' });
      const service = await whoami({ key: gw.serviceKey, bearer: null });
      assert.deepEqual(service.json, { role: 'service_role', sub: null, claims_role: 'service_role' });
    });

    test("the scheme is case-insensitive ('bearer')", async () => {
      const token = await gw.token({ sub: USER_A });
      const res = await gw.rest('/rpc/whoami', { method: 'POST', body: {}, bearer: null, headers: { authorization: `bearer ${token}` } });
      assert.equal(res.status, 200);
      assert.equal(res.json.role, 'authenticated');
    });

    test('a token without a role claim runs as anon with its other claims', async () => {
      const res = await whoami({ bearer: await gw.token({ sub: USER_A, role: undefined }) });
      assert.deepEqual(res.json, { role: 'anon', sub: USER_A, claims_role: 'anon' });
    });

    test('J1: alg none is rejected, never trusted', async () => {
      // The token of PostgREST's own test (test/io/test_auth.py), then an unsigned service_role claim.
      const postgrestCase = 'eyJ0eXAiOiJKV1QiLCJhbGciOiJub25lIn0.e30.yOBhlOIqn56T-4NvyEXCjfi3UmyQZ-BzXtePMO2NgRI';
      const res = await whoami({ bearer: postgrestCase });
      assertTokenRejected(res, 'PGRST301', ['Wrong or unsupported encoding algorithm']);
      assert.equal(res.json.details, "JWT is unsecured but expected 'alg' was not 'none'");
      const unsigned = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ role: 'service_role', exp: now() + 600 })}.`;
      assertTokenRejected(await whoami({ bearer: unsigned }), 'PGRST301', ['Wrong or unsupported encoding algorithm']);
    });

    test('J2: an HS256 token is rejected when no shared secret is configured', async () => {
      const hs = await new SignJWT({ role: 'service_role', exp: now() + 600 })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(new TextEncoder().encode('super-secret-jwt-token-with-at-least-32-characters-long'));
      assertTokenRejected(await whoami({ bearer: hs }), 'PGRST301', [
        'No suitable key or wrong key type',
        'Wrong or unsupported encoding algorithm',
      ]);
    });

    test('J3/K4: a token signed by another key (unknown or reused kid) is rejected; no fallback to the apikey role', async () => {
      const { privateKey } = await generateKeyPair('ES256');
      for (const kid of ['not-a-known-kid', gw.kid]) {
        const forged = await new SignJWT({ role: 'service_role', exp: now() + 600 })
          .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid })
          .sign(privateKey);
        assertTokenRejected(await whoami({ bearer: forged }), 'PGRST301', [
          'No suitable key or wrong key type',
          'JWT cryptographic operation failed',
        ]);
      }
    });

    test('J10: two bearer tokens in one Authorization header are one malformed token', async () => {
      const a = await gw.token({ sub: USER_A });
      const res = await whoami({ bearer: null, headers: { authorization: `Bearer ${a}, Bearer ${gw.serviceKey}` } });
      assertTokenRejected(res, 'PGRST301', ['Expected 3 parts in JWT; got 5']);
    });

    test('a token that is not three parts is rejected', async () => {
      const res = await whoami({ bearer: 'abc.def' });
      assertTokenRejected(res, 'PGRST301', ['Expected 3 parts in JWT; got 2']);
      assert.deepEqual(res.json, pgError('PGRST301', 'Expected 3 parts in JWT; got 2'));
    });

    test('J6: expired beyond the 30 s skew is rejected; within it, accepted', async () => {
      const expired = await gw.token({ sub: USER_A, iat: now() - 3600, exp: now() - 60 });
      const res = await whoami({ bearer: expired });
      assertTokenRejected(res, 'PGRST303', ['JWT expired']);
      assert.deepEqual(res.json, pgError('PGRST303', 'JWT expired'));
      const justExpired = await gw.token({ sub: USER_A, iat: now() - 3600, exp: now() - 10 });
      assert.equal((await whoami({ bearer: justExpired })).status, 200);
    });

    test('J6: nbf and iat in the future are rejected', async () => {
      const nbf = await gw.token({ nbf: now() + 120 });
      assertTokenRejected(await whoami({ bearer: nbf }), 'PGRST303', ['JWT not yet valid']);
      const iat = await gw.token({ iat: now() + 120 });
      assertTokenRejected(await whoami({ bearer: iat }), 'PGRST303', ['JWT issued at future']);
    });

    test('J5: exp given as a string is rejected (CVE-2026-25537 class)', async () => {
      const res = await whoami({ bearer: await gw.token({ exp: String(now() + 3600) }) });
      assertTokenRejected(res, 'PGRST303', ["The JWT 'exp' claim must be a number"]);
    });

    test('J7: a validly signed role that does not exist is 401 22023', async () => {
      const res = await whoami({ bearer: await gw.token({ role: 'supabase_admin' }) });
      assert.equal(res.status, 401);
      assert.deepEqual(res.json, pgError('22023', 'role "supabase_admin" does not exist'));
      assert.equal(res.headers.get('www-authenticate'), 'Bearer');
    });

    test('J7: a validly signed role the login role is not granted is 403 42501', async () => {
      const res = await whoami({ bearer: await gw.token({ role: 'postgres' }) });
      assert.equal(res.status, 403);
      assert.deepEqual(res.json, pgError('42501', 'permission denied to set role "postgres"'));
    });

    // Stricter than PostgREST, which would switch to its own login role: the gateway never does (security.md J7).
    test('J7: the login role itself is never a request role', async () => {
      const res = await whoami({ bearer: await gw.token({ role: 'authenticator' }) });
      assert.ok([401, 403].includes(res.status), `status ${res.status}: ${res.text}`);
      assert.deepEqual(Object.keys(res.json).sort(), ['code', 'details', 'hint', 'message']);
    });
  });

  test('J12: the JWKS document publishes public EC members only', async () => {
    const res = await fetch(`${gw.url}/auth/v1/.well-known/jwks.json`);
    assert.equal(res.status, 200);
    const { keys } = await res.json();
    assert.ok(keys.length >= 1);
    for (const key of keys) {
      assert.equal(key.kty, 'EC');
      for (const member of Object.keys(key)) {
        assert.ok(['kty', 'kid', 'alg', 'use', 'crv', 'x', 'y', 'key_ops'].includes(member), member);
      }
    }
    assert.ok(keys.some((k) => k.kid === gw.kid));
  });

  describe('privileges and RLS (R9–R11, R18)', () => {
    test('a table without grants: 401 42501 for anon (with a Bearer challenge), 403 for a user', async () => {
      const anon = await gw.rest('/secrets?select=*');
      assert.equal(anon.status, 401);
      assert.deepEqual(anon.json, pgError('42501', 'permission denied for table secrets'));
      assert.equal(anon.headers.get('www-authenticate'), 'Bearer');
      const user = await gw.rest('/secrets?select=*', { bearer: await gw.token({ sub: USER_A }) });
      assert.equal(user.status, 403);
      assert.deepEqual(user.json, pgError('42501', 'permission denied for table secrets'));
    });

    test('R9: selecting, filtering or ordering on a column without privilege is refused (no oracle)', async () => {
      for (const path of ['/members?select=pin', '/members?select=id&pin=like.1*', '/members?select=id&order=pin']) {
        const res = await gw.rest(path);
        assert.equal(res.status, 401, path);
        assert.deepEqual(res.json, pgError('42501', 'permission denied for table members'), path);
      }
      const allowed = await gw.rest('/members?select=id,name&order=id');
      assert.deepEqual(allowed.json, [
        { id: 1, name: 'Ann' },
        { id: 2, name: 'Bob' },
        { id: 3, name: 'Cy' },
      ]);
    });

    test('owner-only rows: each user sees its own; asking for another user\'s row by key gives []', async () => {
      const a = await gw.rest('/todos?select=task&order=task', { bearer: await gw.token({ sub: USER_A }) });
      assert.deepEqual(a.json, [{ task: 'a1' }, { task: 'a2' }]);
      const b = await gw.rest('/todos?select=task&order=task', { bearer: await gw.token({ sub: USER_B }) });
      assert.deepEqual(b.json, [{ task: 'b1' }]);
      const idor = await gw.rest('/todos?select=task&task=eq.b1', { bearer: await gw.token({ sub: USER_A }) });
      assert.equal(idor.status, 200);
      assert.deepEqual(idor.json, []);
    });

    test('RLS hides rows even when asked for by key; service_role bypasses RLS', async () => {
      assert.deepEqual((await gw.rest('/books?select=id&id=eq.6')).json, []);
      const service = await gw.rest('/books?select=id&id=eq.6', { key: gw.serviceKey });
      assert.deepEqual(service.json, [{ id: 6 }]);
    });

    test('R11: count=exact counts only visible rows', async () => {
      const anon = await gw.rest('/books?select=id&limit=1', { headers: { prefer: 'count=exact' } });
      assert.equal(anon.headers.get('content-range'), '0-0/6');
      const service = await gw.rest('/books?select=id&limit=1', { key: gw.serviceKey, headers: { prefer: 'count=exact' } });
      assert.equal(service.headers.get('content-range'), '0-0/7');
    });

    test('R10: delete() or update() without a filter is refused as safeupdate does, and touches nothing', async () => {
      const client = gw.userClient(await gw.token({ sub: USER_A }));
      const del = await client.from('todos').delete();
      assert.equal(del.status, 400);
      assert.deepEqual(del.error, pgError('21000', 'DELETE requires a WHERE clause'));
      const upd = await client.from('todos').update({ done: true });
      assert.equal(upd.status, 400);
      assert.deepEqual(upd.error, pgError('21000', 'UPDATE requires a WHERE clause'));
      const mine = await client.from('todos').select('task, done').order('task');
      assert.deepEqual(mine.data, [
        { task: 'a1', done: false },
        { task: 'a2', done: true },
      ]);
    });

    test('R18: SQL runs as the token role, not as the login role', async () => {
      const res = await gw.rest('/rpc/whoami', { method: 'POST', body: {}, bearer: await gw.token({ sub: USER_A }) });
      assert.equal(res.json.role, 'authenticated');
      assert.notEqual(res.json.role, 'authenticator');
    });
  });

  test('D10: a long URL (an 8 KB in-list) is served normally', async () => {
    const list = Array.from({ length: 1600 }, (_, i) => i + 1).join(',');
    const res = await gw.rest(`/books?select=id&order=id&id=in.(${list})`);
    assert.ok(res.headers && list.length > 6000);
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }, { id: 5 }, { id: 7 }]);
  });

  describe('injection and schema switching (R12, R13)', () => {
    test('an injected table name is just an unknown table (404 PGRST205) and runs nothing', async () => {
      const res = await gw.rest('/books";drop table public.authors;--');
      assert.equal(res.status, 404);
      assert.deepEqual(
        res.json,
        pgError('PGRST205', `Could not find the table 'public.books";drop table public.authors;--' in the schema cache`),
      );
      assert.equal(gw.sql('select count(*) from public.authors'), '4');
    });

    test('subqueries in select and statements in order are parse errors (400 PGRST100)', async () => {
      for (const path of ['/books?select=id,(select pin from members)', '/books?select=id&order=id;drop table authors']) {
        const res = await gw.rest(path);
        assert.equal(res.status, 400, path);
        assert.equal(res.json.code, 'PGRST100', path);
        assert.equal(typeof res.json.details, 'string');
        assert.equal(res.json.hint, null);
      }
      assert.equal(gw.sql('select count(*) from public.authors'), '4');
    });

    test('quotes and SQL in values and in quoted identifiers stay data', async () => {
      const value = await gw.rest(`/books?select=id&title=eq.${encodeURIComponent("'; drop table authors; --")}`);
      assert.equal(value.status, 200);
      assert.deepEqual(value.json, []);
      const ident = await gw.rest(`/books?select=${encodeURIComponent('"id; drop table authors; --"')}`);
      assert.equal(ident.status, 400);
      assert.deepEqual(ident.json, pgError('42703', 'column books.id; drop table authors; -- does not exist'));
      assert.equal(gw.sql('select count(*) from public.authors'), '4');
    });

    test('R13: schemas that are not exposed cannot be reached by profile headers', async () => {
      const read = await gw.rest('/pg_authid?select=*', { headers: { 'accept-profile': 'pg_catalog' } });
      assert.equal(read.status, 406);
      assert.deepEqual(read.json, pgError('PGRST106', 'Invalid schema: pg_catalog', null, 'Only the following schemas are exposed: public, stock'));
      const write = await gw.rest('/signing_keys', {
        method: 'POST',
        headers: { 'content-profile': 'gateway' },
        body: { kid: 'x' },
      });
      assert.equal(write.status, 406);
      assert.deepEqual(write.json, pgError('PGRST106', 'Invalid schema: gateway', null, 'Only the following schemas are exposed: public, stock'));
    });

    test('an unsupported method is 405 PGRST117', async () => {
      const res = await gw.rest('/books', { method: 'PROPFIND' });
      assert.equal(res.status, 405);
      assert.deepEqual(res.json, pgError('PGRST117', 'Unsupported HTTP method: PROPFIND'));
    });
  });
});

describe('REST security with an audience (J9)', { skip }, () => {
  let gw;
  before(async () => {
    gw = await startRest({ env: { PGRST_JWT_AUD: 'authenticated' } });
  });
  after(async () => gw?.stop());

  test('a token for another audience is 401 PGRST303; the right audience and the anon key (no aud) pass', async () => {
    const other = await gw.token({ sub: USER_A, aud: 'someone-else' });
    const res = await gw.rest('/rpc/whoami', { method: 'POST', body: {}, bearer: other });
    assert.equal(res.status, 401);
    assert.deepEqual(res.json, pgError('PGRST303', 'JWT not in audience'));
    assert.equal(res.headers.get('www-authenticate'), 'Bearer error="invalid_token", error_description="JWT not in audience"');
    const right = await gw.rest('/rpc/whoami', { method: 'POST', body: {}, bearer: await gw.token({ sub: USER_A }) });
    assert.equal(right.status, 200);
    assert.equal(right.json.role, 'authenticated');
    const anon = await gw.rest('/rpc/whoami', { method: 'POST', body: {} });
    assert.equal(anon.status, 200);
    assert.equal(anon.json.role, 'anon');
  });
});
