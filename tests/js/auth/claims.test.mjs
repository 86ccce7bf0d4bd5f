// getClaims() with each key type Supabase Auth accepts in GOTRUE_JWT_KEYS, as on Supabase: HS256 (`kty: oct`) tokens
// are checked by asking the server (GET /user, the symmetric key is never published), RS256 and ES256 tokens are
// verified locally from the JWKS without calling /user. Also a project's legacy secret kept beside a new key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, base64url, decodeProtectedHeader } from 'jose';
import { startGateway } from '../lib/gateway.mjs';

/** A private JWK for GOTRUE_JWT_KEYS and the key jose signs with. */
async function privateJwk(alg, keyOps = ['sign', 'verify']) {
  const kid = randomUUID();
  if (alg === 'HS256') {
    const secret = randomBytes(32);
    return { jwk: { kty: 'oct', k: base64url.encode(secret), kid, alg, key_ops: keyOps }, signer: secret };
  }
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  return { jwk: { ...(await exportJWK(privateKey)), kid, alg, key_ops: keyOps }, signer: privateKey };
}

/** The anon API key, signed by the set's signing key (the gateway's own `keys` command reads the database). */
function apiKey({ jwk, signer }) {
  return new SignJWT({ role: 'anon', iss: 'supabase' })
    .setProtectedHeader({ alg: jwk.alg, kid: jwk.kid, typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(signer);
}

/** A supabase-js client whose requests are recorded. */
function recordingClient(gw, key) {
  const paths = [];
  const fetchSpy = (input, init) => {
    paths.push(new URL(typeof input === 'string' ? input : input.url).pathname);
    return fetch(input, init);
  };
  return { client: gw.client(key, { global: { fetch: fetchSpy } }), paths };
}

async function withKeys(keys, signing, check) {
  const gw = await startGateway({
    env: { GOTRUE_JWT_KEYS: JSON.stringify(keys.map((k) => k.jwk)), GOTRUE_MAILER_AUTOCONFIRM: 'true' },
  });
  try {
    const { client, paths } = recordingClient(gw, await apiKey(signing));
    const email = `claims.${randomUUID()}@example.com`;
    const { data, error } = await client.auth.signUp({ email, password: 'secret-123' });
    assert.equal(error, null);
    assert.equal(decodeProtectedHeader(data.session.access_token).kid, signing.jwk.kid);
    paths.length = 0;
    const claims = await client.auth.getClaims();
    assert.equal(claims.error, null);
    assert.equal(claims.data.claims.email, email);
    const jwks = await (await fetch(`${gw.url}/auth/v1/.well-known/jwks.json`)).json();
    await check({ paths, claims: claims.data, jwks, gw });
  } finally {
    await gw.stop();
  }
}

test('HS256 (oct) signing key: getClaims asks /user and the JWKS publishes nothing', async () => {
  const oct = await privateJwk('HS256');
  await withKeys([oct], oct, ({ paths, claims, jwks }) => {
    assert.equal(claims.header.alg, 'HS256');
    assert.deepEqual(paths, ['/auth/v1/user']);
    assert.deepEqual(jwks.keys, []);
  });
});

for (const alg of ['RS256', 'ES256']) {
  test(`${alg} signing key beside the legacy secret: getClaims verifies from the JWKS, without /user`, async () => {
    const signing = await privateJwk(alg);
    const legacy = await privateJwk('HS256', ['verify']);
    await withKeys([legacy, signing], signing, ({ paths, claims, jwks }) => {
      assert.equal(claims.header.alg, alg);
      assert.ok(!paths.includes('/auth/v1/user'), paths.join(','));
      assert.ok(paths.includes('/auth/v1/.well-known/jwks.json'), paths.join(','));
      assert.deepEqual(jwks.keys.map((k) => k.kid), [signing.jwk.kid], 'the symmetric key is never published');
      assert.ok(!JSON.stringify(jwks).includes(legacy.jwk.k));
    });
  });
}

test('a key set without a signing key is refused at start, as Supabase Auth refuses it', async () => {
  const verifyOnly = await privateJwk('ES256', ['verify']);
  await assert.rejects(
    startGateway({ env: { GOTRUE_JWT_KEYS: JSON.stringify([verifyOnly.jwk]) } }),
    /no signing key detected/,
  );
});
