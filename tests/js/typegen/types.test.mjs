// Generated types against the real supabase-js: `gateway types typescript` on the fixture schema, then TypeScript
// checks a file of queries (queries.ts) against them — every query must type-check and every `@ts-expect-error`
// must be an error; the same file without the directives must fail on exactly those lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { psql } from '../lib/gateway.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const require = createRequire(import.meta.url);
const ts = require('typescript');

/** Runs `gateway types typescript` on a new database holding the fixture schema. */
function generate(schemas) {
  const db = `t_${randomUUID().replaceAll('-', '')}`;
  psql('postgres', `create database "${db}"`);
  execFileSync('psql', ['-qX', '-v', 'ON_ERROR_STOP=1', `postgres://postgres@127.0.0.1:${process.env.TEST_PGPORT}/${db}`,
    '-f', join(root, 'gateway/tests/fixtures/typegen.sql')]);
  return execFileSync(process.env.GATEWAY_BIN, ['types', 'typescript', '--schema', schemas], {
    env: { ...process.env, GATEWAY_ADMIN_DB_URI: `postgres://postgres@127.0.0.1:${process.env.TEST_PGPORT}/${db}`, RUST_LOG: 'error' },
    encoding: 'utf8',
  });
}

/** Type-checks `queries` beside `types` in a scratch folder that resolves supabase-js from tests/node_modules. */
function check(types, queries) {
  const dir = mkdtempSync(join(here, '.tsc-'));
  try {
    writeFileSync(join(dir, 'database.types.ts'), types);
    writeFileSync(join(dir, 'queries.ts'), queries);
    const program = ts.createProgram([join(dir, 'queries.ts')], {
      strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler, skipLibCheck: true, types: [],
    });
    return ts.getPreEmitDiagnostics(program).map((d) => ({
      line: d.file ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
      text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const queries = readFileSync(join(here, 'queries.ts'), 'utf8');

test('queries type-check against the generated types, and every @ts-expect-error is an error', () => {
  const types = generate('public,other');
  assert.match(types, /^export type Database = \{$/m);
  const problems = check(types, queries);
  assert.deepEqual(problems, [], problems.map((p) => `line ${p.line}: ${p.text}`).join('\n'));
});

test('without the directives, exactly the marked lines fail', () => {
  const types = generate('public');
  const lines = queries.split('\n');
  const expected = lines.flatMap((l, i) => (l.trimStart().startsWith('// @ts-expect-error') ? [i + 1] : []));
  assert.ok(expected.length >= 9);
  const bare = lines.map((l) => (l.trimStart().startsWith('// @ts-expect-error') ? '' : l)).join('\n');
  const problems = check(types, bare);
  const failing = [...new Set(problems.map((p) => p.line - 1))].sort((a, b) => a - b);
  assert.deepEqual(failing, expected, problems.map((p) => `line ${p.line}: ${p.text}`).join('\n'));
});
