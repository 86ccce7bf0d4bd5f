// Every link leads somewhere real: a crawl of the whole site in Chromium, signed out and signed in as the demo
// candidate and the demo admin (sql/seed), following every same-site href of the rendered pages, their menus and
// footers (lib/crawl.mjs). It fails on any answer >= 400, any page rendering a not-found view, any fragment naming
// no element, and lists where each broken link was found. External links are listed, never fetched.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, DESKTOP } from './lib/browser.mjs';
import { brokenLines, crawlSite } from './lib/crawl.mjs';
import { DEMO_USERS, signInSession, startSignedIn } from './lib/sign-in.mjs';
import { distDir, repoDir, startSite } from './lib/site.mjs';

let site;
let browser;
let publicOrigin;
before(async () => {
  site = await startSite();
  if (site.mode === 'gateway') {
    execFileSync(join(repoDir, 'sql', 'seed', 'load.sh'), [`postgres://postgres@127.0.0.1:${process.env.TEST_PGPORT}/${site.db}`], { stdio: 'pipe' });
  }
  browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  const home = await (await fetch(`${site.url}/`)).text();
  publicOrigin = new URL(home.match(/<link data-head rel="canonical" href="([^"]+)"/)[1]).origin;
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

async function visitor(name, start, user) {
  const context = await browser.newContext({ viewport: DESKTOP });
  const seen = { roleLookups: 0 };
  if (user) {
    const session = await signInSession(site.url, site.anonKey, user);
    await startSignedIn(context, session);
    // The site restores a stored session and looks up the user's role: proof the crawl runs signed in.
    context.on('request', (r) => {
      if (r.url().includes('/rest/v1/user_roles') && r.url().includes(session.userId)) seen.roleLookups++;
    });
  }
  return { name, start, context, seen };
}

test('the whole site: no broken link for visitors, the demo candidate or the demo admin', async (t) => {
  const started = Date.now();
  const visitors = [await visitor('visitor', ['/', '/admin-login'])];
  if (site.mode === 'gateway') {
    visitors.push(await visitor('candidate', ['/', '/career-hub/dashboard'], DEMO_USERS.candidate));
    visitors.push(await visitor('admin', ['/', '/admin'], DEMO_USERS.admin));
  } else t.diagnostic('no database: signed-out crawl only (run under scripts/with-test-db.sh for the signed-in crawls)');
  const report = await crawlSite({ origin: site.url, publicOrigin, visitors });
  const renders = [...report.rendered.values()].reduce((n, who) => n + who.size, 0);
  t.diagnostic(
    `crawled in ${((Date.now() - started) / 1000).toFixed(1)} s: ${report.fetched} unique URLs fetched, ${report.rendered.size} pages rendered ` +
      `(${renders} renders over ${visitors.length} visitors), ${report.linkCount} same-site links checked ` +
      `(${report.linkTargets.size} distinct targets), ` +
      `${report.external.size} external links listed, ${report.contact.size} mailto/tel links`,
  );
  for (const [href, places] of report.external) t.diagnostic(`external (not fetched): ${href} (${places.size} places)`);
  if (report.unsettled.length) t.diagnostic(`still busy after 15 s: ${report.unsettled.join(', ')}`);
  if (report.apiErrors.length) t.diagnostic(`API errors seen while rendering: ${report.apiErrors.join(', ')}`);
  for (const v of visitors) await v.context.close();

  assert.deepEqual(brokenLines(report), [], 'broken links');
  const rendered = (name) => [...report.rendered].filter(([, who]) => who.has(name)).map(([key]) => key);
  const prerendered = JSON.parse(readFileSync(join(distDir, '_routes.json'), 'utf8'));
  const orphans = prerendered.filter((p) => !rendered('visitor').includes(p));
  assert.deepEqual(orphans, [], 'every prerendered page is reachable by links from the home page');
  for (const v of visitors.filter((x) => x.name !== 'visitor')) assert.ok(v.seen.roleLookups > 0, `${v.name}: the site restored the session`);
  if (site.mode === 'gateway') assert.ok(rendered('admin').includes('/admin/jobs'), "the admin's header links were followed");
});

test('the crawl reports what is broken and where it was found', async () => {
  const context = await browser.newContext({ viewport: DESKTOP });
  const from = '(self-check)';
  const report = await crawlSite({
    origin: site.url,
    publicOrigin,
    follow: false,
    visitors: [{ name: 'visitor', start: [], context }],
    extraLinks: [
      { from, href: '/no-such-page' },
      { from, href: '/vacancies/no-such-page' },
      { from, href: '/services#no-such-section' },
      { from, href: '/services#leadership-search' },
      { from, href: `${publicOrigin}/terms` },
      { from, href: 'javascript:void(0)' },
    ],
  });
  await context.close();
  const broken = Object.fromEntries([...report.broken].map(([what, places]) => [what, [...places]]));
  const place = [`visitor on ${from}`];
  assert.deepEqual(broken['/no-such-page: HTTP 404'], place);
  const notFoundView = Object.keys(broken).find((k) => k.startsWith('/vacancies/no-such-page: renders the not-found view'));
  assert.ok(notFoundView, `a client-rendered not-found view is reported: ${Object.keys(broken).join(' | ')}`);
  assert.deepEqual(broken['/services#no-such-section: no element has this id'], place);
  assert.deepEqual(broken['javascript:void(0): a javascript: link leads nowhere'], place);
  assert.equal(Object.keys(broken).length, 4, `only the broken links: ${Object.keys(broken).join(' | ')}`);
  assert.ok(report.rendered.has('/terms'), "a link to the site's public origin is checked on the served site");
});
