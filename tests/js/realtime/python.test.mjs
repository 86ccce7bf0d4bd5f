// The official Python client (PyPI `realtime`, installed by scripts/install-test-deps.sh), which speaks vsn 1.0.0
// and validates every message strictly: broadcast with self and ack, presence sync, postgres_changes with a
// filter, a private channel and a refused one. tests/python/realtime_client.py runs the scenarios.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TABLES, startRealtime, userToken } from './support.mjs';

const POLICIES = `
  create policy "members read" on realtime.messages for select to authenticated
    using (realtime.topic() like 'member:%');
  create policy "members write" on realtime.messages for insert to authenticated
    with check (realtime.topic() like 'member:%');
`;

let gw;
before(async () => {
  gw = await startRealtime({ sql: TABLES + POLICIES });
});
after(async () => gw?.stop());

test('supabase-py realtime client: broadcast, presence, postgres_changes, private channels', async () => {
  const script = fileURLToPath(new URL('../../python/realtime_client.py', import.meta.url));
  const dbUrl = `postgres://postgres@127.0.0.1:${process.env.TEST_PGPORT}/${gw.db}`;
  const out = execFileSync('python3', [script, gw.url, gw.anonKey, await userToken(gw), dbUrl], {
    encoding: 'utf8',
    timeout: 120000,
  });
  const results = out.trim().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  assert.deepEqual(results.map((r) => r.name), ['broadcast_self_ack', 'presence_sync', 'postgres_changes', 'private_channel']);
  for (const r of results) assert.ok(r.ok, `${r.name}: ${JSON.stringify(r.detail)}`);
});
