// Job pages and serving through the gateway: /jobs/{id} rendered by public.render_job_page (complete HTML with
// JobPosting before scripts; 404 'Job Not Found' for unknown jobs, 410 for closed ones), the browser's render of the same page,
// sample jobs, Save Job for visitors, the CV type check, the 404 page, the SPA shell, robots.txt and the sitemap.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DESKTOP, MOBILE, launch } from './lib/browser.mjs';
import { publicRoutes } from './lib/routes.mjs';
import { ACTIVE_JOB, CLOSED_JOB, seedJobsSql } from './lib/seed.mjs';
import { distDir, gatewayAvailable, startSite } from './lib/site.mjs';

const skip = gatewayAvailable() ? false : 'needs the gateway: run under scripts/with-test-db.sh (npm run e2e:gateway)';
let site;
let browser;
before(async () => {
  if (skip) return;
  site = await startSite({ sql: seedJobsSql });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

function ldJson(html) {
  return [...html.matchAll(/<script data-head type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]));
}

test('an active job is complete HTML with JobPosting data before scripts run', { skip }, async () => {
  const res = await fetch(`${site.url}/jobs/${ACTIVE_JOB}`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  const html = await res.text();
  assert.match(html, /<title>Development Director – Bristol \| Cornerstone Property Search<\/title>/);
  assert.match(html, /<link data-head rel="canonical" href="https:\/\/[^"]+\/jobs\/0b7e3f9a/);
  assert.match(html, /<h1 class="job-hero__title">Development Director<\/h1>/);
  assert.match(html, /<meta name="supabase-url"/);
  const [posting] = ldJson(html);
  assert.equal(posting['@type'], 'JobPosting');
  assert.equal(posting.title, 'Development Director');
  assert.deepEqual(posting.baseSalary, {
    '@type': 'MonetaryAmount',
    currency: 'GBP',
    value: { '@type': 'QuantitativeValue', minValue: 120000, maxValue: 140000, unitText: 'YEAR' },
  });
  assert.equal(posting.validThrough, '2026-12-31T23:59:59Z');
  assert.equal(posting.hiringOrganization.name, 'Cornerstone Property Search', 'the firm hires for a confidential client');
  assert.equal(posting.jobLocation.address.addressCountry, 'GB');
  assert.equal(posting.identifier.value, 'PPR-2001');
});

test('unknown jobs answer 404 with Job Not Found (closed ones 410: jobs-search.test.mjs)', { skip }, async () => {
  assert.equal((await fetch(`${site.url}/jobs/${CLOSED_JOB}`)).status, 410);
  for (const id of ['5f2d8e4f-6b7c-4d0e-8f4a-5b6c7d8e9f0a', 'not-a-job']) {
    const res = await fetch(`${site.url}/jobs/${id}`);
    assert.equal(res.status, 404, id);
    const html = await res.text();
    assert.match(html, /Job Not Found/);
    assert.match(html, /<meta data-head name="robots" content="noindex">/);
    assert.equal(ldJson(html).length, 0);
  }
  const page = await browser.page(DESKTOP);
  const res = await page.goto(`${site.url}/jobs/5f2d8e4f-6b7c-4d0e-8f4a-5b6c7d8e9f0a`, { waitUntil: 'networkidle' });
  assert.equal(res.status(), 404);
  await page.getByRole('heading', { name: 'Job Not Found' }).waitFor();
  await page.getByText("The job you're looking for doesn't exist.").waitFor();
  assert.equal(await page.getByRole('link', { name: 'Back to Vacancies' }).getAttribute('href'), '/jobs', 'visitors go to the search');
  await page.close();
});

for (const [label, viewport] of [
  ['1440', DESKTOP],
  ['390', MOBILE],
]) {
  test(`the job page renders everything the spec lists at ${label} px`, { skip }, async () => {
    const page = await browser.page(viewport);
    const api = [];
    page.on('request', (r) => r.url().includes('/rest/v1/') && api.push(r.url()));
    await page.goto(`${site.url}/jobs/${ACTIVE_JOB}`, { waitUntil: 'networkidle' });
    const main = page.locator('main');
    await main.getByRole('button', { name: 'Apply Now' }).waitFor();
    // 'Other Opportunities' lists the other live roles, which came with the page.
    await page.getByTestId('other-opportunities').scrollIntoViewIfNeeded();
    await page.getByTestId('other-opportunities').getByRole('link', { name: /View Details/ }).first().waitFor();
    const text = await main.textContent();
    for (const s of ['Senior Leadership', 'Posted 20 November 2026', 'Development Director', 'Confidential Developer', 'Location', 'Bristol', 'Salary', '£120,000 - £140,000', 'Benefits', 'Car allowance', 'Type of Client', 'Confidential', 'Job ID', 'PPR-2001', 'About the Role', 'Report to the CEO and sit on the board.', 'Requirements', 'Planning and viability expertise', 'Save Job', 'Reach out to Amelia Hart', 'Other Opportunities in Property', 'View Details']) {
      assert.ok(text.includes(s), `shows "${s}"`);
    }
    assert.equal(await main.locator('.job-block p').count(), 2, 'description split on the blank line');
    assert.equal(await main.getByRole('link', { name: /Reach out to Amelia Hart/ }).getAttribute('href').then((h) => h.split('?')[0]), 'mailto:amelia.hart@example.com');
    const others = await page.getByTestId('other-opportunities').getByRole('link', { name: /View Details/ }).evaluateAll((as) => as.map((a) => a.getAttribute('href')).sort());
    assert.deepEqual(others, ['/jobs/2d9a5b1c-3e4f-4a7b-8c1d-2e3f4a5b6c7d', '/jobs/3e0b6c2d-4f5a-4b8c-9d2e-3f4a5b6c7d8e'], 'the other live roles, never sample jobs');
    // The browser rendered the page, other roles included, from the server's data without asking the API.
    assert.deepEqual(api, []);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('Save Job asks a visitor to sign in; a non-CV file is refused before upload', { skip }, async () => {
  const page = await browser.page(DESKTOP);
  await page.goto(`${site.url}/jobs/${ACTIVE_JOB}`, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: 'Save Job' }).click();
  const dialog = page.getByTestId('save-signin-dialog');
  await dialog.waitFor({ state: 'visible' });
  assert.match(await dialog.getByRole('link').getAttribute('href'), /^\/career-hub\/login\?next=%2Fjobs%2F/);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Apply Now' }).click();
  const form = page.getByTestId('application-dialog');
  await form.waitFor({ state: 'visible' });
  assert.match(await form.innerText(), /2 weeks/);
  assert.equal(await form.getByRole('button', { name: 'Submit Application' }).isDisabled(), true, 'disabled without a CV');
  await form.locator('input[type=file]').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('png') });
  await page.getByTestId('toast').getByText('Invalid file type').waitFor();
  assert.match(await page.getByTestId('toast').innerText(), /Please upload a PDF or Word document/);
  assert.equal(await form.getByRole('button', { name: 'Submit Application' }).isDisabled(), true);
  await page.close();
});

test('sample jobs 1-3 render in the browser (not indexed: the server answers 404)', { skip }, async () => {
  const page = await browser.page(DESKTOP);
  const res = await page.goto(`${site.url}/jobs/2`, { waitUntil: 'networkidle' });
  assert.equal(res.status(), 404);
  await page.getByRole('heading', { name: 'Senior Asset Manager' }).waitFor();
  await page.close();
});

test('unknown paths get the 404 page with status 404; app areas get the SPA shell', { skip }, async () => {
  for (const path of ['/no-such-page', '/candidates/entry-level-support', '/assets/missing.js']) {
    const res = await fetch(site.url + path);
    assert.equal(res.status, 404, path);
  }
  const page = await browser.page(DESKTOP);
  const res = await page.goto(`${site.url}/no-such-page`, { waitUntil: 'networkidle' });
  assert.equal(res.status(), 404);
  await page.getByText('Oops! Page not found').waitFor();
  assert.equal(await page.getByRole('link', { name: 'Return to Home' }).getAttribute('href'), '/');
  await page.close();
  for (const path of ['/vacancies', '/career-hub/login', '/admin', '/admin/jobs', '/profile/abc']) {
    const shell = await fetch(site.url + path);
    assert.equal(shell.status, 200, path);
    assert.match(await shell.text(), /data-render="client"/);
  }
});

test('robots.txt and the sitemap list the public pages and active jobs only', { skip }, async () => {
  const robots = await (await fetch(`${site.url}/robots.txt`)).text();
  assert.match(robots, /Disallow: \/admin/);
  assert.match(robots, /^Sitemap: https:\/\/\S+\/sitemap.xml$/m);
  const res = await fetch(`${site.url}/sitemap.xml`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /application\/xml/);
  const xml = await res.text();
  const prerendered = JSON.parse(readFileSync(join(distDir, '_routes.json'), 'utf8'));
  for (const path of prerendered) assert.ok(xml.includes(`${path === '/' ? '/' : path}</loc>`), `sitemap lists ${path}`);
  assert.deepEqual(prerendered.sort(), publicRoutes.map((r) => r.path).sort());
  assert.ok(xml.includes(`/jobs/${ACTIVE_JOB}</loc>`));
  assert.ok(!xml.includes(CLOSED_JOB), 'closed jobs are not listed');
});
