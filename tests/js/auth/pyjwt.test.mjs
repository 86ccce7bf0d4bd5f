// Any JWT library verifies our access tokens from the JWKS URL alone: PyJWT (Python) with its PyJWKClient.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startGateway } from '../lib/gateway.mjs';

const VERIFY = `
import sys, jwt
url, token = sys.argv[1], sys.argv[2]
key = jwt.PyJWKClient(url).get_signing_key_from_jwt(token)
claims = jwt.decode(token, key, algorithms=["ES256", "RS256"], audience="authenticated")
print(claims["sub"], claims["role"], claims["email"])
`;

function pyjwtVerify(url, token) {
  try {
    return { ok: true, out: execFileSync('python3', ['-c', VERIFY, url, token], { encoding: 'utf8', stdio: 'pipe' }).trim() };
  } catch (e) {
    return { ok: false, out: String(e.stderr) };
  }
}

let gw;
before(async () => {
  gw = await startGateway({ env: { GOTRUE_MAILER_AUTOCONFIRM: 'true' } });
});
after(async () => gw?.stop());

test('PyJWT verifies a session token from the JWKS URL and refuses a tampered one', async () => {
  const supabase = gw.client();
  const email = `py-${Date.now()}@example.com`;
  const { data, error } = await supabase.auth.signUp({ email, password: 'secret-123' });
  assert.equal(error, null);
  const token = data.session.access_token;
  const jwksUrl = `${gw.url}/auth/v1/.well-known/jwks.json`;

  const good = pyjwtVerify(jwksUrl, token);
  assert.equal(good.ok, true, good.out);
  assert.equal(good.out, `${data.user.id} authenticated ${email}`);

  const [h, p, s] = token.split('.');
  const claims = JSON.parse(Buffer.from(p, 'base64url'));
  const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, role: 'service_role' })).toString('base64url')}.${s}`;
  const bad = pyjwtVerify(jwksUrl, forged);
  assert.equal(bad.ok, false);
  assert.match(bad.out, /InvalidSignatureError|Signature verification failed/);
});
