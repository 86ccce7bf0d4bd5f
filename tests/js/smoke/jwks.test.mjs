// The gateway starts from the harness and supabase-js can reach it.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startGateway } from '../lib/gateway.mjs';

let gw;
before(async () => {
  gw = await startGateway();
});
after(async () => gw?.stop());

test('the JWKS document lists an ES256 verification key', async () => {
  const res = await fetch(`${gw.url}/auth/v1/.well-known/jwks.json`);
  assert.equal(res.status, 200);
  const { keys } = await res.json();
  assert.equal(keys[0].alg, 'ES256');
  assert.deepEqual(keys[0].key_ops, ['verify']);
});
