// axe-core (WCAG 2.2 A/AA rules) on every public route at 1440 and 390 px, plus the 404 page, an open menu, the drawer
// and the application dialog: no violations.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { DESKTOP, MOBILE, launch } from './lib/browser.mjs';
import { publicRoutes } from './lib/routes.mjs';
import { startSite } from './lib/site.mjs';

let site;
let browser;
before(async () => {
  site = await startSite();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

async function violations(page) {
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

async function scrollThrough(page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += 600) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 30));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForLoadState('networkidle');
}

for (const [label, viewport] of [
  ['1440', DESKTOP],
  ['390', MOBILE],
]) {
  describe(`axe at ${label} px`, () => {
    for (const route of [...publicRoutes, { path: '/no-such-page' }, { path: '/jobs/1' }]) {
      test(route.path, async () => {
        const page = await browser.page(viewport);
        await page.goto(site.url + route.path, { waitUntil: 'networkidle' });
        await scrollThrough(page);
        assert.deepEqual(await violations(page), []);
        await page.close();
      });
    }
  });
}

test('open menu, drawer and application dialog have no violations', async () => {
  const desk = await browser.page(DESKTOP);
  await desk.goto(site.url + '/', { waitUntil: 'networkidle' });
  await desk.getByRole('button', { name: 'Hire With Us' }).click();
  assert.deepEqual(await violations(desk), []);
  await desk.goto(site.url + '/jobs/1', { waitUntil: 'networkidle' });
  await desk.getByRole('button', { name: 'Apply Now' }).click();
  await desk.getByTestId('application-dialog').waitFor({ state: 'visible' });
  assert.deepEqual(await violations(desk), []);
  await desk.close();
  const mob = await browser.page(MOBILE);
  await mob.goto(site.url + '/', { waitUntil: 'networkidle' });
  await mob.getByTestId('drawer-toggle').click();
  await mob.getByTestId('drawer').getByRole('button', { name: 'Hire With Us' }).click();
  assert.deepEqual(await violations(mob), []);
  await mob.close();
});
