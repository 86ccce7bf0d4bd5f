// Full-page screenshots of the home page at 1440 and 390 px into docs/ (run under scripts/with-test-db.sh for real
// featured jobs and vacancies from a seeded database; otherwise the no-database fallbacks show).
import { join } from 'node:path';
import { launch } from '../e2e/lib/browser.mjs';
import { seedJobsSql, seedFeaturedSql } from '../e2e/lib/seed.mjs';
import { repoDir, startSite } from '../e2e/lib/site.mjs';

const site = await startSite({ sql: seedJobsSql + seedFeaturedSql });
const browser = await launch();
try {
  for (const [name, viewport] of [
    ['home-1440.png', { width: 1440, height: 900 }],
    ['home-390.png', { width: 390, height: 844 }],
  ]) {
    const page = await browser.page(viewport);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(site.url + '/', { waitUntil: 'networkidle' });
    await page.evaluate(async () => {
      for (let y = 0; y < document.documentElement.scrollHeight; y += 400) {
        window.scrollTo(0, y);
        await new Promise((r) => setTimeout(r, 60));
      }
      window.scrollTo(0, 0);
    });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(repoDir, 'docs', name), fullPage: true });
    console.log(`docs/${name}${page.errors.length ? ` (console: ${page.errors.join('; ')})` : ''}`);
    await page.close();
  }
} finally {
  await browser.close();
  await site.stop();
}
