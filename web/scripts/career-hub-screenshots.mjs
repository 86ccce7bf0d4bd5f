// Screenshots of the Career Hub dashboard and CV builder (with the demo candidate's CV) at 1440 and 390 px into
// docs/, the builder's first step for a new CV (the name placeholder), the dashboard with a second page of CVs, and
// the demo CV's PDF as pdftotext reads it (docs/career-hub-demo-cv.txt). Run under scripts/with-test-db.sh: the
// gateway with make run's demo content.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from '../e2e/lib/browser.mjs';
import { download, pdfText, startCareerHubSite } from '../e2e/lib/career-hub.mjs';
import { repoDir } from '../e2e/lib/site.mjs';

const site = await startCareerHubSite();
const browser = await launch({ acceptDownloads: true });
const files = mkdtempSync(join(tmpdir(), 'career-hub-shots-'));
const cvId = site.sql(`select md5('demo-cv-1')::uuid`);
try {
  const page = await browser.page({ width: 1440, height: 900 });
  await page.goto(`${site.url}/career-hub/login`, { waitUntil: 'networkidle' });
  await page.getByLabel('Email', { exact: true }).fill('candidate@example.com');
  await page.getByLabel('Password', { exact: true }).fill('demo-candidate-2025');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.waitForURL(/dashboard/);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
    await page.goto(`${site.url}/career-hub/dashboard`, { waitUntil: 'networkidle' });
    await page.getByTestId('my-cvs').waitFor();
    await page.screenshot({ path: join(repoDir, 'docs', `career-hub-dashboard-${width}.png`), fullPage: true });
    await page.goto(`${site.url}/career-hub/cv-builder?id=${cvId}`, { waitUntil: 'networkidle' });
    await page.getByTestId('cv-preview').getByText('Harbourline Real Estate').waitFor();
    for (let i = 0; i < 5 && !(await page.getByText('Step 3 of 5').isVisible()); i++) {
      const later = /Step [45] of 5/.test(await page.locator('.wizard-progress').innerText());
      await page.getByRole('button', { name: later ? 'Back' : 'Next' }).click(); // show the experience step
    }
    await page.locator('[data-testid="save-status"][data-status="saved"]').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(repoDir, 'docs', `career-hub-builder-${width}.png`), fullPage: true });
    console.log(`docs/career-hub-dashboard-${width}.png, docs/career-hub-builder-${width}.png`);
  }
  const pdf = await download(page, () => page.getByRole('button', { name: 'Download PDF' }).click(), files);
  writeFileSync(join(repoDir, 'docs', 'career-hub-demo-cv.txt'), pdfText(pdf));
  console.log('docs/career-hub-demo-cv.txt');
  // The builder's first step for a new CV; then twelve CVs: the list shows ten and a pager.
  site.sql(`insert into public.cv_documents (user_id, title, updated_at)
            select '5eed0000-0000-4000-8000-000000000002', 'Draft ' || i, now() - make_interval(days => i) from generate_series(1, 11) i`);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
    await page.goto(`${site.url}/career-hub/cv-builder?template=executive`, { waitUntil: 'networkidle' });
    await page.locator('.cv-paper__placeholder').waitFor();
    await page.screenshot({ path: join(repoDir, 'docs', `career-hub-builder-new-${width}.png`), fullPage: true });
    await page.goto(`${site.url}/career-hub/dashboard`, { waitUntil: 'networkidle' });
    await page.getByRole('navigation', { name: 'CV pages' }).waitFor();
    await page.locator('section[aria-labelledby="my-cvs-heading"]').screenshot({ path: join(repoDir, 'docs', `career-hub-my-cvs-pages-${width}.png`) });
    console.log(`docs/career-hub-builder-new-${width}.png, docs/career-hub-my-cvs-pages-${width}.png`);
  }
  if (page.errors.length) console.log(`console: ${page.errors.join('; ')}`);
} finally {
  await browser.close();
  await site.stop();
  rmSync(files, { recursive: true, force: true });
}
