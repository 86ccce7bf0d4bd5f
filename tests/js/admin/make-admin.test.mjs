// `make admin EMAIL=...` (scripts/make-admin.sh + sql/admin/grant-admin.sql) without the gateway's help: it creates a
// missing account with a generated password that then signs in through the gateway as an admin, grants the role to an
// existing account without touching its password, is idempotent, and refuses a bad e-mail.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGateway } from '../lib/gateway.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function makeAdmin(gw, email, env = {}) {
  return spawnSync(join(root, 'scripts', 'make-admin.sh'), [email], {
    cwd: root,
    env: { ...process.env, GATEWAY_ADMIN_DB_URI: `postgres://postgres@127.0.0.1:${process.env.TEST_PGPORT}/${gw.db}`, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function isAdmin(gw, email, password) {
  const client = gw.client();
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  assert.equal(error, null, `sign in: ${error?.message}`);
  const roles = await client.from('user_roles').select('role').eq('user_id', data.user.id).eq('role', 'admin');
  return roles.data?.length === 1;
}

describe('make admin', () => {
  let gw;
  before(async () => {
    gw = await startGateway();
  });
  after(async () => gw?.stop());

  test('creates a missing account with a generated password, as an admin that signs in', async () => {
    const run = makeAdmin(gw, 'First.Admin@Example.com');
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /created the account First\.Admin@Example\.com/);
    const password = run.stdout.match(/generated password: (\S+)/)[1];
    assert.ok(password.length >= 20);
    assert.equal(await isAdmin(gw, 'first.admin@example.com', password), true);
    assert.equal(gw.sql("select count(*) from public.audit_log where table_name = 'user_roles' and action = 'INSERT' and subject like 'first.admin@example.com%'"), '1', 'the grant is audited');
  });

  test('grants the role to an existing account and keeps its password; running it again changes nothing', async () => {
    const { error } = await gw.client().auth.signUp({ email: 'staff@example.com', password: 'staff-password-1' });
    assert.equal(error, null);
    gw.sql("update auth.users set email_confirmed_at = now() where email = 'staff@example.com'");
    assert.equal(await isAdmin(gw, 'staff@example.com', 'staff-password-1'), false);
    for (let i = 0; i < 2; i++) {
      const run = makeAdmin(gw, 'staff@example.com', { ADMIN_PASSWORD: 'ignored-for-existing' });
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /already had an account: its password is unchanged/);
    }
    assert.equal(await isAdmin(gw, 'staff@example.com', 'staff-password-1'), true);
    assert.equal(gw.sql("select count(*) from public.user_roles r join auth.users u on u.id = r.user_id where u.email = 'staff@example.com'"), '1');
  });

  test('uses ADMIN_PASSWORD for a new account and refuses a bad e-mail', async () => {
    const run = makeAdmin(gw, 'second.admin@example.com', { ADMIN_PASSWORD: 'chosen-password-2' });
    assert.equal(run.status, 0, run.stderr);
    assert.doesNotMatch(run.stdout, /generated password/);
    assert.equal(await isAdmin(gw, 'second.admin@example.com', 'chosen-password-2'), true);
    const bad = makeAdmin(gw, 'not-an-email');
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /not an e-mail address/);
  });
});
