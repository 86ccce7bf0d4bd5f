// Identities for the policies suite: loads the shared SQL fixtures (sql/tests/lib/setup.sql: users admin, cand1,
// cand2; jobs, featured jobs, profiles, views, CVs) and mints access tokens the gateway accepts, signed with the
// database's current ES256 key (gateway.signing_keys, PKCS#8 DER) and its kid — as Supabase Auth would issue them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importPKCS8, SignJWT } from 'jose';

/** The SQL fixtures shared with the pgTAP suite. */
export const fixturesSql = readFileSync(fileURLToPath(new URL('../../../sql/tests/lib/setup.sql', import.meta.url)), 'utf8');

/** The demo seed's users (admin@example.com is an admin), to prove password sign-in against the seed's format. */
export const demoUsersSql = readFileSync(fileURLToPath(new URL('../../../sql/seed/01_demo_users.sql', import.meta.url)), 'utf8');

/** Wraps DER bytes (base64) as a PEM block. */
function pem(label, base64) {
  const lines = base64.replace(/\s+/g, '').match(/.{1,64}/g).join('\n');
  return `-----BEGIN ${label}-----\n${lines}\n-----END ${label}-----\n`;
}

/** The current signing key of the gateway's database, ready for jose. */
export async function currentSigningKey(gw) {
  const row = gw.sql(
    "select kid || '|' || encode(private_key_der, 'base64') from gateway.signing_keys where status = 'current' and algorithm = 'ES256'",
  );
  const [kid, der] = row.split('|');
  if (!kid || !der) throw new Error('no current ES256 key in gateway.signing_keys');
  return { kid, key: await importPKCS8(pem('PRIVATE KEY', der), 'ES256') };
}

/** A fixture user's id (tests.uid(name) in SQL). */
export function userId(gw, name) {
  return gw.sql(`select tests.uid('${name.replaceAll("'", "''")}')`);
}

/** An access token for a fixture user, shaped like Supabase Auth's (role authenticated, aud, sub, email, exp). */
export async function accessToken(gw, signingKey, name) {
  const sub = userId(gw, name);
  return new SignJWT({
    sub,
    role: 'authenticated',
    aud: 'authenticated',
    email: `${name}@pgtap.test`,
    aal: 'aal1',
    is_anonymous: false,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: {},
  })
    .setProtectedHeader({ alg: 'ES256', kid: signingKey.kid, typ: 'JWT' })
    .setIssuer(`${gw.url}/auth/v1`)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(signingKey.key);
}

/** A supabase-js client acting as a fixture user (the anon apikey plus the user's bearer token). */
export async function clientAs(gw, signingKey, name) {
  const token = await accessToken(gw, signingKey, name);
  return gw.client(gw.anonKey, { accessToken: async () => token });
}
