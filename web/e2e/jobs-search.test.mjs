// /jobs through the gateway: complete HTML from public.render_jobs_page before scripts (count, filters with counts,
// pages of 20 with real links, titles and canonicals per indexable view, 400/404 for bad settings or pages), and a
// visitor in a real browser at 1440 and 390 px: 'Current Vacancies' from the header, keywords with stemming, a facet,
// the back button, page 2, a job opened and applied to; the empty state; keyboard only; axe. Also the closed job's
// 410, the feeds and the sitemap, and the Broadbean push (add, delete, wrong credentials, malformed XML).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { axeViolations, tabTo } from './lib/career-hub.mjs';
import { DESKTOP, MOBILE, launch } from './lib/browser.mjs';
import { demoSeedSql } from './lib/admin.mjs';
import { gatewayAvailable, startSite } from './lib/site.mjs';

const skip = gatewayAvailable() ? false : 'needs the gateway: run under scripts/with-test-db.sh (npm run e2e:gateway)';

// 25 more live roles (45 with the demo's 16 … enough for three pages), one closed and one remote.
const EXTRA_JOBS = `
insert into public.jobs (job_id, status, posted_date, title, company, location, salary, salary_min, salary_max, type,
  sector, employment_type, work_arrangement, description)
select 'SRCH-' || n, 'active', now() - make_interval(days => 20 + n), 'Project Manager ' || n, 'Builder ' || n,
  case when n % 2 = 0 then 'Leeds' else 'Bristol' end, '£' || (40 + n) || ',000', (40 + n) * 1000, (45 + n) * 1000,
  'Professional', 'Construction', case when n % 3 = 0 then 'contract' else 'permanent' end::public.employment_type,
  'on-site', 'Deliver construction projects on time.'
from generate_series(1, 25) n;
update public.jobs set work_arrangement = 'remote' where job_id = 'SRCH-7';
`;

let site;
let browser;
before(async () => {
  if (skip) return;
  site = await startSite({ sql: demoSeedSql() + EXTRA_JOBS });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

const html = async (path) => {
  const res = await fetch(site.url + path);
  return { status: res.status, text: await res.text() };
};
/** Waits until no CSS transition runs (the header changes colour as the page scrolls to a focused field). */
const settled = (page) => page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
/** Waits until the announced count matches `pattern` (and is not "Searching…"); the failure names what it said. */
async function countIs(page, pattern) {
  try {
    await page.waitForFunction((src) => {
      const text = document.querySelector('[data-testid=jobs-count]')?.textContent ?? '';
      return !/Searching/.test(text) && new RegExp(src).test(text);
    }, pattern.source, { timeout: 15000 });
  } catch {
    throw new Error(`the count never matched ${pattern}: it says "${await page.getByTestId('jobs-count').innerText().catch(() => '(none)')}" at ${page.url()}`);
  }
  return page.getByTestId('jobs-count').innerText();
}
const count = (text) => text.match(/data-testid="jobs-count">([^<]*)</)?.[1];
const liveJobs = () => Number(site.sql("select count(*) from public.jobs where status = 'active'"));

test('the first page is complete HTML: count, filters with counts, 20 jobs and real page links', { skip }, async () => {
  const total = liveJobs();
  const { status, text } = await html('/jobs');
  assert.equal(status, 200);
  assert.match(text, /<title>Current Vacancies \| Cornerstone Property Search<\/title>/);
  assert.match(text, /<meta data-head name="robots" content="index, follow">/);
  assert.match(text, /<link data-head rel="canonical" href="https:\/\/[^"]+\/jobs">/);
  assert.equal(count(text), `${total} jobs found, showing 1–20`);
  assert.equal((text.match(/class="jobs-card card"/g) ?? []).length, 20);
  assert.match(text, /<a class="pager__step" rel="next" href="\/jobs\?page=2">Next<\/a>/);
  assert.match(text, /<input type="checkbox" name="sector" value="Construction"><span class="jobs-facet__label">Construction<\/span><span class="jobs-facet__count">25<\/span>/);
  assert.match(text, /advertised by Cornerstone Property Search, acting as an employment agency/);
  assert.match(text, /<form class="jobs-filters card" method="get" action="\/jobs"/);
  // the last page holds the rest; a page past it is 404
  const last = Math.ceil(total / 20);
  const lastPage = await html(`/jobs?page=${last}`);
  assert.equal((lastPage.text.match(/class="jobs-card card"/g) ?? []).length, total - (last - 1) * 20);
  assert.match(lastPage.text, /<title>Current Vacancies – page 3 \| /);
  assert.equal((await html(`/jobs?page=${last + 1}`)).status, 404);
});

test('one facet value is an indexable view; combinations are noindex; bad settings answer 400', { skip }, async () => {
  const sector = await html('/jobs?sector=Construction');
  assert.match(sector.text, /<title>Construction jobs \| /);
  assert.match(sector.text, /<meta data-head name="robots" content="index, follow">/);
  assert.match(sector.text, /rel="canonical" href="https:\/\/[^"]+\/jobs\?sector=Construction">/);
  assert.equal(count(sector.text), '25 jobs found, showing 1–20');
  const mixed = await html('/jobs?q=manager&region=Yorkshire+and+the+Humber&utm_source=mail');
  assert.match(mixed.text, /<meta data-head name="robots" content="noindex, follow">/);
  assert.match(mixed.text, /rel="canonical" href="https:\/\/[^"]+\/jobs">/);
  for (const bad of ['/jobs?region=Atlantis', '/jobs?salary=lots', '/jobs?type=forever', '/jobs?q=%FF']) {
    const r = await html(bad);
    assert.equal(r.status, 400, bad);
    assert.match(r.text, /Those search settings are not valid/);
  }
  const api = await fetch(`${site.url}/rest/v1/rpc/search_jobs`, {
    method: 'POST',
    headers: { apikey: site.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ page: 0 }),
  });
  assert.equal(api.status, 400);
  assert.equal((await api.json()).message, 'page: between 1 and 500');
});

for (const [label, viewport] of [
  ['1440', DESKTOP],
  ['390', MOBILE],
]) {
  test(`a visitor finds, filters, pages, opens and applies for a job at ${label} px`, { skip }, async () => {
    const page = await browser.page(viewport);
    await page.goto(site.url + '/', { waitUntil: 'networkidle' });
    // 'Current Vacancies' in the header's Getting Hired menu (the drawer below xl)
    if (viewport === MOBILE) {
      await page.getByRole('button', { name: /menu/i }).first().click();
      await page.getByRole('button', { name: 'Getting Hired' }).click();
    } else {
      await page.getByRole('button', { name: 'Getting Hired' }).click();
    }
    await page.getByRole('link', { name: /Current Vacancies/ }).click();
    await page.waitForURL(`${site.url}/jobs`);
    await page.getByRole('heading', { level: 1, name: 'Current Vacancies' }).waitFor();
    const status = page.getByTestId('jobs-count');
    await countIs(page, /^\d+ jobs found, showing 1–20$/);
    assert.equal(await status.getAttribute('aria-live'), 'polite');

    // keywords are stemmed: "managers" finds every Manager
    await page.getByLabel('Keywords').fill('managers');
    await page.getByRole('button', { name: 'Show jobs' }).click();
    await page.waitForURL(/\/jobs\?q=managers$/);
    const managers = Number(site.sql("select count(*) from public.jobs where status = 'active' and search_vector @@ websearch_to_tsquery('english', 'managers')"));
    const before = await countIs(page, new RegExp(`^${managers} jobs found`));
    const titles = await page.locator('.jobs-card__title').allInnerTexts();
    assert.ok(titles.length > 0 && titles.some((t) => /Project Manager/.test(t)), titles.join(', '));

    // a facet: Contract (counts with the keywords applied), then back
    await page.getByRole('checkbox', { name: /^Contract\b/ }).check();
    await page.waitForURL(/type=contract/);
    const contract = Number(site.sql("select count(*) from public.jobs where status = 'active' and employment_type = 'contract' and search_vector @@ websearch_to_tsquery('english', 'managers')"));
    await countIs(page, new RegExp(`^${contract} jobs? found`));
    await page.goBack();
    await page.waitForURL(/\/jobs\?q=managers$/);
    assert.equal(await countIs(page, /found/), before);
    assert.equal(await page.getByRole('checkbox', { name: /^Contract\b/ }).isChecked(), false);

    // page 2 of everything, by its link
    await page.goto(site.url + '/jobs', { waitUntil: 'networkidle' });
    await page.getByRole('navigation', { name: 'Pages of results' }).getByRole('link', { name: 'Next' }).click();
    await page.waitForURL(/\/jobs\?page=2$/);
    await countIs(page, /showing 21–40/);

    // open a job and apply
    await page.goto(site.url + '/jobs?q=%22Project+Manager+3%22', { waitUntil: 'networkidle' });
    await page.getByRole('link', { name: 'Project Manager 3', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Project Manager 3' }).waitFor();
    assert.match(await page.getByTestId('job-advertiser').innerText(), /Advertised by Cornerstone Property Search, acting as an employment business \(temporary role\)\./);
    await page.getByRole('button', { name: 'Apply Now' }).click();
    const form = page.getByTestId('application-dialog');
    await form.getByLabel('First Name *').fill('Grace');
    await form.getByLabel('Last Name *').fill('Hopper');
    await form.getByLabel('Email *').fill(`grace.${label}@example.com`);
    await form.getByLabel('Phone *').fill('07700 900456');
    await form.locator('input[type=file]').setInputFiles({ name: 'CV.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') });
    await form.getByRole('checkbox').check();
    await form.getByRole('button', { name: 'Submit Application' }).click();
    await page.getByTestId('toast').getByText('Application submitted successfully!').waitFor({ timeout: 15000 });
    assert.equal(site.sql(`select count(*) from public.applications a join public.jobs j on j.id = a.job_id where j.job_id = 'SRCH-3' and a.email = 'grace.${label}@example.com'`), '1');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`the search, its empty state and the alert form are axe clean at ${label} px`, { skip }, async () => {
    const page = await browser.page(viewport);
    await page.goto(site.url + '/jobs?sector=Construction&type=permanent', { waitUntil: 'networkidle' });
    assert.deepEqual(await axeViolations(page), []);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no horizontal overflow');
    await page.goto(site.url + '/jobs?q=zzzqqq', { waitUntil: 'networkidle' });
    await page.getByTestId('jobs-empty').getByText('No jobs match your search').waitFor();
    assert.equal(await page.getByTestId('jobs-empty').getByRole('link', { name: 'see every live role' }).getAttribute('href'), '/jobs');
    await page.getByLabel('E-mail address').waitFor();
    await settled(page);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('keyboard only: a facet, the results and a job', { skip }, async () => {
  const page = await browser.page(DESKTOP);
  await page.goto(site.url + '/jobs', { waitUntil: 'networkidle' });
  await tabTo(page, 'input[name=arrangement][value=remote]');
  await page.keyboard.press('Space');
  await page.waitForURL(/arrangement=remote/);
  await countIs(page, /^\d+ jobs? found$/);
  // focus stays on the box the visitor ticked
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('value')), 'remote');
  await tabTo(page, '.jobs-card__title a');
  const title = await page.evaluate(() => document.activeElement.textContent);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  await page.close();
});

test('a closed job answers 410 with similar roles and leaves the search, the feeds and the sitemap', { skip }, async () => {
  const id = site.sql("select id from public.jobs where job_id = 'SRCH-5'");
  for (const path of ['/sitemap.xml', '/feeds/indeed.xml', '/feeds/jobs.rss']) assert.match((await html(path)).text, new RegExp(id), path);
  assert.match((await html('/jobs?q=%22Project+Manager+5%22')).text, new RegExp(`/jobs/${id}`));
  site.sql("update public.jobs set status = 'closed' where job_id = 'SRCH-5'");
  const page = await html(`/jobs/${id}`);
  assert.equal(page.status, 410);
  assert.match(page.text, /<h1>This role is no longer open<\/h1>/);
  assert.match(page.text, /Similar live roles/);
  assert.doesNotMatch(page.text, /JobPosting/);
  for (const path of ['/sitemap.xml', '/feeds/indeed.xml', '/feeds/jobs.rss', '/jobs?q=%22Project+Manager+5%22']) {
    assert.doesNotMatch((await html(path)).text, new RegExp(id), path);
  }
  const browserPage = await browser.page(MOBILE);
  const res = await browserPage.goto(`${site.url}/jobs/${id}`, { waitUntil: 'networkidle' });
  assert.equal(res.status(), 410);
  await browserPage.getByRole('heading', { name: 'This role is no longer open' }).waitFor();
  assert.deepEqual(await axeViolations(browserPage), []);
  await browserPage.close();
});

test('the feeds: Indeed XML with every live job in CDATA and the agency, RSS of new jobs', { skip }, async () => {
  const indeed = await fetch(site.url + '/feeds/indeed.xml');
  assert.equal(indeed.headers.get('content-type'), 'application/xml; charset=utf-8');
  const xml = await indeed.text();
  assert.equal((xml.match(/<job>/g) ?? []).length, liveJobs());
  assert.match(xml, /<publisher><!\[CDATA\[Cornerstone Property Search\]\]><\/publisher>/);
  assert.match(xml, /<title><!\[CDATA\[Project Manager 7\]\]><\/title>.*?<sourcename><!\[CDATA\[Cornerstone Property Search\]\]><\/sourcename>.*?<remotetype><!\[CDATA\[Fully remote\]\]><\/remotetype>/s);
  assert.match(xml, /<jobtype><!\[CDATA\[contract\]\]><\/jobtype>/);
  const rss = await (await fetch(site.url + '/feeds/jobs.rss')).text();
  assert.match(rss, /<rss version="2.0"/);
  assert.ok((rss.match(/<item>/g) ?? []).length >= 20);
  assert.match(rss, /Advertised by Cornerstone Property Search/);
});

const PUSH = (user, password, body) =>
  `<?xml version="1.0" encoding="UTF-8"?><job><command>${body.command}</command><username>${user}</username><password>${password}</password>${body.xml ?? ''}</job>`;

test('Broadbean: add then delete, and wrong credentials or malformed XML change nothing', { skip }, async () => {
  const [user, password] = site.sql("select username || ' ' || password from private.rotate_feed_credentials('broadbean', 'adcourier')").split(' ');
  const post = (body) =>
    fetch(`${site.url}/rest/v1/rpc/broadbean`, { method: 'POST', headers: { 'content-type': 'text/xml', apikey: site.anonKey }, body });
  const jobXml =
    '<job_reference>BB-77</job_reference><job_title><![CDATA[Senior Cost Manager]]></job_title><job_type>Permanent</job_type>' +
    '<job_description><![CDATA[<p>Lead <b>cost</b> plans &amp; more.</p><ul><li>NEC</li></ul>]]></job_description>' +
    '<job_location>Leeds</job_location><job_industry>Consultancy</job_industry><salary_from>60000</salary_from>' +
    '<salary_to>70000</salary_to><salary_per>annum</salary_per><days_to_advertise>14</days_to_advertise>';
  const before = site.sql('select count(*) from public.jobs');

  const wrong = await post(PUSH(user, 'not-it', { command: 'add', xml: jobXml }));
  assert.equal(wrong.status, 401);
  assert.match((await wrong.json()).message, /Incorrect username or password/);
  const malformed = await post(PUSH(user, password, { command: 'add', xml: '<job_title>unclosed' }));
  assert.equal(malformed.status, 400);
  assert.equal((await malformed.json()).code, '2200N');
  const missing = await post(PUSH(user, password, { command: 'add', xml: '<job_reference>BB-78</job_reference>' }));
  assert.equal(missing.status, 400);
  assert.deepEqual((await missing.json()).fields, ['job_title', 'job_type', 'job_description', 'job_location']);
  assert.equal(site.sql('select count(*) from public.jobs'), before, 'refusals wrote nothing');

  const added = await post(PUSH(user, password, { command: 'add', xml: jobXml }));
  assert.equal(added.status, 200);
  const body = await added.json();
  assert.equal(body.status, 'added');
  const page = await html(new URL(body.url).pathname);
  assert.equal(page.status, 200);
  assert.match(page.text, /<h1 class="job-hero__title">Senior Cost Manager<\/h1>/);
  assert.match((await html('/jobs?q=cost+manager')).text, /Senior Cost Manager/);
  assert.equal((await (await post(PUSH(user, password, { command: 'add', xml: jobXml }))).json()).status, 'updated');

  const deleted = await post(PUSH(user, password, { command: 'delete', xml: '<job_reference>BB-77</job_reference>' }));
  assert.equal(deleted.status, 200);
  assert.equal((await deleted.json()).status, 'closed');
  assert.equal((await html(new URL(body.url).pathname)).status, 410);
  const unknown = await post(PUSH(user, password, { command: 'delete', xml: '<job_reference>nope</job_reference>' }));
  assert.equal(unknown.status, 404);
});
