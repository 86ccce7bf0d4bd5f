// Behaviour that needs the data API and storage through the gateway: Featured Opportunities (3 + 2 on desktop, a
// carousel on phones, custom overrides, hidden when none), the vacancies section with real jobs (newest first), and an
// application submitted end to end with a PDF (CV in the `cvs` bucket, row in `applications`).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DESKTOP, MOBILE, launch } from './lib/browser.mjs';
import { ACTIVE_JOB, seedFeaturedSql, seedJobsSql } from './lib/seed.mjs';
import { gatewayAvailable, startSite } from './lib/site.mjs';


let site;
let browser;
let skip = gatewayAvailable() ? false : 'needs the gateway: run under scripts/with-test-db.sh (npm run e2e:gateway)';
before(async () => {
  if (skip) return;
  site = await startSite({ sql: seedJobsSql + seedFeaturedSql });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

function needsRest(t) {
  if (skip) return t.skip(skip);
  if (!site.restAvailable) return t.skip('the gateway does not serve the data API (/rest/v1) yet');
  return false;
}

test('Featured Opportunities: 3 + 2 on desktop with overrides, linking to the jobs', async (t) => {
  if (needsRest(t) !== false) return;
  const page = await browser.page(DESKTOP);
  await page.goto(site.url + '/', { waitUntil: 'networkidle' });
  await page.getByTestId('featured-opportunities').scrollIntoViewIfNeeded();
  await page.getByRole('heading', { name: 'More Vacancies' }).waitFor();
  const cards = page.locator('[data-testid=featured-card]');
  assert.equal(await cards.count(), 5);
  const titles = await cards.locator('h3').allInnerTexts();
  assert.equal(titles[0], 'Director of Development (Confidential)', 'custom title overrides the job title');
  assert.equal(titles[1], 'Senior Building Surveyor');
  assert.deepEqual(await cards.locator('a').allInnerTexts().then((ts) => ts.map((s) => s.split(':')[0].trim())), ['View Role', 'View Role', 'View Role', 'More Details', 'More Details']);
  assert.equal(await cards.first().locator('a').getAttribute('href'), `/jobs/${ACTIVE_JOB}`);
  assert.ok((await cards.nth(4).innerText()).includes('FM Contract Lead'));
  assert.ok(!(await cards.nth(4).innerText()).includes('£'), 'no salary line when neither value exists');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Featured Opportunities: a carousel on phones', async (t) => {
  if (needsRest(t) !== false) return;
  const page = await browser.page(MOBILE);
  await page.goto(site.url + '/', { waitUntil: 'networkidle' });
  await page.getByTestId('featured-opportunities').scrollIntoViewIfNeeded();
  const carousel = page.getByTestId('featured-carousel');
  await carousel.waitFor();
  assert.equal(await page.getByTestId('carousel-position').innerText(), '1 / 5');
  await carousel.getByRole('button', { name: 'Next opportunity' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid=carousel-position]').textContent.trim() === '2 / 5');
  await carousel.getByRole('button', { name: 'Previous opportunity' }).click();
  await carousel.getByRole('button', { name: 'Previous opportunity' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid=carousel-position]').textContent.trim() === '5 / 5');
  await page.close();
});

test('the vacancies section shows real jobs newest first between the trending cards', async (t) => {
  if (needsRest(t) !== false) return;
  const page = await browser.page(DESKTOP);
  await page.goto(site.url + '/', { waitUntil: 'networkidle' });
  await page.locator('#vacancies').scrollIntoViewIfNeeded();
  await page.locator('[data-testid=vacancy-card]').first().waitFor();
  const titles = await page.locator('[data-testid=vacancy-card] h3').allInnerTexts();
  assert.deepEqual(titles, ['Development Director', 'ESG & Sustainability Specialists', 'Head of Asset Management', 'Senior Building Surveyor', 'PropTech & Digital Specialists']);
  assert.equal(await page.getByText('Error loading jobs. Showing sample data.').count(), 0);
  await page.close();
});

test('Featured Opportunities is hidden when nothing is featured', async (t) => {
  if (needsRest(t) !== false) return;
  site.sql('update public.featured_jobs set is_active = false');
  const page = await browser.page(DESKTOP);
  await page.goto(site.url + '/', { waitUntil: 'networkidle' });
  await page.getByTestId('featured-opportunities').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => !document.querySelector('[data-testid=featured-opportunities]'));
  assert.equal(await page.getByText('Loading opportunities...').count(), 0);
  site.sql('update public.featured_jobs set is_active = true');
  await page.close();
});

test('an application with a PDF CV is submitted end to end', async (t) => {
  if (needsRest(t) !== false) return;
  const page = await browser.page(DESKTOP);
  await page.goto(`${site.url}/jobs/${ACTIVE_JOB}`, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: 'Apply Now' }).click();
  const form = page.getByTestId('application-dialog');
  await form.getByLabel('First Name *').fill('Ada');
  await form.getByLabel('Last Name *').fill('Lovelace');
  await form.getByLabel('Email *').fill('ada@example.com');
  await form.getByLabel('Phone *').fill('07700 900123');
  await form.getByLabel('Cover Letter (optional)').fill('I would love to lead this pipeline.');
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
  await form.locator('input[type=file]').setInputFiles({ name: 'Ada Lovelace CV.pdf', mimeType: 'application/pdf', buffer: pdf });
  await form.getByRole('checkbox').check();
  const submit = form.getByRole('button', { name: 'Submit Application' });
  await submit.click();
  await page.getByTestId('toast').getByText('Application submitted successfully!').waitFor({ timeout: 15000 });
  assert.match(await page.getByTestId('toast').innerText(), /We'll review your application and get back to you soon\./);
  await form.waitFor({ state: 'hidden' });
  const row = site.sql(`select first_name || '|' || last_name || '|' || email || '|' || phone || '|' || privacy_consent || '|' || cv_object from public.applications where job_id = '${ACTIVE_JOB}'`);
  const [first, last, email, phone, consent, cvObject] = row.split('|');
  assert.deepEqual([first, last, email, phone, consent], ['Ada', 'Lovelace', 'ada@example.com', '07700 900123', 'true']);
  assert.match(cvObject, /^[0-9a-f-]{36}\/Ada-Lovelace-CV\.pdf$/);
  const stored = site.sql(`select count(*) from storage.objects where bucket_id = 'cvs' and name = '${cvObject}'`);
  assert.equal(stored, '1', 'the CV is in the cvs bucket');
  assert.deepEqual(page.errors, []);
  await page.close();
});
