// The Career Hub end to end against the real gateway with make run's demo content (gateway only): sign up and the
// confirmation mail, the five-step builder (reload, a refused autosave, the Complete check), PDF text with
// pdftotext, JSON Resume round trip, saved jobs and applications on the dashboard, data download, account
// deletion (rows and the CV file gone, sign-in refused), keyboard-only completion, axe on every page at 1440 and
// 390 px. The tests run in order and share one browser profile (the signed-in session).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DESKTOP, MOBILE, launch } from './lib/browser.mjs';
import { axeViolations, download, mailLink, pdfText, robotsOf, startCareerHubSite, storedFiles, tabTo, unstyledContent, watchStyles } from './lib/career-hub.mjs';
import { gatewayAvailable } from './lib/site.mjs';

const EMAIL = 'robin.tester@example.com';
const PASSWORD = 'robin-pass-2026';
const NEW_PASSWORD = 'robin-new-pass-2026';
const NAME = 'Robin Tester';
const JOB = { id: "md5('demo-job-PPR-1002')::uuid", title: 'Asset Manager - Logistics' };
const JOB2 = { id: "md5('demo-job-PPR-1001')::uuid", title: 'Head of Development' };
const skip = !gatewayAvailable() && 'needs the gateway (run under scripts/with-test-db.sh)';

let site;
let browser;
let page;
let files;
const sql = (q) => site.sql(q);

describe('Career Hub', { skip }, () => {
  before(async () => {
    site = await startCareerHubSite();
    browser = await launch({ acceptDownloads: true });
    page = await browser.page(DESKTOP);
    page.setDefaultTimeout(10000);
    await watchStyles(page);
    files = mkdtempSync(join(tmpdir(), 'career-hub-files-'));
  });
  after(async () => {
    await browser?.close();
    await site?.stop();
    if (files) rmSync(files, { recursive: true, force: true });
  });

  const toast = () => page.getByTestId('toast');
  const field = (label, n = 0) => page.getByLabel(label, { exact: true }).nth(n);
  const signedOut = () => page.waitForFunction(() => !Object.keys(localStorage).some((k) => k.endsWith('-auth-token')));
  // By its state: "Not saved yet" also contains the text "Saved".
  const saveStatus = (state) => page.locator(`[data-testid="save-status"][data-status="${state}"]`);
  const noOverflow = (p) => p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  const noindex = async (p, path) => {
    const robots = await robotsOf(p, path);
    assert.ok(robots.length > 0 && robots.every((r) => r.includes('noindex')), `${path} robots: ${robots}`);
  };

  test('signed out: the dashboard and the builder send to the login page, The CV Shed opens; login at 1440 with Sign Up', async () => {
    for (const path of ['/career-hub/dashboard', '/career-hub/cv-builder']) {
      await page.goto(site.url + path, { waitUntil: 'networkidle' });
      await page.waitForURL((u) => u.pathname === '/career-hub/login');
      assert.equal(new URL(page.url()).searchParams.get('next'), path);
      await page.getByRole('tab', { name: 'Login' }).waitFor();
    }
    await page.goto(`${site.url}/career-hub/templates`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1, name: 'The CV Shed' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/career-hub/templates');
    await noindex(page, '/career-hub/templates');
    assert.deepEqual(await unstyledContent(page), []);

    await page.goto(`${site.url}/career-hub/login`, { waitUntil: 'networkidle' });
    await noindex(page, '/career-hub/login');
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    assert.equal(await page.getByRole('tab', { name: 'Sign Up' }).getAttribute('aria-selected'), 'true');
    await field('Full Name').waitFor();
    await page.getByRole('button', { name: 'Create Account' }).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    assert.ok(await noOverflow(page), 'the login page overflows at 1440');
    assert.deepEqual(await unstyledContent(page), []);
    assert.deepEqual(page.errors, []);
  });

  test('sign up, open the confirmation link from the mail folder, and land on the dashboard greeted by name', async () => {
    await page.goto(`${site.url}/career-hub/login`, { waitUntil: 'networkidle' });
    assert.equal(await page.getByRole('link', { name: '← Back to Career Hub' }).getAttribute('href'), '/career-hub');
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await field('Full Name').fill(NAME);
    await field('Email').fill(EMAIL);
    await field('Password').fill('short');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('alert').filter({ hasText: 'at least 6 characters' }).waitFor();
    assert.equal(await field('Password').getAttribute('placeholder'), 'Minimum 6 characters');
    await field('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await toast().filter({ hasText: 'Account created!' }).filter({ hasText: 'Please check your email to verify your account.' }).waitFor();
    const link = await mailLink(site.mailDir, EMAIL, 'verify');
    await page.goto(link);
    await page.waitForURL(/\/career-hub\/dashboard#?$/);
    await page.getByRole('heading', { name: `Welcome back, ${NAME}!` }).waitFor();
    await page.getByText('Free Account').waitFor();
    await page.getByText("You haven't created any CVs yet").waitFor();
    assert.equal(await page.getByRole('button', { name: 'Coming Soon' }).isDisabled(), true);
    assert.equal(await sql(`select raw_user_meta_data->>'full_name' from auth.users where email = '${EMAIL}'`), NAME);
    assert.deepEqual(page.errors, []);
  });

  test('build a CV across the five steps with two positions and two qualifications; reload and a refused save lose nothing', async () => {
    await page.goto(`${site.url}/career-hub/cv-builder`, { waitUntil: 'networkidle' });
    await page.getByText('Step 1 of 5').waitFor();
    await page.getByText('20% complete').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Back' }).isDisabled(), true);
    assert.equal(await sql(`select count(*) from public.cv_documents c join auth.users u on u.id = c.user_id where u.email = '${EMAIL}'`), '0', 'no CV before the first edit');
    await field('Full Name *').fill(NAME);
    await field('Email *').fill(EMAIL);
    await field('Phone').fill('07700 900999');
    await field('Location').fill('Bristol');
    await page.waitForURL(/\?id=/);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 2 of 5').waitFor();
    await page.getByText('40% complete').waitFor();
    assert.equal(await field('Professional Summary').getAttribute('rows'), '6');
    await field('Professional Summary').fill('Development manager delivering residential-led schemes.');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('60% complete').waitFor();
    await field('Job Title *').fill('Development Manager');
    await field('Company *').fill('Brunel Homes');
    await field('Start Date').fill('2021-03');
    assert.equal(await field('Description').getAttribute('rows'), '4');
    await field('Description').fill('Led planning and delivery of 400 homes.');

    // An empty End Date shows 'Present' (the spec's placeholder, which Chromium does not draw on a month input) in
    // the field and the preview; with the focus, the picker's own segments. A half-entered month is an error.
    const present = page.getByTestId('month-empty');
    assert.equal(await field('End Date').inputValue(), '');
    assert.equal(await present.innerText(), 'Present');
    const [box, shown] = [await field('End Date').boundingBox(), await present.boundingBox()];
    assert.ok(shown.x > box.x && shown.x + shown.width < box.x + box.width && shown.y > box.y && shown.y + shown.height < box.y + box.height, 'Present sits inside the End Date field');
    await page.getByTestId('cv-preview').getByText('Brunel Homes  |  Mar 2021 – Present').waitFor();
    await field('End Date').focus();
    assert.equal(await present.isVisible(), false);
    await page.keyboard.type('04'); // the month only
    await field('Description').focus();
    await page.getByRole('alert').filter({ hasText: 'Enter both the month and the year of the end date of position 1, or clear it to show Present' }).waitFor();
    assert.equal(await field('End Date').getAttribute('aria-invalid'), 'true');
    assert.equal(await present.count(), 0);
    await field('End Date').fill(''); // cleared again
    await field('Description').focus();
    await present.waitFor();
    assert.equal(await field('End Date').getAttribute('aria-invalid'), null);
    assert.equal(await present.isVisible(), true);

    await page.getByRole('button', { name: '+ Add Another Position' }).click();
    await field('Job Title *', 1).fill('Assistant Development Manager');
    await field('Company *', 1).fill('Severn Living');
    await field('Start Date', 1).fill('2017-09');
    await field('End Date', 1).fill('2021-02');
    await saveStatus('saved').waitFor();

    // The next save is refused once: the status says so, the retry stores the text.
    let refused = 0;
    await page.route('**/rest/v1/cv_documents**', async (route) => {
      if (refused === 0 && route.request().method() === 'PATCH') {
        refused += 1;
        return route.fulfill({ status: 503, contentType: 'application/json', body: '{"code":"PGRST000","message":"refused by the test"}' });
      }
      return route.continue();
    });
    await field('Description', 1).fill('Supported land acquisition and viability.');
    await saveStatus('error').filter({ hasText: 'Not saved yet' }).waitFor();
    await saveStatus('saved').waitFor({ timeout: 15000 });
    assert.equal(refused, 1);
    await page.unroute('**/rest/v1/cv_documents**');
    const cvId = new URL(page.url()).searchParams.get('id');
    const stored = (q) => sql(`select data${q} from public.cv_documents where id = '${cvId}'`);
    assert.equal(stored(`->'experience'->1->>'description'`), 'Supported land acquisition and viability.');

    // A reload before the server has acknowledged an edit (every save refused meanwhile): the browser's local copy
    // brings the text back, and it is saved once the server answers again.
    await page.route('**/rest/v1/cv_documents**', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"code":"PGRST000","message":"refused by the test"}' })
        : route.continue(),
    );
    await field('Description').fill('Led planning and delivery of 400 homes across three sites.');
    await page.waitForFunction(() => Object.values(localStorage).some((v) => v.includes('across three sites')));
    await page.reload({ waitUntil: 'networkidle' });
    await page.getByText('Step 3 of 5').waitFor();
    assert.equal(await field('Description').inputValue(), 'Led planning and delivery of 400 homes across three sites.');
    assert.equal(stored(`->'experience'->0->>'description'`), 'Led planning and delivery of 400 homes.', 'the server never had the edit');
    await saveStatus('error').waitFor();
    await page.unroute('**/rest/v1/cv_documents**');
    await saveStatus('saved').waitFor({ timeout: 15000 });
    assert.equal(stored(`->'experience'->0->>'description'`), 'Led planning and delivery of 400 homes across three sites.');
    page.errors = page.errors.filter((e) => !e.includes('503')); // the refused requests themselves
    assert.equal(await field('Company *').inputValue(), 'Brunel Homes');
    assert.equal(await field('Company *', 1).inputValue(), 'Severn Living');
    assert.equal(await field('End Date', 1).inputValue(), '2021-02');
    assert.equal(await field('Description', 1).inputValue(), 'Supported land acquisition and viability.');
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('button', { name: 'Back' }).click();
    assert.equal(await field('Location').inputValue(), 'Bristol');
    await page.getByRole('button', { name: 'Next' }).click();
    assert.equal(await field('Professional Summary').inputValue(), 'Development manager delivering residential-led schemes.');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 4 of 5').waitFor();
    await field('Degree/Qualification *').fill('MSc Real Estate Development');
    await field('Institution *').fill('University of Bristol');
    await field('Year').fill('2017');
    await page.getByRole('button', { name: '+ Add Another Qualification' }).click();
    await field('Degree/Qualification *', 1).fill('BA Geography');
    await field('Year', 1).fill('2015');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 5 of 5').waitFor();
    await page.getByText('100% complete').waitFor();
    await field('Skills').fill('Development appraisal, planning, Argus Developer');
    assert.equal(await page.getByRole('button', { name: 'Next' }).count(), 0);

    // Complete with a required field missing points at it.
    await page.getByRole('button', { name: 'Complete' }).click();
    await page.getByRole('alert').filter({ hasText: 'Enter the institution of entry 2' }).waitFor();
    await page.getByText('Step 4 of 5').waitFor();
    assert.equal(await field('Institution *', 1).getAttribute('aria-invalid'), 'true');
    await page.getByRole('link', { name: 'Education: Enter the institution of entry 2' }).click();
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-invalid')), 'true');
    await page.keyboard.type('University of Leeds');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Complete' }).click();
    await toast().filter({ hasText: 'CV Saved' }).filter({ hasText: 'Your CV has been saved successfully.' }).waitFor();
    await page.waitForURL(/\/career-hub\/dashboard#?$/);
    await page.getByTestId('my-cvs').getByRole('link', { name: 'My CV' }).waitFor();
    assert.deepEqual(page.errors, []);
  });

  test('the PDF has the CV as text in reading order; JSON Resume export and import give an equal CV', async () => {
    await page.getByTestId('my-cvs').getByRole('link', { name: 'My CV' }).click();
    await page.getByTestId('cv-preview').getByText('Brunel Homes').waitFor();
    await page.getByRole('radio', { name: 'Executive' }).check();
    await page.locator('.cv-paper--executive').waitFor();
    await page.emulateMedia({ media: 'print' }); // Print: only the CV page
    assert.equal(await page.locator('.site-header').isVisible(), false);
    assert.equal(await page.locator('.wizard').isVisible(), false);
    assert.equal(await page.getByTestId('cv-preview').isVisible(), true);
    await page.emulateMedia({ media: 'screen' });
    const pdf = await download(page, () => page.getByRole('button', { name: 'Download PDF' }).click(), files);
    const text = pdfText(pdf);
    const at = (s) => text.indexOf(s);
    for (const s of [NAME, 'Brunel Homes', 'Severn Living', 'Mar 2021 – Present', 'University of Leeds', 'Argus Developer']) assert.ok(at(s) >= 0, `${s} in:\n${text}`);
    assert.ok(at(NAME) < at('Brunel Homes') && at('Brunel Homes') < at('Severn Living'), `reading order:\n${text}`);
    assert.match(readFileSync(pdf, 'latin1'), /\/FontFile2/, 'the font is embedded');
    assert.match(readFileSync(pdf, 'latin1'), /\/MediaBox \[0 0 595\.2/, 'A4');

    // A CV over several pages: no entry is cut by a page break (its first and last lines share a page).
    const uid = sql(`select id from auth.users where email = '${EMAIL}'`);
    const long = sql(`insert into public.cv_documents (user_id, title, data) select '${uid}', 'Long CV', jsonb_build_object(
      'personalInfo', jsonb_build_object('fullName', 'Long Writer', 'email', 'long@example.com'), 'template', 'professional',
      'experience', (select jsonb_agg(jsonb_build_object('id', 'e' || i, 'title', 'Role ' || i, 'company', 'Company ' || i,
        'description', repeat('Delivered projects across the region. ', 14) || E'\\nEnd of entry ' || i || '.') order by i)
        from generate_series(1, 14) i)) returning id`).split('\n')[0];
    await page.goto(`${site.url}/career-hub/cv-builder?id=${long}`, { waitUntil: 'networkidle' });
    await page.getByTestId('cv-preview').getByText('Company 14').waitFor();
    const longPdf = await download(page, () => page.getByRole('button', { name: 'Download PDF' }).click(), files);
    const pages = pdfText(longPdf).split('\f').filter((t) => t.trim());
    assert.ok(pages.length >= 2, `several pages: ${pages.length}`);
    for (let i = 1; i <= 14; i++) {
      const where = (s) => pages.findIndex((t) => t.includes(s));
      const [top, end] = [where(`Role ${i}\n`), where(`End of entry ${i}.`)];
      assert.ok(top >= 0 && top === end, `entry ${i} is on one page (${top}, ${end}):\n${pages.join('\n----\n')}`);
    }
    sql(`delete from public.cv_documents where id = '${long}'`);
    await page.goBack({ waitUntil: 'networkidle' });

    const json = await download(page, () => page.getByRole('button', { name: 'Export JSON Resume' }).click(), files);
    const resume = JSON.parse(readFileSync(json, 'utf8'));
    assert.equal(resume.basics.name, NAME);
    assert.deepEqual(resume.work.map((w) => w.name), ['Brunel Homes', 'Severn Living']);
    const firstId = new URL(page.url()).searchParams.get('id');
    await page.getByTestId('import-json').setInputFiles(json);
    await toast().filter({ hasText: 'CV imported' }).waitFor();
    await page.waitForURL((u) => u.searchParams.get('id') && u.searchParams.get('id') !== firstId);
    const secondId = new URL(page.url()).searchParams.get('id');
    const shape = `jsonb_build_object('personalInfo', data->'personalInfo', 'summary', data->'summary', 'skills', data->'skills',
      'template', data->'template', 'experience', (select jsonb_agg(e - 'id') from jsonb_array_elements(data->'experience') e),
      'education', (select jsonb_agg(e - 'id') from jsonb_array_elements(data->'education') e))::text`;
    const [a, b] = [firstId, secondId].map((id) => sql(`select ${shape} from public.cv_documents where id = '${id}'`));
    assert.deepEqual(JSON.parse(b), JSON.parse(a));

    const bad = join(files, 'not-a-resume.json');
    (await import('node:fs')).writeFileSync(bad, '[1, 2, 3]');
    await page.getByTestId('import-json').setInputFiles(bad);
    await page.getByRole('alert').filter({ hasText: 'could not be imported' }).waitFor();

    // A JSON Resume from elsewhere: year-only dates, keywords, highlights, a section the builder does not edit.
    const foreign = join(files, 'foreign.json');
    (await import('node:fs')).writeFileSync(foreign, JSON.stringify({
      basics: { name: 'Ali Import', label: 'Planner', location: { city: 'York', countryCode: 'GB' }, profiles: [{ network: 'LinkedIn', username: 'ali' }] },
      work: [{ name: 'Ouse Planning', position: 'Planner', startDate: '2018', highlights: ['Won appeals'] }],
      education: [{ institution: 'University of York', studyType: 'MA', area: 'Planning', endDate: '2017-06-30' }],
      skills: [{ name: 'Planning', keywords: ['Appeals', 'Section 106'] }],
      volunteer: [{ organization: 'Civic Trust', position: 'Trustee' }],
    }));
    await page.getByTestId('import-json').setInputFiles(foreign);
    await page.getByTestId('cv-preview').getByText('Ali Import').waitFor();
    const foreignId = new URL(page.url()).searchParams.get('id');
    const stored = JSON.parse(sql(`select data::text from public.cv_documents where id = '${foreignId}'`));
    assert.deepEqual(
      [stored.personalInfo.location, stored.experience[0].startDate, stored.experience[0].description, stored.education[0].degree, stored.education[0].year, stored.skills],
      ['York, GB', '2018-01', '• Won appeals', 'MA Planning', '2017', 'Planning, Appeals, Section 106'],
    );
    assert.deepEqual(stored.extras, { volunteer: [{ organization: 'Civic Trust', position: 'Trustee' }], basics: { label: 'Planner', profiles: [{ network: 'LinkedIn', username: 'ali' }] } });
    assert.deepEqual(page.errors, []);
  });

  test('Save Job on a job page and two applications made while signed in show on the dashboard, newest first', async () => {
    const pdf = join(files, (await import('node:fs')).readdirSync(files).find((f) => f.endsWith('.pdf')));
    const apply = async () => {
      await page.getByRole('button', { name: 'Apply Now' }).click();
      const dialog = page.getByTestId('application-dialog');
      await dialog.locator('#apply-first').fill('Robin');
      await dialog.locator('#apply-last').fill('Tester');
      await dialog.locator('#apply-email').fill(EMAIL);
      await dialog.locator('#apply-phone').fill('07700 900999');
      await dialog.locator('#apply-cv').setInputFiles(pdf);
      await dialog.locator('#apply-consent').check();
      await dialog.getByRole('button', { name: /Submit/ }).click();
      await toast().filter({ hasText: 'Application submitted successfully!' }).waitFor();
    };
    const jobId = sql(`select ${JOB.id}`);
    await page.goto(`${site.url}/jobs/${jobId}`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Save Job' }).click();
    await toast().filter({ hasText: 'Job saved' }).waitFor();
    await apply();
    assert.equal(storedFiles(site.storageDir), 1, 'the CV file is stored');
    await page.goto(`${site.url}/jobs/${sql(`select ${JOB2.id}`)}`, { waitUntil: 'networkidle' });
    await apply();
    assert.equal(storedFiles(site.storageDir), 2);

    await page.goto(`${site.url}/career-hub/dashboard`, { waitUntil: 'networkidle' });
    await page.getByTestId('saved-jobs').getByRole('link', { name: JOB.title }).waitFor();
    const applications = page.getByTestId('my-applications');
    await applications.getByRole('link', { name: JOB.title }).waitFor();
    // Newest first: the later application (JOB2) above the earlier one, though its title sorts after it.
    assert.deepEqual(await applications.locator('.dash-list__title').allInnerTexts(), [JOB2.title, JOB.title]);

    // The saved job closes: it is marked Closed and no longer linked, here and in My Applications.
    sql(`update public.jobs set status = 'closed' where id = ${JOB.id}`);
    await page.reload({ waitUntil: 'networkidle' });
    const saved = page.getByTestId('saved-jobs').getByRole('listitem').filter({ hasText: JOB.title });
    await saved.getByText('Closed', { exact: true }).waitFor();
    assert.equal(await saved.getByRole('link').count(), 0);
    const applied = applications.getByRole('listitem').filter({ hasText: JOB.title });
    await applied.getByText('Closed', { exact: true }).waitFor();
    assert.equal(await applications.getByRole('listitem').filter({ hasText: JOB2.title }).getByText('Closed', { exact: true }).count(), 0);
    assert.deepEqual(await axeViolations(page), []);
    sql(`update public.jobs set status = 'active' where id = ${JOB.id}`);
    await page.reload({ waitUntil: 'networkidle' });
    await page.getByTestId('saved-jobs').getByRole('link', { name: JOB.title }).waitFor();

    // My CVs: rename, duplicate, delete (confirmed).
    const cvs = page.getByTestId('my-cvs');
    await cvs.getByRole('button', { name: 'Rename My CV' }).first().click();
    await page.getByLabel('CV name').fill('Development CV');
    await page.getByRole('button', { name: 'Save name' }).click();
    await cvs.getByRole('link', { name: 'Development CV' }).waitFor();
    await cvs.getByRole('button', { name: 'Duplicate Development CV' }).click();
    await cvs.getByRole('link', { name: 'Copy of Development CV' }).waitFor();
    await cvs.getByRole('button', { name: 'Delete Copy of Development CV' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete CV' }).click();
    await toast().filter({ hasText: 'CV deleted' }).waitFor();
    await cvs.getByRole('link', { name: 'Copy of Development CV' }).waitFor({ state: 'detached' });
    assert.equal(await cvs.getByText(/^Last edited \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}$/).count(), 3);
    assert.deepEqual(page.errors, []);
  });

  test('every Career Hub page: axe-clean, no horizontal overflow at 1440 and 390 px, noindex, styled from its first paint', async () => {
    const cv = sql(`select c.id from public.cv_documents c join auth.users u on u.id = c.user_id where u.email = '${EMAIL}' limit 1`);
    // The builder's first step for a new CV too, in each template: the preview's 'Your Name' placeholder (issue 30 #11).
    const newCv = ['professional', 'executive', 'minimalist'].map((t) => `/career-hub/cv-builder?template=${t}`);
    const paths = ['/career-hub/dashboard', `/career-hub/cv-builder?id=${cv}`, ...newCv, '/career-hub/templates', '/career-hub/reset-password'];
    for (const viewport of [DESKTOP, MOBILE]) {
      const p = await browser.page(viewport);
      await watchStyles(p);
      for (const path of paths) {
        await p.goto(site.url + path, { waitUntil: 'networkidle' });
        await p.locator('main h1').first().waitFor();
        if (newCv.includes(path)) await p.locator('.cv-paper__placeholder').waitFor();
        assert.deepEqual(await axeViolations(p), [], `${path} at ${viewport.width}`);
        assert.ok(await noOverflow(p), `${path} overflows at ${viewport.width}`);
        await noindex(p, path.split('?')[0]);
        assert.deepEqual(await unstyledContent(p), [], `${path}: content before its stylesheet`);
      }
      await p.close();
    }
  });

  test('keyboard only: a new CV through all five steps, an entry moved up, Complete', async () => {
    const p = await browser.page(MOBILE);
    await p.goto(`${site.url}/career-hub/cv-builder`, { waitUntil: 'networkidle' });
    await tabTo(p, '#cv-full-name');
    await p.keyboard.type('Kim Keys');
    await p.keyboard.press('Tab');
    await p.keyboard.type('kim@example.com');
    await p.keyboard.press('Enter'); // Next
    await p.getByText('Step 2 of 5').waitFor();
    await tabTo(p, 'textarea');
    await p.keyboard.type('Surveyor.');
    await tabTo(p, 'button[type=submit]');
    await p.keyboard.press('Enter');
    await p.getByText('Step 3 of 5').waitFor();
    await tabTo(p, 'input[id$="-title"]');
    await p.keyboard.type('Surveyor');
    await p.keyboard.press('Tab');
    await p.keyboard.type('First Co');
    await tabTo(p, '[data-add=experience]');
    await p.keyboard.press('Enter');
    await p.keyboard.type('Senior Surveyor'); // focus moved to the new position's title
    await p.keyboard.press('Tab');
    await p.keyboard.type('Second Co');
    await tabTo(p, '[aria-label="Move position 2 up"]', { back: true });
    await p.keyboard.press('Enter');
    await p.getByText('Position 2 moved to place 1').waitFor();
    assert.equal(await p.getByLabel('Company', { exact: false }).first().inputValue(), 'Second Co');
    await tabTo(p, 'button[type=submit]');
    await p.keyboard.press('Enter');
    await p.getByText('Step 4 of 5').waitFor();
    await tabTo(p, '[aria-label="Remove qualification 1"]');
    await p.keyboard.press('Enter');
    await tabTo(p, 'button[type=submit]');
    await p.keyboard.press('Enter');
    await p.getByText('Step 5 of 5').waitFor();
    await tabTo(p, 'textarea');
    await p.keyboard.type('Measured surveys');
    await tabTo(p, 'button[type=submit]');
    await p.keyboard.press('Enter'); // Complete
    await p.getByTestId('toast').filter({ hasText: 'CV Saved' }).waitFor();
    await p.waitForURL(/\/career-hub\/dashboard#?$/);
    assert.deepEqual(p.errors, []);
    await p.close();
  });

  test('Save Draft keeps a draft and goes to the dashboard', async () => {
    await page.goto(`${site.url}/career-hub/cv-builder?template=minimalist`, { waitUntil: 'networkidle' });
    await page.locator('.cv-paper--minimalist').waitFor();
    await field('Full Name *').fill('Draft Only');
    await page.getByRole('button', { name: 'Save Draft' }).click();
    await toast().filter({ hasText: 'CV Saved' }).filter({ hasText: 'Your CV has been saved successfully.' }).waitFor();
    await page.waitForURL(/\/career-hub\/dashboard#?$/);
    assert.equal(sql(`select data->>'template' from public.cv_documents where data->'personalInfo'->>'fullName' = 'Draft Only'`), 'minimalist');
  });

  test('sign out to /career-hub; forgot password: the mailed link opens the reset page, the new password signs in', async () => {
    await page.goto(`${site.url}/career-hub/dashboard`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(/\/career-hub$/);
    await signedOut();
    await page.goto(`${site.url}/career-hub/login`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await field('Email').fill(EMAIL);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await toast().filter({ hasText: 'Check your email' }).waitFor();
    await page.goto(await mailLink(site.mailDir, EMAIL, 'recovery'));
    await page.waitForURL(/\/career-hub\/reset-password/);
    await field('New password').fill(NEW_PASSWORD);
    await field('Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL(/\/career-hub\/dashboard#?$/);
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(/\/career-hub$/);
    await signedOut();
    await page.goto(`${site.url}/career-hub/login?next=${encodeURIComponent('//evil.example/x')}`, { waitUntil: 'networkidle' });
    await field('Email').fill(EMAIL);
    await field('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await toast().filter({ hasText: 'Welcome back!' }).filter({ hasText: "You've successfully logged in." }).waitFor();
    await page.waitForURL(`${site.url}/career-hub/dashboard`); // never the other origin of ?next=
    assert.deepEqual(page.errors, []);
  });

  test('a CV past the account\'s limit is refused with the reason and kept on the device, not retried', async () => {
    const count = () => sql(`select count(*) from public.cv_documents c join auth.users u on u.id = c.user_id where u.email = '${EMAIL}'`);
    const held = count();
    sql(`insert into private.settings (key, value) values ('limit:cv_documents_per_user', '${held}')`);
    try {
      await page.goto(`${site.url}/career-hub/cv-builder`, { waitUntil: 'networkidle' });
      await field('Full Name *').fill('One Too Many');
      await saveStatus('refused').filter({ hasText: `Not saved: You can keep up to ${held} CVs: delete one to create another` }).waitFor();
      await page.waitForTimeout(2500); // past the first retry's back-off: nothing is sent again
      assert.equal(await saveStatus('refused').count(), 1);
      assert.equal(count(), held);
      assert.ok(await page.evaluate(() => Object.keys(localStorage).some((k) => localStorage.getItem(k)?.includes('One Too Many'))), 'the local copy keeps it');
    } finally {
      sql(`delete from private.settings where key = 'limit:cv_documents_per_user'`);
    }
  });

  test('download my data, then delete the account: sign-in fails and the rows and the CV file are gone', async () => {
    await page.goto(`${site.url}/career-hub/dashboard`, { waitUntil: 'networkidle' });
    const exported = JSON.parse(readFileSync(await download(page, () => page.getByRole('button', { name: 'Download my data' }).click(), files), 'utf8'));
    assert.equal(exported.account.email, EMAIL);
    assert.equal(exported.account.full_name, NAME);
    assert.equal(exported.cv_documents.length, 5);
    assert.deepEqual(exported.saved_jobs.map((j) => j.title), [JOB.title]);
    assert.deepEqual(exported.applications.map((a) => a.job_title), [JOB2.title, JOB.title]);

    await page.getByRole('button', { name: `Remove ${JOB.title} from saved jobs` }).click();
    await page.getByText('No saved jobs yet.').waitFor();
    const uid = sql(`select id from auth.users where email = '${EMAIL}'`);
    assert.equal(sql(`select count(*) from public.saved_jobs where user_id = '${uid}'`), '0', 'Remove deletes the saved job');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const confirm = page.getByRole('dialog').getByRole('button', { name: 'Delete my account' });
    assert.equal(await confirm.isDisabled(), true);
    await page.getByLabel('Type DELETE to confirm').fill('DELETE');
    await confirm.click();
    await page.waitForURL(/\/career-hub$/);
    await toast().filter({ hasText: 'Account deleted' }).waitFor();

    for (const table of ['auth.users where id', 'public.cv_documents where user_id', 'public.saved_jobs where user_id', 'public.applications where user_id'])
      assert.equal(sql(`select count(*) from ${table} = '${uid}'`), '0', table);
    assert.equal(sql(`select count(*) from public.applications where email = '${EMAIL}'`), '0');
    assert.equal(sql(`select count(*) from storage.objects where bucket_id = 'cvs'`), '0');
    for (let i = 0; i < 50 && storedFiles(site.storageDir) > 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(storedFiles(site.storageDir), 0, 'the uploaded CV file is removed from disk');

    await page.goto(`${site.url}/career-hub/login`, { waitUntil: 'networkidle' });
    await field('Email').fill(EMAIL);
    await field('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await toast().filter({ hasText: 'Login failed' }).waitFor();
    await page.getByRole('alert').filter({ hasText: /invalid/i }).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    // Signed out: the login page (both tabs, forgot password) and the reset page at 390 px too.
    const p = await browser.page(MOBILE);
    await p.goto(`${site.url}/career-hub/login`, { waitUntil: 'networkidle' });
    assert.deepEqual(await axeViolations(p), []);
    await p.getByRole('tab', { name: 'Login' }).press('ArrowRight');
    await p.getByLabel('Full Name').waitFor();
    assert.deepEqual(await axeViolations(p), []);
    await p.getByRole('tab', { name: 'Login' }).click();
    await p.getByRole('button', { name: 'Forgot password?' }).click();
    assert.deepEqual(await axeViolations(p), []);
    assert.ok(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    await p.close();
  });
});
