// tests/conformance/verdict.mjs: how a runner's jest results are judged against known-failures.txt (no servers).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseKnown, testsOf, verdict } from '../conformance/verdict.mjs';
import { repoDir } from './lib/stack.mjs';

const known = parseKnown(`
# comment
[demo]
baseline: 2 passed
- a.test.ts › api › refuses mislabelled files
    Deliberate: the bytes are checked
    against the declared type.
`).get('demo');

const jest = (results) => ({
  testResults: [{ name: '/x/a.test.ts', status: 'passed', assertionResults: results.map(([title, status]) => ({ ancestorTitles: ['api'], title, status, failureMessages: status === 'failed' ? ['Error: boom\n at x'] : [] })) }],
});

test('the list is read with its reasons and baseline', () => {
  assert.equal(known.baseline, 2);
  assert.equal(known.tests.get('a.test.ts › api › refuses mislabelled files'), 'Deliberate: the bytes are checked against the declared type.');
  assert.throws(() => parseKnown('[x]\n- a test without a reason\n'), /needs its reason/);
});

test('a listed failure does not fail the run; a new one does', () => {
  const ok = verdict(known, testsOf(jest([['one', 'passed'], ['two', 'passed'], ['refuses mislabelled files', 'failed']])));
  assert.ok(ok.ok);
  assert.ok(ok.lines.includes('2 passed, 1 failed (1 known, listed in tests/conformance/known-failures.txt)'));
  assert.ok(ok.lines.includes('SUITE-COUNTS passed=2 failed=0'));
  const bad = verdict(known, testsOf(jest([['one', 'passed'], ['two', 'passed'], ['three', 'failed']])));
  assert.equal(bad.ok, false);
  assert.ok(bad.lines.some((l) => l.startsWith('  NEW FAILURE: a.test.ts › api › three: Error: boom')));
  assert.ok(bad.lines.includes('SUITE-COUNTS passed=2 failed=1'));
});

test('fewer passes than the baseline fail; a listed failure that passes is reported', () => {
  const short = verdict(known, testsOf(jest([['one', 'passed'], ['two', 'pending']])));
  assert.equal(short.ok, false);
  assert.ok(short.lines.some((l) => l.includes('REGRESSION: 1 passed, fewer than the baseline of 2')));
  const fixed = verdict(known, testsOf(jest([['one', 'passed'], ['refuses mislabelled files', 'passed']])));
  assert.ok(fixed.ok);
  assert.ok(fixed.lines.some((l) => l.startsWith('  NOW PASSES')));
});

test('a file that did not run counts as a failure', () => {
  const crashed = { testResults: [{ name: '/x/b.test.ts', status: 'failed', message: 'TS2304: Cannot find name', assertionResults: [] }] };
  const v = verdict(known, testsOf(crashed));
  assert.equal(v.ok, false);
  assert.ok(v.lines.some((l) => l.includes('b.test.ts (suite error): TS2304')));
});

test('the committed list parses, every runner has a baseline', () => {
  const runners = parseKnown(readFileSync(join(repoDir, 'tests', 'conformance', 'known-failures.txt'), 'utf8'));
  assert.deepEqual([...runners.keys()].sort(), ['auth-js', 'postgrest-js', 'storage-js']);
  for (const [, r] of runners) assert.ok(r.baseline > 0);
  assert.equal(runners.get('storage-js').tests.size, 0, 'storage-js: no known difference (upload rules follow upstream by default)');
});
