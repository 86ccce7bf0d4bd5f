// Every public route at 1440 and 390 px: HTTP 200, complete HTML before scripts (title, description, canonical, Open
// Graph), the spec's texts visible after hydration, the site title, and no console errors.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DESKTOP, MOBILE, launch } from './lib/browser.mjs';
import { publicRoutes, SITE_NAME } from './lib/routes.mjs';
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

describe('prerendered HTML', () => {
  for (const route of publicRoutes) {
    test(`${route.path} is complete HTML before scripts run`, async () => {
      const res = await fetch(site.url + route.path);
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.match(html, new RegExp(`<title>[^<]*${SITE_NAME}[^<]*</title>`));
      assert.match(html, /<meta data-head name="description" content="[^"]{20,}"/);
      const canonical = route.path === '/' ? '/' : route.path;
      assert.ok(html.includes(`<link data-head rel="canonical" href="https://`) && html.includes(`${canonical}"`), 'canonical link');
      assert.match(html, /property="og:title"/);
      for (const text of route.texts) {
        const escaped = text.replace(/'/g, '&#x27;').replace(/&/g, '&amp;');
        assert.ok(html.includes(text) || html.includes(escaped), `server HTML contains "${text}"`);
      }
      if (site.mode === 'gateway') assert.match(html, /<meta name="supabase-url"/);
      else assert.doesNotMatch(html, /<!--(runtime-config|app-head|app-html|ssr-head|ssr-body)-->/);
      assert.doesNotMatch(html, /<script(?![^>]*(type="module"|application\/ld\+json))[^>]*>[^<]+<\/script>/, 'no inline scripts');
    });
  }
});

for (const [label, viewport] of [
  ['1440', DESKTOP],
  ['390', MOBILE],
]) {
  describe(`routes at ${label} px`, () => {
    for (const route of publicRoutes) {
      test(`${route.path} shows its texts without console errors`, async () => {
        const page = await browser.page(viewport);
        try {
          const res = await page.goto(site.url + route.path, { waitUntil: 'networkidle' });
          assert.equal(res.status(), 200);
          assert.ok((await page.title()).includes(SITE_NAME), `title of ${route.path}`);
          for (const text of route.texts) {
            await page.getByText(text, { exact: false }).first().waitFor({ state: 'attached', timeout: 5000 });
          }
          // The page is laid out inside the viewport width (no horizontal scrolling at 390 px).
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(overflow <= 0, `horizontal overflow of ${overflow}px`);
          assert.deepEqual(page.errors, []);
        } finally {
          await page.close();
        }
      });
    }
  });
}
