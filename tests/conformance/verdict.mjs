// Judges an upstream suite's jest results against tests/conformance/known-failures.txt and prints the counts CI shows.
//   node verdict.mjs KNOWN-FAILURES-FILE RUNNER RESULTS.json...
// Prints `file: N passed, N failed` per test file, each failure (known, with its reason, or NEW), a closing
// `N passed, N failed[, N skipped]` line and `SUITE-COUNTS passed=N failed=M` for scripts/test-all.sh, where M counts
// only what is not listed: new failures, and one more if fewer tests passed than the runner's baseline (tests that
// vanished or stopped running). A listed failure that now passes is reported, not failed: remove it from the list.
// Exit status 0 when M is 0.
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

/** The known-failures file: `[runner]` sections with `baseline: N passed` and `- test name` + indented reason lines. */
export function parseKnown(text) {
  const runners = new Map();
  let current = null;
  let last = null;
  for (const raw of text.split('\n')) {
    if (/^\s*(#|$)/.test(raw)) continue;
    const section = raw.match(/^\[(.+)\]\s*$/);
    if (section) {
      current = { baseline: null, tests: new Map() };
      runners.set(section[1], current);
      last = null;
      continue;
    }
    if (!current) throw new Error(`line outside a [runner] section: ${raw}`);
    const baseline = raw.match(/^baseline:\s*(\d+) passed\s*$/);
    const test = raw.match(/^- (.+?)\s*$/);
    if (baseline) current.baseline = Number(baseline[1]);
    else if (test) current.tests.set((last = test[1]), '');
    else if (/^\s+\S/.test(raw) && last) current.tests.set(last, `${current.tests.get(last)} ${raw.trim()}`.trim());
    else throw new Error(`cannot read line: ${raw}`);
  }
  for (const [name, r] of runners) {
    for (const [test, why] of r.tests) if (!why) throw new Error(`[${name}] ${test}: a known failure needs its reason`);
  }
  return runners;
}

/** One line per jest test: { name: 'file › describe › title', status: 'passed' | 'failed' | 'pending' | ... }. */
export function testsOf(results) {
  const out = [];
  for (const file of [...results.testResults].sort((a, b) => a.name.localeCompare(b.name))) {
    const f = basename(file.name);
    const tests = file.assertionResults.map((a) => ({
      file: f,
      name: [f, ...a.ancestorTitles, a.title].join(' › '),
      status: a.status,
      message: String(a.failureMessages?.[0] ?? '').split('\n').find((l) => l.trim()) ?? '',
    }));
    if (tests.length === 0 && file.status === 'failed') {
      // The file did not run at all (compile error, crash): one failure in its name.
      const message = String(file.message ?? '').split('\n').find((l) => l.trim()) ?? 'unknown';
      tests.push({ file: f, name: `${f} (suite error)`, status: 'failed', message });
    }
    out.push(...tests);
  }
  return out;
}

export function verdict(known, tests) {
  const lines = [];
  const count = (list, status) => list.filter((t) => t.status === status).length;
  for (const file of [...new Set(tests.map((t) => t.file))]) {
    const own = tests.filter((t) => t.file === file);
    lines.push(`${file}: ${count(own, 'passed')} passed, ${count(own, 'failed')} failed`);
  }
  const listed = known?.tests ?? new Map();
  const failed = tests.filter((t) => t.status === 'failed');
  const fresh = failed.filter((t) => !listed.has(t.name));
  for (const t of failed) {
    lines.push(listed.has(t.name) ? `  known: ${t.name} (${listed.get(t.name)})` : `  NEW FAILURE: ${t.name}: ${t.message}`);
  }
  for (const t of tests.filter((t) => t.status === 'passed' && listed.has(t.name))) {
    lines.push(`  NOW PASSES (remove it from tests/conformance/known-failures.txt): ${t.name}`);
  }
  const seen = new Set(tests.map((t) => t.name));
  for (const name of listed.keys()) if (!seen.has(name)) lines.push(`  listed but not run: ${name}`);
  const passed = count(tests, 'passed');
  const skipped = tests.length - passed - failed.length;
  const short = known?.baseline != null && passed < known.baseline;
  if (short) lines.push(`  REGRESSION: ${passed} passed, fewer than the baseline of ${known.baseline}`);
  const knownCount = failed.length - fresh.length;
  lines.push(
    `${passed} passed, ${failed.length} failed${skipped ? `, ${skipped} skipped` : ''}` +
      (knownCount ? ` (${knownCount} known, listed in tests/conformance/known-failures.txt)` : ''),
  );
  const unexpected = fresh.length + (short ? 1 : 0);
  lines.push(`SUITE-COUNTS passed=${passed} failed=${unexpected}`);
  return { lines, ok: unexpected === 0 };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [knownFile, runner, ...files] = process.argv.slice(2);
  const known = parseKnown(readFileSync(knownFile, 'utf8')).get(runner);
  // A partial run (a file filter) is not held to the whole suite's baseline.
  if (known && process.env.CONFORMANCE_PARTIAL) known.baseline = null;
  const tests = [];
  for (const f of files) {
    if (existsSync(f)) tests.push(...testsOf(JSON.parse(readFileSync(f, 'utf8'))));
    else tests.push({ file: basename(f), name: `${basename(f)} (no results)`, status: 'failed', message: 'jest wrote no results' });
  }
  const { lines, ok } = verdict(known, tests);
  console.log(lines.join('\n'));
  process.exitCode = ok ? 0 : 1;
}
