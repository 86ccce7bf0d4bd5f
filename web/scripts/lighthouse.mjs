// Lighthouse 13 (mobile preset, Debian Chromium) on the home page, an article, /our-work, /terms and a job page; prints the four
// category scores and the JavaScript transferred per page, and fails below the budgets (perf ≥ 95, a11y/bp/seo 100,
// JS ≤ 120 KB compressed).
//   node scripts/lighthouse.mjs [baseUrl] [jobPath]
// Without a base URL it starts the site like the e2e suites do (see e2e/lib/site.mjs).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(web, '.lighthouse');
mkdirSync(out, { recursive: true });
let [base, jobPath] = process.argv.slice(2);
let site = null;
if (!base) {
  // Under scripts/with-test-db.sh: the gateway with a seeded job; otherwise the static server (no job page: every
  // job path answers 404 without a database, and Lighthouse does not audit 404 pages).
  const { startSite } = await import('../e2e/lib/site.mjs');
  const { seedJobsSql, ACTIVE_JOB } = await import('../e2e/lib/seed.mjs');
  site = await startSite({ sql: seedJobsSql });
  base = site.url;
  if (site.mode === 'gateway') jobPath = `/jobs/${ACTIVE_JOB}`;
}

const pages = [
  ['home', '/'],
  ['article', '/insights/hybrid-working-property'],
  ['our-work', '/our-work'],
  ['terms', '/terms'],
  ...(jobPath ? [['job', jobPath]] : []),
];
if (!jobPath) console.log('job page skipped: no database (run under scripts/with-test-db.sh or pass a base URL and job path)');
const budgets = { performance: 0.95, accessibility: 1, 'best-practices': 1, seo: 1 };
const JS_BUDGET = 120 * 1024;
let failed = false;
const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

for (const [name, path] of pages) {
  const profile = mkdtempSync(join(tmpdir(), 'lh-'));
  const prefix = join(out, name);
  try {
    // Async: the static server may live in this process and must keep answering.
    await promisify(execFile)(
      join(web, 'node_modules/.bin/lighthouse'),
      [
        base + path,
        '--output=json',
        '--output=html',
        `--output-path=${prefix}`,
        '--quiet',
        `--chrome-flags=${[...flags, `--user-data-dir=${profile}`].join(' ')}`,
      ],
      { env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH || '/usr/bin/chromium' }, maxBuffer: 64 * 1024 * 1024 },
    );
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
  const report = JSON.parse(readFileSync(`${prefix}.report.json`, 'utf8'));
  const scores = Object.fromEntries(Object.entries(report.categories).map(([k, c]) => [k, c.score]));
  const js = (report.audits['network-requests']?.details?.items ?? [])
    .filter((r) => r.resourceType === 'Script')
    .reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
  const line = Object.keys(budgets)
    .map((k) => `${k} ${Math.round((scores[k] ?? 0) * 100)}`)
    .join(', ');
  const m = (id) => report.audits[id]?.displayValue ?? '';
  console.log(`${name.padEnd(8)} ${path}\n  ${line}; JS ${(js / 1024).toFixed(1)} KB; FCP ${m('first-contentful-paint')}, LCP ${m('largest-contentful-paint')}, TBT ${m('total-blocking-time')}, CLS ${m('cumulative-layout-shift')}`);
  for (const [k, min] of Object.entries(budgets)) {
    if ((scores[k] ?? 0) < min) {
      failed = true;
      const fails = Object.values(report.audits)
        .filter((a) => a.score !== null && a.score < 1 && report.categories[k].auditRefs.some((r) => r.id === a.id && r.weight > 0))
        .map((a) => a.id);
      console.log(`  below budget: ${k} (failing audits: ${fails.join(', ')})`);
    }
  }
  if (js > JS_BUDGET) {
    failed = true;
    console.log(`  below budget: JavaScript ${(js / 1024).toFixed(1)} KB > 120 KB`);
  }
}
await site?.stop();
console.log(failed ? 'lighthouse: budgets NOT met (reports in web/.lighthouse/)' : 'lighthouse: all budgets met (reports in web/.lighthouse/)');
process.exit(failed ? 1 : 0);
