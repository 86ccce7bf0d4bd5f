// axe-core (WCAG 2.2 A/AA + best practice) on the admin pages (as the demo admin), /admin-login, a shared profile and
// a dead profile link, at 1440 and 390 px, with demo content: no violations. With SCREENSHOTS_DIR set it also saves a
// full-page screenshot of each (docs/admin-*.png are made this way: SCREENSHOTS_DIR=../docs). Two people are due
// under the retention rule (a notice now, an erasure in ten days) and a pass has run, so the dashboard's Data
// retention panel shows each of its parts.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { DESKTOP, MOBILE, launch } from './lib/browser.mjs';
import { DEMO_ADMIN, VISITOR_UA, demoSeedSql, signIn } from './lib/admin.mjs';
import { gatewayAvailable, startSite } from './lib/site.mjs';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const skip = gatewayAvailable() ? false : 'needs the gateway: run under scripts/with-test-db.sh (npm run e2e:gateway)';
const RETENTION_SQL = `
insert into public.enquiries (name, email, message, created_at) values
  ('Olive Oldfield', 'olive.oldfield@example.org', 'Any roles in Leeds?', now() - interval '13 months'),
  ('Ned Noanswer', 'ned.noanswer@example.org', 'Call me back', now() - interval '23 months');
insert into private.retention_log (kind, as_of, ran_at, notices, people_erased, deleted)
  values ('scheduled', now() - interval '9 hours', now() - interval '9 hours', 1, 0, '{"old_mail": 3, "rate_limit_log": 12}');
insert into private.retention_notices (email, notified_at, delete_after, token_hash)
  values ('ned.noanswer@example.org', now() - interval '355 days', now() + interval '10 days', sha256('a11y'));
`;

let site;
let adminBrowser;
let visitorBrowser;
let slug;
before(async () => {
  if (skip) return;
  site = await startSite({ sql: demoSeedSql() + RETENTION_SQL });
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
  { name: 'admin-dashboard', path: '/admin', ready: ['[data-testid=recent-activity] li', '[data-testid=retention-due] li'], as: 'admin' },
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
        for (const ready of [p.ready].flat()) await page.locator(ready).first().waitFor();
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
        if (p.name === 'admin-analytics') {
          // The chart's day labels are text at its own size, side by side and on screen, whatever the width (an SVG
          // stretched with preserveAspectRatio="none" squashed them at 390 px).
          const labels = await page.locator('[data-testid=views-chart] .views-chart__x span').evaluateAll((els) =>
            els.filter((e) => e.checkVisibility()).map((e) => {
              const r = e.getBoundingClientRect();
              return { left: r.left, right: r.right, height: r.height, size: parseFloat(getComputedStyle(e).fontSize) };
            }),
          );
          assert.ok(labels.length >= 3, `${labels.length} day labels`);
          for (const [i, l] of labels.entries()) {
            assert.ok(l.size >= 12 && l.height >= 12, `label ${i}: ${l.size}px text, ${l.height}px tall`);
            assert.ok(l.left >= 0 && l.right <= viewport.width, `label ${i} on screen`);
            if (i > 0) assert.ok(l.left > labels[i - 1].right, `label ${i} does not overlap the one before`);
          }
          assert.equal(await page.locator('[data-testid=views-chart] svg text').count(), 0, 'no text inside the stretched SVG');
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
