// The firm's desk (issue 25) in a real browser against the gateway with the demo content: the demo candidate, signed
// in, applies to a job with a PDF CV; the admin sees it counted on the dashboard, finds it in /admin/applications,
// opens it (the CV drawn from a signed URL), moves it to Shortlisted with a note and the status e-mail — by keyboard
// only; the candidate's My Applications says "In review" and nothing of the note; the admin marks an enquiry
// handled; records a candidate's consent, makes links for two clients, each client opens theirs, one link is revoked
// and then shows the revoked page and records nothing; the analytics and the profile's row show the views per
// client. Then axe (WCAG 2.2 AA) on every new page at 1440 and 390 px (SCREENSHOTS_DIR=../docs writes docs/desk-*.png).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DESKTOP, MOBILE, launch } from './lib/browser.mjs';
import { VISITOR_UA, demoSeedSql, expectToast } from './lib/admin.mjs';
import { axeViolations, eventually, pdfWithText, signedInBrowser } from './lib/desk.mjs';
import { DEMO_USERS } from './lib/sign-in.mjs';
import { gatewayAvailable, startSite } from './lib/site.mjs';

const skip = gatewayAvailable() ? false : 'needs the gateway: run under scripts/with-test-db.sh (npm run e2e:gateway)';
const CLIENT_B_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const NOTE = 'Strong on asset management; check notice period';
const CV = pdfWithText(['Robin Tester', 'Senior Asset Manager', 'Logistics and industrial, 12 years']);

let site;
let admin;
let candidate;
const state = {};

before(async () => {
  if (skip) return;
  site = await startSite({ sql: demoSeedSql() });
  admin = await signedInBrowser(site, DEMO_USERS.admin);
  candidate = await signedInBrowser(site, DEMO_USERS.candidate, { userAgent: VISITOR_UA });
});
after(async () => {
  await admin?.close();
  await candidate?.close();
  await site?.stop();
});

const count = (sql) => Number(site.sql(sql));

describe('the firm\'s desk', { skip }, () => {
  test('a signed-in candidate applies to a job with a PDF CV', async () => {
    const page = await candidate.page(DESKTOP);
    state.job = site.sql("select id || '|' || title from public.jobs where status = 'active' order by posted_date desc limit 1").split('|');
    await page.goto(`${site.url}/jobs/${state.job[0]}`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Apply Now' }).click();
    const dialog = page.getByTestId('application-dialog');
    await dialog.locator('#apply-first').fill('Robin');
    await dialog.locator('#apply-last').fill('Tester');
    await dialog.locator('#apply-email').fill(DEMO_USERS.candidate.email);
    await dialog.locator('#apply-phone').fill('+44 7700 900123');
    await dialog.locator('#apply-cover').fill('I manage a £750m logistics portfolio.');
    await dialog.locator('#apply-cv').setInputFiles({ name: 'Robin Tester CV.pdf', mimeType: 'application/pdf', buffer: CV });
    await dialog.locator('#apply-consent').check();
    await dialog.getByRole('button', { name: /Submit/ }).click();
    await page.getByTestId('toast').filter({ hasText: 'Application submitted successfully!' }).waitFor();
    state.applicationId = site.sql("select id from public.applications where last_name = 'Tester'");
    assert.match(state.applicationId, /^[0-9a-f-]{36}$/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the admin finds it, opens the CV and moves it to Shortlisted with a note, by keyboard', async () => {
    const page = await admin.page(DESKTOP);
    await page.goto(`${site.url}/admin`, { waitUntil: 'networkidle' });
    await page.getByTestId('new-applications').filter({ hasText: '1 new application' }).waitFor();
    await page.getByRole('banner').getByRole('link', { name: 'Applications' }).first().click();
    await page.waitForURL(`${site.url}/admin/applications`);
    await page.getByTestId('application-row').first().waitFor();
    assert.equal((await page.getByTestId('status-tab-new').innerText()).replace(/\s+/g, ' '), 'New 1', 'the count per status');
    await page.getByLabel('Search by name or e-mail').fill('TESTER');
    await page.waitForURL(/q=TESTER/);
    const row = page.getByTestId('application-row');
    assert.equal(await row.count(), 1);
    assert.equal(await row.getByRole('link', { name: state.job[1] }).getAttribute('href'), `/jobs/${state.job[0]}`, 'the job is linked');
    await row.getByRole('link', { name: 'Robin Tester' }).click();
    await page.waitForURL(`${site.url}/admin/applications/${state.applicationId}`);

    // The CV: drawn in the page from a signed URL, its text readable.
    await page.locator('[data-testid=cv-pages] canvas').first().waitFor();
    const inked = await page.locator('[data-testid=cv-pages] canvas').first().evaluate((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let dark = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] < 128 && d[i + 3] > 0) dark++;
      return dark;
    });
    assert.ok(inked > 100, `the page is drawn (${inked} dark pixels)`);
    await page.getByText('Text of the CV').click();
    assert.match(await page.getByTestId('cv-text').innerText(), /Robin Tester\s+Senior Asset Manager/);
    assert.equal(await page.getByTestId('cover-letter').innerText(), 'I manage a £750m logistics portfolio.');
    const requested = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.reload({ waitUntil: 'networkidle' });
    await page.locator('[data-testid=cv-pages] canvas').first().waitFor();
    assert.ok(requested.some((u) => u.includes('/storage/v1/object/sign/cvs/')), 'the CV comes through a signed URL');
    assert.ok(!requested.some((u) => u.includes('/object/public/')), 'never a public one');

    // Keyboard only: the status, the note, the e-mail box, the button.
    const form = page.getByTestId('progress').getByTestId('status-change');
    await form.getByLabel('Move to').focus();
    await page.keyboard.type('Sh');
    await page.keyboard.press('Tab');
    await page.keyboard.type(NOTE);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    for (let i = 0; i < 4 && !(await form.getByRole('button', { name: 'Change status' }).evaluate((b) => b === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await expectToast(page, 'Status changed 1 application moved, 1 applicant e-mailed');
    await page.getByTestId('progress').getByText('Shortlisted', { exact: true }).waitFor();
    assert.equal(await page.getByTestId('candidate-sees').innerText(), 'The candidate sees: In review');
    assert.equal(await page.getByTestId('note').first().locator('.desk-notes__body').innerText(), NOTE);
    assert.match(await page.getByTestId('history-entry').innerText(), /New → Shortlisted[\s\S]*applicant e-mailed/);

    const mail = site.sql("select subject || '|' || body_text from gateway.outbox where to_address = 'candidate@example.com' and subject like '%shortlisted%'");
    assert.match(mail, /^Your application for .+: shortlisted\|Hello Robin,/);
    assert.ok(!mail.includes('asset management;'), 'the e-mail never carries the note');
    assert.equal(count("select count(*) from public.audit_log where table_name = 'application_pipeline' and actor_id = '5eed0000-0000-4000-8000-000000000001'"), 1, 'the change is audited');

    // The list follows, and its CSV is formula-safe (a phone number starting with + is no formula).
    await page.getByRole('link', { name: 'Applications', exact: true }).first().click();
    await page.getByTestId('status-tab-shortlisted').click();
    await page.waitForURL(/status=shortlisted/);
    await page.getByTestId('application-row').getByText('Shortlisted').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = readFileSync(await download.path(), 'utf8').replace(/^\ufeff/, '').split('\r\n');
    assert.equal(csv[0], 'Applied,First Name,Last Name,Email,Phone,Job,Job Reference,Status,Candidate Sees,Consultant,CV File,Notes');
    assert.match(csv[1], /,Robin,Tester,candidate@example\.com,'\+44 7700 900123,.*,Shortlisted,In review,,Robin-Tester-CV\.pdf,1$/);
    assert.equal(csv.length, 3, 'one row and the closing line break');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the candidate sees "In review" in My Applications, and not the note', async () => {
    const page = await candidate.page(MOBILE);
    await page.goto(`${site.url}/career-hub/dashboard`, { waitUntil: 'networkidle' });
    const mine = page.getByTestId('my-applications').getByRole('listitem').filter({ hasText: state.job[1] });
    assert.equal(await mine.getByTestId('application-status').innerText(), 'In review');
    assert.ok(!(await page.locator('body').innerText()).includes('asset management'), 'no note on the page');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the admin marks an enquiry handled', async () => {
    const page = await admin.page(DESKTOP);
    await page.goto(`${site.url}/admin/enquiries`, { waitUntil: 'networkidle' });
    const row = page.getByTestId('enquiry-row').first();
    const name = await row.locator('.row-title').innerText();
    await row.getByRole('checkbox').check();
    await page.getByTestId('bulk-bar').getByRole('button', { name: 'Mark handled' }).click();
    await expectToast(page, 'Success 1 enquiry marked handled');
    const adminName = site.sql("select raw_user_meta_data ->> 'full_name' from auth.users where email = 'admin@example.com'");
    assert.equal(await page.getByTestId('enquiry-row').filter({ hasText: name }).getByTestId('enquiry-handled').innerText(), `Handled by ${adminName}`);
    await page.getByRole('link', { name }).click();
    await page.getByTestId('handling').getByRole('button', { name: 'Mark unhandled' }).waitFor();
    assert.equal(site.sql(`select handled_by from public.enquiries where name = '${name.replace(/'/g, "''")}'`), '5eed0000-0000-4000-8000-000000000001');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('consent, a link for each of two clients, a revoked link records nothing, views per client', async () => {
    const page = await admin.page(DESKTOP);
    await page.goto(`${site.url}/admin/candidates`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Share CAND-2001 with a client' }).click();
    const dialog = page.getByTestId('sharing-dialog');
    const said = (text) => dialog.getByTestId('share-message').filter({ hasText: text }).waitFor();
    await dialog.getByTestId('links-need-consent').waitFor();
    await dialog.getByLabel('How it was given').selectOption('phone');
    await dialog.getByLabel('Roles or clients it covers (optional)').fill('Development director roles in London');
    await dialog.getByRole('button', { name: 'Record consent' }).click();
    await said('Consent recorded');
    const links = {};
    for (const [name, company] of [['Jo Bloggs', 'Acme Homes'], ['Sam Smith', 'Beta Capital']]) {
      await dialog.getByLabel("Client's name").fill(name);
      await dialog.getByLabel('Company').fill(company);
      await dialog.getByRole('button', { name: 'Make link' }).click();
      await said(`Link made for ${company}`);
      links[company] = await dialog.getByTestId('new-link').getByRole('textbox').inputValue();
      assert.match(links[company], /\/profile\/client#[A-Za-z0-9_-]{43}$/);
    }
    assert.equal(await dialog.getByTestId('client-link').count(), 2, 'both links are listed');

    // Each client opens their own link: the profile, never the client's name; one view each, attributed.
    const slug = site.sql("select slug from public.candidate_profiles where candidate_id = 'CAND-2001'");
    for (const [company, ua] of [['Acme Homes', VISITOR_UA], ['Beta Capital', CLIENT_B_UA]]) {
      const browser = await launch({ userAgent: ua });
      const client = await browser.page(MOBILE);
      await client.goto(links[company], { waitUntil: 'networkidle' });
      await client.getByTestId('profile-badge').filter({ hasText: 'CAND-2001' }).waitFor();
      assert.match(await client.getByTestId('client-link-expiry').innerText(), /This link works until \d{1,2} \w+ \d{4}\./);
      const html = await client.content();
      assert.ok(!html.includes(company) && !html.includes('Olivia Bennett') && !html.includes(slug), 'no client, no candidate name, no slug');
      const views = () => count(`select count(*) from public.profile_views v join public.profile_client_links l on l.id = v.client_link_id where l.client_company = '${company}' and not v.is_bot`);
      assert.equal(await eventually(views, 1), 1, `${company}'s view is attributed to its link`);
      state[company] = { browser, client };
    }

    await dialog.getByTestId('client-link').filter({ hasText: 'Beta Capital' }).getByRole('button', { name: 'Revoke the link for Beta Capital' }).click();
    await said('The link for Beta Capital is revoked');
    assert.equal(await dialog.getByTestId('client-link').filter({ hasText: 'Beta Capital' }).getByTestId('link-state').innerText(), 'Revoked');
    const { browser, client } = state['Beta Capital'];
    await client.reload({ waitUntil: 'networkidle' });
    await client.getByTestId('client-link-revoked').getByRole('heading', { name: 'This Link Has Been Withdrawn' }).waitFor();
    assert.equal(await client.getByTestId('profile-sheet').count(), 0, 'no profile on the revoked page');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(count("select count(*) from public.profile_views v join public.profile_client_links l on l.id = v.client_link_id where l.client_company = 'Beta Capital'"), 1, 'the revoked link recorded nothing');
    assert.deepEqual(client.errors, []);
    state.revokedUrl = links['Beta Capital'];
    state.activeUrl = links['Acme Homes'];
    await browser.close();
    await state['Acme Homes'].browser.close();
    await dialog.getByRole('button', { name: 'Close dialog' }).click();

    // The profile's row names the clients who viewed; the analytics list the views per client.
    await page.getByTestId('candidate-row').filter({ hasText: 'CAND-2001' }).getByTestId('profile-clients').waitFor();
    assert.deepEqual(await page.getByTestId('candidate-row').filter({ hasText: 'CAND-2001' }).getByTestId('profile-clients').locator('li').allInnerTexts(), ['Beta Capital (1)', 'Acme Homes (1)']);
    await page.goto(`${site.url}/admin/candidates/analytics`, { waitUntil: 'networkidle' });
    const rows = page.getByTestId('client-views-row');
    await rows.first().waitFor();
    const seen = await rows.evaluateAll((trs) => trs.map((tr) => [tr.dataset.client, tr.querySelector('[data-testid=client-views-count]').textContent]));
    assert.deepEqual(seen.sort(), [['Acme Homes', '1'], ['Beta Capital', '1']]);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

// Every new page at both widths, and the pages that gained a part at 1440 (admin-a11y covers them whole at both):
// axe finds nothing, nothing scrolls sideways; screenshots on request.
const pages = [
  { name: 'desk-dashboard', path: () => '/admin', ready: '[data-testid=desk-cards] [data-testid=unhandled-enquiries]', widths: ['1440'] },
  { name: 'desk-applications', path: () => '/admin/applications', ready: '[data-testid=application-row]' },
  { name: 'desk-application', path: () => `/admin/applications/${state.applicationId}`, ready: '[data-testid=cv-pages] canvas' },
  { name: 'desk-status-emails', path: () => '/admin/applications/templates', ready: '[data-testid=template-placed]' },
  { name: 'desk-enquiries', path: () => '/admin/enquiries', ready: '[data-testid=enquiry-row]' },
  { name: 'desk-enquiry', path: () => `/admin/enquiries/${site.sql('select id from public.enquiries where handled limit 1')}`, ready: '[data-testid=handling]' },
  { name: 'desk-sharing', path: () => '/admin/candidates', ready: '[data-testid=candidate-row]', open: 'Share CAND-2001 with a client', openReady: '[data-testid=client-link]' },
  { name: 'desk-client-views', path: () => '/admin/candidates/analytics', ready: '[data-testid=client-views-row]', widths: ['1440'] },
  { name: 'desk-client-link', path: () => state.activeUrl.replace(site.url, ''), ready: '[data-testid=client-link-expiry]', visitor: true },
  { name: 'desk-client-link-revoked', path: () => state.revokedUrl.replace(site.url, ''), ready: '[data-testid=client-link-revoked]', visitor: true },
];

for (const [width, viewport] of [
  ['1440', DESKTOP],
  ['390', MOBILE],
]) {
  describe(`the desk's pages: axe at ${width} px`, { skip }, () => {
    for (const p of pages.filter((x) => !x.widths || x.widths.includes(width))) {
      test(p.name, async () => {
        const browser = p.visitor ? await launch({ userAgent: VISITOR_UA }) : admin;
        const page = await browser.page(viewport);
        await page.goto(site.url + p.path(), { waitUntil: 'networkidle' });
        await page.locator(p.ready).first().waitFor();
        if (p.open) {
          await page.getByRole('button', { name: p.open }).click();
          await page.locator(p.openReady).first().waitFor();
        }
        if (process.env.SCREENSHOTS_DIR) await page.screenshot({ path: join(process.env.SCREENSHOTS_DIR, `${p.name}-${width}.png`), fullPage: !p.open });
        assert.deepEqual(await axeViolations(page), []);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `no sideways scrolling (${overflow} px)`);
        assert.deepEqual(page.errors, []);
        await page.close();
        if (p.visitor) await browser.close();
      });
    }
  });
}
