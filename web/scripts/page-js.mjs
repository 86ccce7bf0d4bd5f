// The JavaScript each public page really loads in Debian Chromium (compressed bytes over the wire, cache off): on
// load, and after scrolling to the bottom so lazy sections load too; one line a page. For before/after comparisons
// of the public budget (≤ 120 KB): run under scripts/with-test-db.sh for the gateway (job page, data sections).
//   node scripts/page-js.mjs
import { launch } from '../e2e/lib/browser.mjs';
import { ACTIVE_JOB, seedFeaturedSql, seedJobsSql } from '../e2e/lib/seed.mjs';
import { publicRoutes } from '../e2e/lib/routes.mjs';
import { startSite } from '../e2e/lib/site.mjs';

const site = await startSite({ sql: seedJobsSql + seedFeaturedSql });
const paths = [...publicRoutes.map((r) => r.path), ...(site.mode === 'gateway' ? [`/jobs/${ACTIVE_JOB}`] : [])];
let worst = 0;
try {
  for (const path of paths) {
    const browser = await launch(); // a fresh profile per page: nothing cached
    const page = await browser.page({ width: 390, height: 844 });
    const scripts = new Map();
    page.on('response', async (res) => {
      if (res.request().resourceType() !== 'script') return;
      const sizes = await res.request().sizes().catch(() => null);
      scripts.set(new URL(res.url()).pathname, sizes ? sizes.responseBodySize + sizes.responseHeadersSize : 0);
    });
    await page.goto(site.url + path, { waitUntil: 'networkidle' });
    await page.waitForTimeout(300);
    const initial = [...scripts.values()].reduce((a, b) => a + b, 0);
    await page.evaluate(async () => {
      for (let y = 0; y < document.documentElement.scrollHeight; y += 400) {
        window.scrollTo(0, y);
        await new Promise((r) => setTimeout(r, 40));
      }
    });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);
    const total = [...scripts.values()].reduce((a, b) => a + b, 0);
    worst = Math.max(worst, initial);
    const kb = (n) => `${(n / 1024).toFixed(1).padStart(6)} KB`;
    console.log(`${path.padEnd(44)} on load ${kb(initial)}; after scrolling ${kb(total)} in ${scripts.size} files`);
    await browser.close();
  }
} finally {
  await site.stop();
}
console.log(`largest public page on load: ${(worst / 1024).toFixed(1)} KB (budget 120 KB)`);
