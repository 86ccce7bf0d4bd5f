// Full-page screenshots at 1440 and 390 px into docs/: `node scripts/screenshots.mjs [path ...]` (default: the home
// page), named after the path (/ → home-1440.png, /our-work → our-work-390.png). Run under scripts/with-test-db.sh
// for real featured jobs and vacancies from a seeded database; otherwise the no-database fallbacks show.
import { join } from 'node:path';
import { launch } from '../e2e/lib/browser.mjs';
import { seedJobsSql, seedFeaturedSql } from '../e2e/lib/seed.mjs';
import { repoDir, startSite } from '../e2e/lib/site.mjs';

const paths = process.argv.slice(2).length ? process.argv.slice(2) : ['/'];
const nameOf = (path) => (path === '/' ? 'home' : path.slice(1).replaceAll('/', '-'));

const site = await startSite({ sql: seedJobsSql + seedFeaturedSql });
const browser = await launch();
try {
  for (const path of paths) {
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ]) {
      const name = `${nameOf(path)}-${width}.png`;
      const page = await browser.page({ width, height });
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.goto(site.url + path, { waitUntil: 'networkidle' });
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
  }
} finally {
  await browser.close();
  await site.stop();
}
