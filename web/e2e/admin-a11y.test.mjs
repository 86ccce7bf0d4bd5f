// axe-core (WCAG 2.2 A/AA + best practice) on the admin pages (as the demo admin), /admin-login, a shared profile and
// a dead profile link, at 1440 and 390 px, with demo content: no violations. With SCREENSHOTS_DIR set it also saves a
// full-page screenshot of each (docs/admin-*.png are made this way: SCREENSHOTS_DIR=../docs).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { DESKTOP, MOBILE, launch } from './lib/browser.mjs';
import { DEMO_ADMIN, VISITOR_UA, demoSeedSql, signIn } from './lib/admin.mjs';
import { gatewayAvailable, startSite } from './lib/site.mjs';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const skip = gatewayAvailable() ? false : 'needs the gateway: run under scripts/with-test-db.sh (npm run e2e:gateway)';
let site;
let adminBrowser;
let visitorBrowser;
let slug;
before(async () => {
  if (skip) return;
  site = await startSite({ sql: demoSeedSql() });
  slug = site.sql("select slug from public.candidate_profiles where candidate_id = 'CAND-2001'");
  adminBrowser = await launch();
  visitorBrowser = await launch({ userAgent: VISITOR_UA });
  const page = await adminBrowser.page(DESKTOP);
  await signIn(page, site.url, DEMO_ADMIN);
  await page.close();
});
after(async () => {
  await adminBrowser?.close();
  await visitorBrowser?.close();
  await site?.stop();
});

async function violations(page) {
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

const pages = [
  { name: 'admin-dashboard', path: '/admin', ready: '[data-testid=recent-activity] li', as: 'admin' },
  { name: 'admin-featured-jobs', path: '/admin/jobs', ready: '[data-testid=featured-row]', as: 'admin' },
  { name: 'admin-candidates', path: '/admin/candidates', ready: '[data-testid=candidate-row]', as: 'admin' },
  { name: 'admin-analytics', path: '/admin/candidates/analytics', ready: '[data-testid=views-chart]', as: 'admin' },
  { name: 'admin-login', path: '/admin-login', ready: 'form', as: 'visitor' },
  { name: 'profile', path: () => `/profile/${slug}`, ready: '[data-testid=other-profiles]', as: 'visitor' },
  { name: 'profile-not-found', path: '/profile/no-such-profile-link-000000', ready: '[data-testid=profile-not-found]', as: 'visitor' },
];

for (const [width, viewport] of [
  ['1440', DESKTOP],
  ['390', MOBILE],
]) {
  describe(`admin and profile pages: axe at ${width} px`, { skip }, () => {
    for (const p of pages) {
      test(p.name, async () => {
        const page = await (p.as === 'admin' ? adminBrowser : visitorBrowser).page(viewport);
        await page.goto(site.url + (typeof p.path === 'function' ? p.path() : p.path), { waitUntil: 'networkidle' });
        await page.locator(p.ready).first().waitFor();
        if (process.env.SCREENSHOTS_DIR && p.name !== 'profile-not-found') {
          await page.screenshot({ path: join(process.env.SCREENSHOTS_DIR, `${p.name}-${width}.png`), fullPage: true });
        }
        assert.deepEqual(await violations(page), []);
        if (p.name === 'admin-featured-jobs' || p.name === 'admin-candidates') {
          // The open dialogs too.
          await page.getByRole('button', { name: p.name === 'admin-candidates' ? 'Add New Profile' : /^Remove: / }).first().click();
          await page.locator('dialog[open]').waitFor();
          assert.deepEqual(await violations(page), [], `${p.name} with its dialog open`);
        }
        if (p.name === 'profile' && width === '390') {
          await page.evaluate(() => window.scrollTo(0, 600));
          await page.getByTestId('profile-sticky').waitFor();
          assert.equal(await page.getByTestId('profile-sticky').innerText(), 'Get in Touch About This Candidate', 'the sticky bar after 400 px');
          assert.deepEqual(await violations(page), [], 'with the sticky bar');
        }
        assert.deepEqual(page.errors, []);
        await page.close();
      });
    }
  });
}
