// The JavaScript each public page really loads (e2e/lib/page-js.mjs), one line a page, for before/after comparisons
// of the public budget (≤ 120 KB on load; e2e/js-budget.test.mjs holds every page to it). Run under
// scripts/with-test-db.sh for the gateway (job page, data sections):
//   node scripts/page-js.mjs
import { ACTIVE_JOB, seedFeaturedSql, seedJobsSql } from '../e2e/lib/seed.mjs';
import { PUBLIC_JS_BUDGET, pageJs } from '../e2e/lib/page-js.mjs';
import { publicRoutes } from '../e2e/lib/routes.mjs';
import { startSite } from '../e2e/lib/site.mjs';

const site = await startSite({ sql: seedJobsSql + seedFeaturedSql });
const paths = [...publicRoutes.map((r) => r.path), ...(site.mode === 'gateway' ? [`/jobs/${ACTIVE_JOB}`] : [])];
const kb = (n) => `${(n / 1024).toFixed(1).padStart(6)} KB`;
let worst = 0;
try {
  for (const path of paths) {
    const { initial, total, files } = await pageJs(site.url + path);
    worst = Math.max(worst, initial);
    console.log(`${path.padEnd(44)} on load ${kb(initial)}; after scrolling ${kb(total)} in ${files.length} files`);
  }
} finally {
  await site.stop();
}
console.log(`largest public page on load: ${kb(worst).trim()} (budget ${PUBLIC_JS_BUDGET / 1024} KB)`);
