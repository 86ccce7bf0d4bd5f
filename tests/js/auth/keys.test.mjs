// Signing-key rotation with the `gateway keys` CLI while a gateway runs: a standby key is published first, rotation
// signs new tokens with it, old tokens verify until their key is revoked, then fail everywhere.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRemoteJWKSet, jwtVerify, decodeProtectedHeader } from 'jose';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway } from '../lib/gateway.mjs';

let gw;
const mailDir = mkdtempSync(join(tmpdir(), 'gw-mail-'));
before(async () => {
  gw = await startGateway({
    env: { GOTRUE_MAILER_AUTOCONFIRM: 'true', GATEWAY_KEYS_REFRESH_SECS: '1', GATEWAY_MAIL_DIR: mailDir },
  });
});
after(async () => {
  await gw?.stop();
  rmSync(mailDir, { recursive: true, force: true });
});

function keys(...args) {
  return execFileSync(process.env.GATEWAY_BIN, ['keys', ...args], {
    env: { ...process.env, GATEWAY_ADMIN_DB_URI: `postgres://postgres@127.0.0.1:${process.env.TEST_PGPORT}/${gw.db}` },
    encoding: 'utf8',
  });
}

async function kids() {
  const doc = await (await fetch(`${gw.url}/auth/v1/.well-known/jwks.json`)).json();
  return doc.keys.map((k) => k.kid);
}

async function eventually(check) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail('condition not reached');
}

test('rotation keeps old tokens valid until their key is revoked', async () => {
  const email = `rot.${Date.now()}@example.com`;
  const first = await gw.client().auth.signUp({ email, password: 'secret-123' });
  const oldToken = first.data.session.access_token;
  const oldKid = decodeProtectedHeader(oldToken).kid;

  const generated = keys('generate', '--alg', 'RS256');
  const standby = generated.match(/standby key (\S+)/)[1];
  await eventually(async () => (await kids()).includes(standby));
  assert.match(keys('list'), new RegExp(`${standby}\\tRS256\\tstandby`));

  keys('rotate');
  let newToken;
  await eventually(async () => {
    const s = await gw.client().auth.signInWithPassword({ email, password: 'secret-123' });
    newToken = s.data.session?.access_token;
    return newToken && decodeProtectedHeader(newToken).kid === standby;
  });
  assert.equal(decodeProtectedHeader(newToken).alg, 'RS256');

  const jwks = createRemoteJWKSet(new URL(`${gw.url}/auth/v1/.well-known/jwks.json`));
  await jwtVerify(newToken, jwks);
  await jwtVerify(oldToken, jwks);
  assert.equal((await gw.client().auth.getUser(oldToken)).error, null, 'the previous key still verifies');

  keys('revoke', oldKid);
  await eventually(async () => !(await kids()).includes(oldKid));
  const rejected = await gw.client().auth.getUser(oldToken);
  assert.equal(rejected.error.code, 'bad_jwt');
  await assert.rejects(jwtVerify(oldToken, createRemoteJWKSet(new URL(`${gw.url}/auth/v1/.well-known/jwks.json`))));
  assert.equal((await gw.client().auth.getUser(newToken)).error, null);
});
