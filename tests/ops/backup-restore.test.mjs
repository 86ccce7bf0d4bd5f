// `make backup` / `make restore`: a running make-run-like stack (private cluster with pg_cron, migrated database,
// storage folder) gets a row, an object and a signed-up user; the live backup is restored into a fresh folder after
// the original is deleted; a gateway on the restored stack serves the same row and object bytes, the same JWKS, the
// old API keys and the old session token, the user's password, and the nightly retention job.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { freshDir, make, migrate, startCluster, startGateway, stopCluster } from './lib/stack.mjs';

const client = (gw, key) =>
  createClient(gw.url, key, { auth: { persistSession: false, autoRefreshToken: false }, realtime: { transport: WebSocket } });
const jwks = async (gw) => (await fetch(`${gw.url}/auth/v1/.well-known/jwks.json`)).json();

const cleanups = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

test('a backup restores into a fresh folder and serves the same data', async () => {
  const original = freshDir('ops-backup-a');
  const restored = freshDir('ops-backup-b');
  const archives = freshDir('ops-backup-files');
  cleanups.push(() => rmSync(archives, { recursive: true, force: true }));
  for (const dir of [original, restored]) {
    cleanups.push(() => (stopCluster(dir), rmSync(dir, { recursive: true, force: true })));
  }

  // The original stack, serving, with data in every part.
  const a = startCluster(original);
  migrate(a);
  const gwA = await startGateway(a, original, { GOTRUE_MAILER_AUTOCONFIRM: 'true' });
  cleanups.push(() => gwA.stop());
  const adminA = client(gwA, gwA.serviceKey);
  const job = { job_id: 'BK-1', status: 'active', title: 'Backed-up role', company: 'Acme', location: 'York', employment_type: 'permanent' };
  assert.equal((await adminA.from('jobs').insert(job)).error, null);
  const bytes = randomBytes(300 * 1024);
  assert.equal((await adminA.storage.createBucket('backup-test', { public: false })).error, null);
  assert.equal((await adminA.storage.from('backup-test').upload('folder/file.bin', bytes, { contentType: 'application/octet-stream' })).error, null);
  const signUp = await client(gwA, gwA.anonKey).auth.signUp({ email: 'kept@example.com', password: 'correct horse 1' });
  assert.equal(signUp.error, null);
  const oldToken = signUp.data.session.access_token;
  const keysA = await jwks(gwA);

  // A live backup, then the original is gone.
  const archive = join(archives, 'stack.tar.gz');
  const backup = make('backup', { DATA_DIR: original, BACKUP: archive });
  assert.equal(backup.status, 0, backup.output);
  assert.match(backup.output, /backup written to .*stack\.tar\.gz .*1 storage files/);
  await gwA.stop();
  stopCluster(original);
  rmSync(original, { recursive: true, force: true });

  // Restore into a fresh folder; a second restore into it is refused.
  const restore = make('restore', { DATA_DIR: restored, BACKUP: archive });
  assert.equal(restore.status, 0, restore.output);
  assert.match(restore.output, /restored into .*: 1 users, 1 objects, 1 signing keys/);
  const again = make('restore', { DATA_DIR: restored, BACKUP: archive });
  assert.notEqual(again.status, 0);
  assert.match(again.output, /already holds a stack/);

  // Served as make run serves it: the cluster restarts, migrate finds nothing to do, the gateway starts.
  const b = startCluster(restored);
  assert.match(migrate(b), /migrations: 0 applied/);
  const gwB = await startGateway(b, restored);
  cleanups.push(() => gwB.stop());
  assert.deepEqual(await jwks(gwB), keysA, 'the same signing keys');
  const adminB = client(gwB, gwA.serviceKey); // the old service_role key, signed before the backup
  const row = await adminB.from('jobs').select('title, company').eq('job_id', 'BK-1').single();
  assert.deepEqual(row.data, { title: 'Backed-up role', company: 'Acme' });
  const file = await adminB.storage.from('backup-test').download('folder/file.bin');
  assert.equal(file.error, null);
  assert.ok(Buffer.from(await file.data.arrayBuffer()).equals(bytes), 'the same object bytes');
  const user = await client(gwB, gwB.anonKey).auth.getUser(oldToken);
  assert.equal(user.data.user?.email, 'kept@example.com', 'a session token issued before the backup still works');
  const signIn = await client(gwB, gwB.anonKey).auth.signInWithPassword({ email: 'kept@example.com', password: 'correct horse 1' });
  assert.equal(signIn.error, null);
  assert.equal(b.sql("select schedule || ' ' || command from cron.job where jobname = 'privacy-retention'"),
    '17 3 * * * select private.run_retention()', 'the nightly retention job is scheduled');
});
