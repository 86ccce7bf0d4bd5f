// The job editor at /admin/vacancies against the real gateway with the demo content, as the demo admin: the list
// (every status, search, filters from the dashboard's links), a new job whose missing fields are named, the database's
// reg. 27 refusal, publishing (Markdown stored as its one rendering), duplicate, close and reopen, a job closing itself
// when its closing date has passed (the scheduler's function), and the CSV import: a file with a bad row reported with
// nothing written, then the fixed file imported in one go. axe (WCAG 2.2 AA) on the list, the form and the import
// preview at 1440 and 390 px; SCREENSHOTS_DIR=../docs saves docs/admin-vacancies-*.png.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { DESKTOP, MOBILE, launch } from './lib/browser.mjs';
import { DEMO_ADMIN, count, demoSeedSql, expectToast, signIn, toastText } from './lib/admin.mjs';
import { gatewayAvailable, startSite } from './lib/site.mjs';

const skip = gatewayAvailable() ? false : 'needs the gateway: run under scripts/with-test-db.sh (npm run e2e:gateway)';
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const HEADER = 'external_id,status,title,company,location,employment_type,salary,salary_min,salary_max,closing_date,description,requirements,benefits';
const GOOD_ROW = 'CSV-1,active,Estates Surveyor,Halden Estates,Leeds,permanent,"£48,000",48000,52000,31/12/2099,"Survey **mixed-use** estates.\n\nReport to the Head of Estates.","- MRICS\n- 3+ years",Pension; Bonus';
const BAD_ROW = 'CSV-2,active,Site Manager,Carrick Facilities,York,forever,"£45,000",45000,,2099-12-31,Run the site.,- SMSTS,';
const FIXED_ROW = 'CSV-2,active,Site Manager,Carrick Facilities,York,contract,"£45,000",45000,,2099-12-31,Run the site.,- SMSTS,';

let site;
let browser;
let admin;
let files;
before(async () => {
  if (skip) return;
  site = await startSite({ sql: demoSeedSql() });
  browser = await launch({ acceptDownloads: true });
  admin = await browser.page(DESKTOP);
  await signIn(admin, site.url, DEMO_ADMIN);
  files = mkdtempSync(join(tmpdir(), 'vacancies-csv-'));
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

async function violations(page) {
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

async function shot(page, name) {
  if (process.env.SCREENSHOTS_DIR) await page.screenshot({ path: join(process.env.SCREENSHOTS_DIR, `${name}.png`), fullPage: true });
}

async function open(path) {
  await admin.goto(site.url + path, { waitUntil: 'networkidle' });
}

const jobStatus = (id) => site.sql(`select status from public.jobs where id = '${id}'`);
const rowCount = () => admin.getByTestId('vacancy-row').count();
async function waitRows(n, what) {
  await admin
    .waitForFunction((want) => document.querySelectorAll('[data-testid=vacancy-row]').length === want && !document.querySelector('[aria-busy=true]'), n, { timeout: 15000 })
    .catch(async () => assert.fail(`${what}: ${n} rows wanted, ${await rowCount()} shown`));
}
const jobIdFromUrl = () => new URL(admin.url()).pathname.split('/').pop();

describe('job editor', { skip }, () => {
  test('the list holds every job of any status, searched and filtered; the dashboard links into it', async () => {
    await open('/admin');
    await admin.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-testid=stat-incomplete-jobs] .stat-card__value')?.textContent ?? ''));
    const incomplete = Number(await admin.getByTestId('stat-incomplete-jobs').locator('.stat-card__value').innerText());
    assert.ok(incomplete > 0);
    await admin.getByRole('link', { name: 'Incomplete Jobs' }).click();
    await admin.waitForURL(/\/admin\/vacancies\?issue=incomplete$/);
    await admin.getByTestId('vacancy-row').first().waitFor();
    assert.equal(await rowCount(), incomplete, "the editor lists the dashboard's incomplete jobs");
    assert.equal(await admin.getByLabel('Needs attention').inputValue(), 'incomplete');

    await open('/admin');
    await admin.getByTestId('data-quality').getByRole('link', { name: 'Fix in the job editor' }).waitFor();
    const issue = admin.getByTestId('data-quality').locator('li a').first();
    const title = await issue.innerText();
    await issue.click();
    await admin.waitForURL(/\/admin\/vacancies\/[0-9a-f-]{36}$/);
    await admin.waitForFunction(() => document.querySelector('#job-title')?.value);
    assert.equal(await admin.getByLabel('Job title *').inputValue(), title, 'a Data Quality entry opens that job in the editor');

    await open('/admin/vacancies');
    await admin.getByTestId('vacancy-row').first().waitFor();
    const total = count(site, 'select count(*) from public.jobs');
    assert.equal(await rowCount(), total, 'every job, whatever its status');
    assert.match(await admin.getByTestId('vacancy-count').innerText(), new RegExp(`^${total} of ${total} jobs$`));
    const closed = count(site, "select count(*) from public.jobs where status = 'closed'");
    await admin.getByLabel('Status').selectOption('closed');
    await admin.waitForURL(/status=closed/);
    await waitRows(closed, 'status closed');
    await admin.getByLabel('Status').selectOption('');
    await waitRows(total, 'any status');
    await admin.getByRole('searchbox', { name: 'Search' }).fill('facilities');
    await admin.waitForURL(/q=facilities/);
    const matching = count(site, "select count(*) from public.jobs where title ilike '%facilities%' or company ilike '%facilities%' or location ilike '%facilities%'");
    await waitRows(matching, 'searched');
    // the search replaces the unfiltered entry in the history: back returns to the closed jobs
    await admin.goBack();
    await waitRows(closed, 'back');
    assert.equal(await admin.getByLabel('Status').inputValue(), 'closed');
    assert.deepEqual(admin.errors, []);
  });

  test('a new job: missing fields are named, the database refuses to publish without reg. 27, then it is published', async () => {
    await open('/admin/vacancies/new');
    await admin.getByRole('button', { name: 'Publish' }).click();
    const summary = admin.getByTestId('job-error-summary');
    await summary.waitFor();
    const named = await summary.innerText();
    assert.match(named, /Job title is required/);
    assert.match(named, /Company is required/);
    assert.match(named, /Employment type is required to publish/);
    assert.equal(await admin.getByLabel('Job title *').getAttribute('aria-invalid'), 'true');
    assert.equal(count(site, "select count(*) from public.jobs where title = 'Head of Estates Strategy'"), 0, 'nothing written');

    await admin.getByLabel('Job title *').fill('Head of Estates Strategy');
    await admin.getByLabel('Company *').fill('Arbour Living');
    await admin.getByLabel('Salary (as shown)').fill('£95,000 - £110,000');
    await admin.getByLabel('Minimum salary (£)').fill('95,000');
    await admin.getByLabel('Maximum salary (£)').fill('110000');
    await admin.getByRole('button', { name: 'Save draft' }).click();
    await expectToast(admin, 'Success Draft saved');
    await admin.waitForURL(/\/admin\/vacancies\/[0-9a-f-]{36}$/);
    const id = jobIdFromUrl();
    assert.equal(jobStatus(id), 'draft');

    // The list's Publish asks the database directly: it refuses (reg. 27) and the form names what is missing.
    await open('/admin/vacancies?q=Head%20of%20Estates%20Strategy');
    await admin.getByRole('button', { name: 'Publish Head of Estates Strategy' }).click();
    assert.match(await toastText(admin), /^Cannot publish yet This job cannot be published until it states whether the role is permanent or temporary/);
    await admin.getByRole('button', { name: 'Dismiss notification' }).click();
    assert.deepEqual(admin.errors, ['console.error: Failed to load resource: the server responded with a status of 400 (Bad Request)'], 'the refusal, and nothing else');
    admin.errors.length = 0;
    await admin.waitForURL(/\?publish=1$/);
    const errors = await admin.getByTestId('job-error-summary').innerText();
    for (const field of ['Employment type', 'Description', 'Location', 'Requirements']) assert.match(errors, new RegExp(field), `${field} named`);
    assert.equal(jobStatus(id), 'draft', 'still a draft');
    await violations(admin).then((v) => assert.deepEqual(v, [], 'the form with its errors'));

    await admin.getByLabel('Employment type (to publish) *').selectOption('permanent');
    await admin.getByLabel('Location', { exact: true }).fill('Birmingham');
    await admin.getByLabel('Description', { exact: true }).fill('Lead the **estates strategy** for 12,000 homes.\n\nReporting to the board.<script>alert(1)</script>');
    await admin.getByLabel('Requirements', { exact: true }).fill('- MRICS\n- 10+ years in estates');
    const preview = admin.getByTestId('job-description-preview');
    assert.equal(await preview.locator('strong').innerText(), 'estates strategy', 'the preview renders the Markdown');
    assert.equal(await preview.locator('script').count(), 0, 'raw HTML is text');
    await admin.getByRole('button', { name: 'Publish' }).click();
    await expectToast(admin, 'Success Job published');
    assert.equal(jobStatus(id), 'active');
    const stored = JSON.parse(site.sql(`select json_build_object('d', description_html, 'r', requirements_html, 'e', employment_type, 'min', salary_min)::text from public.jobs where id = '${id}'`));
    assert.equal(stored.d, '<p>Lead the <strong>estates strategy</strong> for 12,000 homes.</p>\n<p>Reporting to the board.&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    assert.equal(stored.r, '<ul>\n<li>MRICS</li>\n<li>10+ years in estates</li>\n</ul>');
    assert.equal(stored.e, 'permanent');
    assert.equal(stored.min, 95000);
    const page = await fetch(`${site.url}/jobs/${id}`);
    assert.equal(page.status, 200, 'the published job has its page');
    const html = await page.text();
    assert.ok(html.includes('<div class="job-text"><p>Lead the <strong>estates strategy</strong> for 12,000 homes.</p>'), 'the server-rendered page shows the stored rendering');
    assert.ok(!html.includes('<script>alert(1)'), 'no script from the text');
    const visitorPage = await browser.page(DESKTOP);
    await visitorPage.goto(`${site.url}/jobs/${id}`, { waitUntil: 'networkidle' });
    assert.equal(await visitorPage.locator('.job-main .job-text strong').innerText(), 'estates strategy', 'the browser-rendered page shows the same');
    assert.equal(await visitorPage.locator('.job-reqs li').count(), 2);
    await visitorPage.close();
    assert.match(site.sql(`select string_agg(action || ':' || coalesce(actor_email, '-'), ',' order by id) from public.audit_log where table_name = 'jobs' and record_id = '${id}'`), /^INSERT:admin@example\.com,UPDATE:admin@example\.com/);
    assert.deepEqual(admin.errors, []);
  });

  test('duplicate, close and reopen', async () => {
    const id = site.sql("select id from public.jobs where job_id = 'PPR-1002'");
    await open(`/admin/vacancies/${id}`);
    await admin.getByRole('button', { name: 'Duplicate' }).click();
    await expectToast(admin, 'Success Job duplicated as a draft');
    await admin.waitForURL((url) => url.pathname.startsWith('/admin/vacancies/') && !url.pathname.endsWith(id));
    const copy = jobIdFromUrl();
    await admin.waitForFunction(() => document.querySelector('#job-title')?.value);
    assert.equal(site.sql(`select status || '|' || title || '|' || coalesce(job_id, '-') || '|' || coalesce(external_id, '-') from public.jobs where id = '${copy}'`), 'draft|Asset Manager - Logistics|-|-');
    assert.equal(await admin.getByLabel('Job title *').inputValue(), 'Asset Manager - Logistics');

    // A job imported without saying permanent or temporary: it can be closed, but not reopened until it says.
    site.sql(`update public.jobs set employment_type = null where id = '${id}'`);
    await open(`/admin/vacancies/${id}`);
    await admin.getByRole('button', { name: 'Close job' }).click();
    await expectToast(admin, 'Success Job closed');
    assert.equal(jobStatus(id), 'closed');
    assert.notEqual((await fetch(`${site.url}/jobs/${id}`)).status, 200, 'a closed job has no live page');
    await admin.getByRole('button', { name: 'Reopen' }).click();
    await admin.getByTestId('job-error-summary').waitFor();
    assert.match(await admin.getByTestId('job-error-summary').innerText(), /Employment type is required to publish/);
    await admin.getByLabel('Employment type (to publish) *').selectOption('permanent');
    await admin.getByRole('button', { name: 'Reopen' }).click();
    await expectToast(admin, 'Success Job reopened');
    assert.equal(jobStatus(id), 'active');
    assert.deepEqual(admin.errors, []);
  });

  test('a job whose closing date has passed closes itself when the scheduler runs', async () => {
    const id = site.sql("select id from public.jobs where job_id = 'PPR-1003'");
    site.sql(`update public.jobs set closing_date = (now() at time zone 'Europe/London')::date - 1 where id = '${id}'`);
    assert.equal(jobStatus(id), 'active');
    assert.equal(site.sql('select private.close_expired_jobs()'), '1');
    assert.equal(jobStatus(id), 'closed');
    await open('/admin/vacancies?status=closed');
    await admin.locator(`[data-job-id="${id}"]`).waitFor();
    assert.equal(await admin.locator(`[data-job-id="${id}"] [data-testid=vacancy-status]`).innerText(), 'Closed');
  });

  test('CSV import: a bad row is reported and nothing is written until the file is fixed', async () => {
    await open('/admin/vacancies/import');
    const [download] = await Promise.all([admin.waitForEvent('download'), admin.getByRole('button', { name: 'Download the template' }).click()]);
    const template = readFileSync(await download.path(), 'utf8');
    assert.match(template, /^external_id,job_id,status,title,company,/);

    const bad = join(files, 'jobs.csv');
    writeFileSync(bad, `${HEADER}\r\n${GOOD_ROW}\r\n${BAD_ROW}\r\n`);
    await admin.getByLabel('CSV file', { exact: true }).setInputFiles(bad);
    await admin.getByTestId('import-summary').filter({ hasText: 'rows have problems' }).waitFor();
    assert.equal(await admin.getByTestId('import-summary').innerText(), '1 of 2 rows have problems. Nothing has been written: fix the file and choose it again.');
    const rows = admin.getByTestId('import-row');
    assert.equal(await rows.nth(0).getByTestId('import-row-errors').innerText(), 'None');
    assert.match(await rows.nth(1).getByTestId('import-row-errors').innerText(), /employment_type must be one of permanent, fixed-term, contract, interim, temporary \(not "forever"\)/);
    assert.equal(await admin.getByRole('button', { name: 'Import 2 jobs' }).isDisabled(), true);
    assert.equal(count(site, "select count(*) from public.jobs where external_id like 'CSV-%'"), 0, 'nothing written by the preview');

    const fixed = join(files, 'jobs-fixed.csv');
    writeFileSync(fixed, `${HEADER}\r\n${GOOD_ROW}\r\n${FIXED_ROW}\r\n`);
    await admin.getByLabel('CSV file', { exact: true }).setInputFiles(fixed);
    await admin.getByTestId('import-summary').filter({ hasText: 'rows are ready' }).waitFor();
    assert.equal(await admin.getByTestId('import-summary').innerText(), '2 rows are ready: 2 to add, 0 to update. Nothing has been written yet.');
    assert.equal(count(site, "select count(*) from public.jobs where external_id like 'CSV-%'"), 0);
    await admin.getByRole('button', { name: 'Import 2 jobs' }).click();
    await expectToast(admin, 'Success Imported 2 jobs');
    assert.match(await admin.getByTestId('import-done').innerText(), /2 added, 0 updated/);
    const imported = JSON.parse(
      site.sql(`select json_agg(json_build_object('e', external_id, 's', status, 't', employment_type, 'c', closing_date, 'b', benefits, 'd', description_html) order by external_id)::text from public.jobs where external_id like 'CSV-%'`),
    );
    assert.deepEqual(imported, [
      { e: 'CSV-1', s: 'active', t: 'permanent', c: '2099-12-31', b: ['Pension', 'Bonus'], d: '<p>Survey <strong>mixed-use</strong> estates.</p>\n<p>Report to the Head of Estates.</p>' },
      { e: 'CSV-2', s: 'active', t: 'contract', c: '2099-12-31', b: [], d: '<p>Run the site.</p>' },
    ]);
    assert.equal(count(site, "select count(*) from private.job_import_runs where file_name = 'jobs-fixed.csv' and inserted = 2"), 1);
    assert.deepEqual(admin.errors, []);
  });
});

for (const [width, viewport] of [
  ['1440', DESKTOP],
  ['390', MOBILE],
]) {
  describe(`job editor pages: axe at ${width} px`, { skip }, () => {
    for (const p of [
      { name: 'list', path: '/admin/vacancies', ready: '[data-testid=vacancy-row]' },
      { name: 'form', path: () => `/admin/vacancies/${site.sql("select id from public.jobs where job_id = 'PPR-1001'")}`, ready: '[data-testid=job-description-preview] p' },
      { name: 'new', path: '/admin/vacancies/new', ready: 'form', publish: true },
      { name: 'import', path: '/admin/vacancies/import', ready: 'input[type=file]' },
    ]) {
      test(p.name, async () => {
        const page = await browser.page(viewport);
        await page.goto(site.url + (typeof p.path === 'function' ? p.path() : p.path), { waitUntil: 'networkidle' });
        await page.locator(p.ready).first().waitFor();
        if (p.name === 'import') {
          const csv = join(files, `preview-${width}.csv`);
          writeFileSync(csv, `${HEADER}\r\n${GOOD_ROW}\r\n${BAD_ROW}\r\n`);
          await page.getByLabel('CSV file', { exact: true }).setInputFiles(csv);
          await page.getByTestId('import-preview').waitFor();
          await page.getByTestId('import-summary').filter({ hasText: 'rows have problems' }).waitFor();
        }
        if (p.publish) {
          await page.getByRole('button', { name: 'Publish' }).click();
          await page.getByTestId('job-error-summary').waitFor();
        }
        assert.deepEqual(await violations(page), []);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `no horizontal scrolling (${overflow}px)`);
        await shot(page, `admin-vacancies-${p.name}-${width}`);
        assert.deepEqual(page.errors, []);
        await page.close();
      });
    }
  });
}
