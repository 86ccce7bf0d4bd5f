// Job alerts end to end against the gateway with the demo content, its outbox writing mail into a folder: a visitor
// creates an alert from a search, confirms it from the e-mail (double opt-in), the admin publishes a matching job in
// the editor, `make job-alerts` sends a digest that holds it (with RFC 8058 headers), the one-click unsubscribe stops
// the next digest while another alert still gets its own; the admin closes the job: 410, and it leaves the sitemap,
// the Indeed feed and the search. A signed-in candidate's alert is on at once and is listed, edited and deleted in the
// Career Hub dashboard. Without JavaScript, the form of the server's /jobs posts to the page and the alert is created
// and confirmed all the same. axe and no sideways scroll on the alert pages and the dashboard at 1440 and 390 px;
// SCREENSHOTS_DIR=../docs saves docs/jobs-*.png and docs/job-alert-*.png.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DESKTOP, MOBILE, launch } from './lib/browser.mjs';
import { DEMO_ADMIN, expectToast, signIn } from './lib/admin.mjs';
import { axeViolations, mailLink, startCareerHubSite } from './lib/career-hub.mjs';
import { signInSession, startSignedIn, DEMO_USERS } from './lib/sign-in.mjs';
import { gatewayAvailable, repoDir } from './lib/site.mjs';

const skip = gatewayAvailable() ? false : 'needs the gateway: run under scripts/with-test-db.sh (npm run e2e:gateway)';
const VISITOR = 'visitor.alerts@example.org';
const CONTROL = 'control.alerts@example.org';
const TITLE = 'Sustainability Director';

let site;
let browser;
before(async () => {
  if (skip) return;
  site = await startCareerHubSite();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

/** `make job-alerts` against the suite's database, as an operator runs it; returns its JSON. */
function makeJobAlerts(asOf) {
  const out = execFileSync('make', ['-s', 'job-alerts'], {
    cwd: repoDir,
    env: { ...process.env, GATEWAY_ADMIN_DB_URI: `postgres://postgres@127.0.0.1:${process.env.TEST_PGPORT}/${site.db}`, ...(asOf ? { AS_OF: asOf } : {}) },
    encoding: 'utf8',
  });
  return JSON.parse(out.trim());
}

/** The .eml files the outbox wrote to `to` whose text contains `marker`, waiting up to 10 s for at least `n`. */
async function mails(to, marker, n = 1) {
  for (let i = 0; i < 100; i++) {
    let found = [];
    try {
      found = readdirSync(site.mailDir)
        .filter((f) => f.endsWith('.eml'))
        .map((f) => readFileSync(join(site.mailDir, f), 'utf8'))
        .filter((m) => m.includes(`To: ${to}`) && m.includes(marker));
    } catch {
      // the folder appears with the first mail
    }
    if (found.length >= n) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  return [];
}

const shot = async (page, name) => {
  if (!process.env.SCREENSHOTS_DIR) return;
  // from the top: scrolled, the fixed header would be drawn over the middle of a full-page image
  await page.evaluate(() => window.scrollTo(0, 0));
  await settled(page);
  await page.screenshot({ path: join(process.env.SCREENSHOTS_DIR, `${name}.png`), fullPage: true });
};
const settled = (page) => page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
const noOverflow = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/**
 * Waits until React has taken over the alert form. The database's HTML holds the same form, which React replaces with
 * its own once the page's script runs (on a loaded machine after "networkidle"): what is typed before that is lost.
 */
async function alertFormReady(page) {
  await page.waitForFunction(() => !document.querySelector('[data-ssr-search]'), null, { timeout: 30000 });
  await page.getByLabel('E-mail address').waitFor();
}

/**
 * axe on the HTML a browser without JavaScript was shown (axe cannot run where JavaScript is off): served again at
 * the site's origin, so its styles apply, to a page whose scripts are blocked.
 */
async function axeWithoutScripts(html, viewport) {
  const page = await browser.page(viewport);
  await page.route('**/*.js', (r) => r.abort());
  await page.route(`${site.url}/nojs-snapshot`, (r) => r.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
  await page.goto(`${site.url}/nojs-snapshot`, { waitUntil: 'networkidle' });
  const violations = await axeViolations(page);
  await page.close();
  return violations;
}

/** A visitor creates an alert for a search and confirms it from the e-mail. */
async function signUpAndConfirm(page, email, search, frequency, label) {
  await page.goto(`${site.url}/jobs${search}`, { waitUntil: 'networkidle' });
  await alertFormReady(page);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('radio', { name: frequency }).check();
  await page.getByRole('checkbox', { name: /I agree to receive job alert e-mails/ }).check();
  await settled(page);
  await shot(page, `job-alert-form-${label}`);
  await page.getByRole('button', { name: 'Create alert' }).click();
  await page.getByTestId('alert-created').getByText(`we have sent a link to ${email}`).waitFor();
  const link = await mailLink(site.mailDir, email, 'Confirm your job alert');
  assert.match(link, /\/alerts\/confirm\?token=[0-9a-f]{64}$/);
  await page.goto(link, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: 'Confirm your job alert' }).waitFor();
  return link;
}

describe('job alerts', { skip }, () => {
  let jobId;

  test('a visitor signs up and confirms from the e-mail; nothing is sent before', async () => {
    const page = await browser.page(DESKTOP);
    const link = await signUpAndConfirm(page, VISITOR, '?q=sustainability&type=permanent', 'Daily', '1440');
    assert.equal(site.sql(`select status || '|' || frequency || '|' || consent_text from public.job_alerts where email = '${VISITOR}'`),
      'pending|daily|I agree to receive job alert e-mails from Cornerstone Property Search for this search. I can stop them at any time with the link in every e-mail.');
    assert.deepEqual(await axeViolations(page), []);
    await shot(page, 'job-alert-confirm-1440');
    await page.getByRole('button', { name: 'Confirm my job alert' }).click();
    await page.getByRole('heading', { name: 'Your job alert is on' }).waitFor();
    assert.match(await page.locator('.alert-page__card').innerText(), /once a day when new roles match: “sustainability” · Permanent/);
    assert.equal(site.sql(`select status from public.job_alerts where email = '${VISITOR}'`), 'active');
    assert.deepEqual(await axeViolations(page), []);
    await shot(page, 'job-alert-confirmed-1440');
    // the link works once
    const again = await page.goto(link, { waitUntil: 'networkidle' });
    assert.equal(again.status(), 404);
    assert.deepEqual(page.errors.filter((e) => !/404/.test(e)), []);
    await page.close();

    // a second visitor, at 390 px: every new role, weekly
    const mobile = await browser.page(MOBILE);
    await signUpAndConfirm(mobile, CONTROL, '', 'Weekly', '390');
    assert.deepEqual(await axeViolations(mobile), []);
    assert.equal(await noOverflow(mobile), true);
    await shot(mobile, 'job-alert-confirm-390');
    await mobile.getByRole('button', { name: 'Confirm my job alert' }).click();
    await mobile.getByRole('heading', { name: 'Your job alert is on' }).waitFor();
    await shot(mobile, 'job-alert-confirmed-390');
    await mobile.close();
    assert.equal((await mails(VISITOR, 'List-Unsubscribe-Post', 0)).length, 0, 'no digest before a pass');
  });

  test('the admin publishes a matching job in the editor; make job-alerts sends a digest that holds it', async () => {
    const admin = await browser.page(DESKTOP);
    await signIn(admin, site.url, DEMO_ADMIN);
    await admin.goto(site.url + '/admin/vacancies/new', { waitUntil: 'networkidle' });
    await admin.getByLabel('Job title *').fill(TITLE);
    await admin.getByLabel('Company *').fill('Verdant Estates');
    await admin.getByLabel('Employment type (to publish) *').selectOption('permanent');
    await admin.getByLabel('Location', { exact: true }).fill('Bristol');
    await admin.getByLabel('Description', { exact: true }).fill('Lead our **sustainability** programme across 40 buildings.');
    await admin.getByLabel('Requirements', { exact: true }).fill('- Net zero delivery');
    await admin.getByRole('button', { name: 'Publish' }).click();
    await expectToast(admin, 'Success Job published');
    jobId = new URL(admin.url()).pathname.split('/').pop();
    await admin.close();

    const pass = makeJobAlerts();
    assert.ok(pass.digests >= 2, JSON.stringify(pass));
    const [digest] = await mails(VISITOR, TITLE);
    assert.ok(digest, 'the visitor got a digest with the job');
    assert.match(digest, /^Subject: 1 new role for your job alert: “sustainability” · Permanent\r$/m);
    assert.match(digest, new RegExp(`/jobs/${jobId}`));
    assert.match(digest, /^List-Unsubscribe: <http:\/\/[^>]+\/alerts\/unsubscribe\?token=[0-9a-f-]{36}\.[0-9a-f]{64}>\r$/m);
    assert.match(digest, /^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
    assert.equal((await mails(CONTROL, TITLE)).length, 1, 'the other alert got it too');
    assert.equal(makeJobAlerts().digests, 0, 'a second pass sends nothing twice');
  });

  test('one-click unsubscribe stops the next digest; the other alert still gets its own', async () => {
    const [digest] = await mails(VISITOR, TITLE);
    const url = digest.match(/^List-Unsubscribe: <([^>]+)>/m)[1];
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /You are unsubscribed/);
    assert.equal(site.sql(`select count(*) from public.job_alerts where email = '${VISITOR}'`), '0');

    // the visible link in the mail, opened later, says so (and works without signing in)
    const page = await browser.page(MOBILE);
    await page.goto(digest.match(/Stop it here \(no sign-in needed\): (\S+)/)[1], { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await shot(page, 'job-alert-unsubscribed-390');
    await page.close();
    if (process.env.SCREENSHOTS_DIR) {
      const visitor = await launch(); // as the visitor sees it, not the suite's signed-in admin
      const wide = await visitor.page(DESKTOP);
      await wide.goto(digest.match(/Stop it here \(no sign-in needed\): (\S+)/)[1], { waitUntil: 'networkidle' });
      await wide.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
      await shot(wide, 'job-alert-unsubscribed-1440');
      await visitor.close();
    }

    site.sql(`insert into public.jobs (status, title, company, location, employment_type, description, requirements)
              values ('active', 'Sustainability Manager', 'Verdant Estates', 'Leeds', 'permanent', 'Carbon plans.', 'IEMA')`);
    const inAWeek = site.sql("select (now() + interval '8 days')::text");
    assert.equal(makeJobAlerts(inAWeek).digests, 1, 'one digest: the weekly alert');
    assert.equal((await mails(CONTROL, 'Sustainability Manager')).length, 1, 'the other alert got the new job');
    assert.equal((await mails(VISITOR, 'Sustainability Manager', 0)).length, 0, 'the unsubscribed address got nothing');
  });

  test('the admin closes the job: 410, and it leaves the sitemap, the Indeed feed and the search', async () => {
    // still signed in from publishing it (the suite's browser keeps the session)
    const admin = await browser.page(DESKTOP);
    await admin.goto(`${site.url}/admin/vacancies/${jobId}`, { waitUntil: 'networkidle' });
    await admin.getByRole('button', { name: 'Close job' }).click();
    await expectToast(admin, 'Success Job closed');
    await admin.close();
    assert.equal((await fetch(`${site.url}/jobs/${jobId}`)).status, 410);
    for (const path of ['/sitemap.xml', '/feeds/indeed.xml', '/jobs?q=sustainability']) {
      assert.ok(!(await (await fetch(site.url + path)).text()).includes(jobId), `${path} no longer lists it`);
    }
  });

  for (const [label, viewport] of [
    ['1440', DESKTOP],
    ['390', MOBILE],
  ]) {
    test(`a signed-in candidate's alert is on at once and is listed, edited and deleted in the dashboard at ${label} px`, async () => {
      const own = await launch();
      await startSignedIn(own.context, await signInSession(site.url, site.anonKey, DEMO_USERS.candidate));
      const page = await own.page(viewport);
      await page.goto(`${site.url}/jobs?sector=Consultancy`, { waitUntil: 'networkidle' });
      await alertFormReady(page);
      assert.equal(await page.getByLabel('E-mail address').inputValue(), DEMO_USERS.candidate.email, 'the account address is filled in');
      await page.getByRole('checkbox', { name: /I agree to receive job alert e-mails/ }).check();
      await page.getByRole('button', { name: 'Create alert' }).click();
      await page.getByTestId('alert-created').getByText('Your job alert is on').waitFor();
      await page.getByTestId('alert-created').getByRole('link', { name: 'Career Hub dashboard' }).click();
      const alerts = page.getByTestId('job-alerts');
      await alerts.getByRole('link', { name: 'Consultancy' }).waitFor();
      assert.match(await alerts.innerText(), /Weekly to candidate@example\.com — nothing sent yet/);
      await settled(page);
      assert.deepEqual(await axeViolations(page), []);
      assert.equal(await noOverflow(page), true);
      await shot(page, `job-alert-dashboard-${label}`);

      await alerts.getByRole('button', { name: 'Edit Consultancy' }).click();
      await alerts.getByLabel('How often').selectOption('daily');
      await alerts.getByLabel('Keywords').fill('surveyor');
      await alerts.getByRole('button', { name: 'Save alert' }).click();
      await alerts.getByRole('link', { name: '“surveyor” · Consultancy' }).waitFor();
      assert.equal(site.sql("select frequency || '|' || q from public.job_alerts where email = 'candidate@example.com'"), 'daily|surveyor');

      page.once('dialog', (d) => d.accept());
      await alerts.getByRole('button', { name: 'Delete “surveyor” · Consultancy' }).click();
      await alerts.getByText('No job alerts yet.').waitFor();
      assert.equal(site.sql("select count(*) from public.job_alerts where email = 'candidate@example.com'"), '0');
      assert.deepEqual(page.errors, []);
      await own.close();
    });
  }

  test('without JavaScript: the form of the server\'s /jobs creates the alert, and the mail\'s link confirms it', async () => {
    const noJs = await launch({ javaScriptEnabled: false });
    for (const [label, viewport] of [
      ['1440', DESKTOP],
      ['390', MOBILE],
    ]) {
      const email = `nojs.${label}@example.org`;
      const page = await noJs.page(viewport);
      await page.goto(`${site.url}/jobs?q=surveyor&region=London`, { waitUntil: 'networkidle' });
      const section = page.locator('#job-alert');
      assert.match(await section.innerText(), /This search: “surveyor” · London/);
      assert.deepEqual(await axeWithoutScripts(await page.content(), viewport), []);
      assert.equal(await noOverflow(page), true);
      if (process.env.SCREENSHOTS_DIR) {
        await page.getByLabel('E-mail address').fill(email);
        await section.screenshot({ path: join(process.env.SCREENSHOTS_DIR, `job-alert-nojs-form-${label}.png`) });
      }
      // an address the browser accepts and the sign-up does not: the error by its field, what was typed kept
      await page.getByLabel('E-mail address').fill('someone@localhost');
      await page.getByRole('radio', { name: 'Daily' }).check();
      await page.getByRole('checkbox', { name: /I agree to receive job alert e-mails/ }).check();
      await page.getByRole('button', { name: 'Create alert' }).click();
      await section.getByRole('alert').getByText('Enter a valid e-mail address').waitFor();
      assert.equal(await page.getByLabel('E-mail address').getAttribute('aria-invalid'), 'true');
      assert.equal(await page.getByLabel('E-mail address').inputValue(), 'someone@localhost');
      assert.equal(await page.getByRole('radio', { name: 'Daily' }).isChecked(), true);
      assert.deepEqual(await axeWithoutScripts(await page.content(), viewport), []);
      if (process.env.SCREENSHOTS_DIR) await section.screenshot({ path: join(process.env.SCREENSHOTS_DIR, `job-alert-nojs-error-${label}.png`) });

      await page.getByLabel('E-mail address').fill(email);
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Create alert' }).click(),
      ]);
      assert.equal(answer.status(), 200);
      await page.getByTestId('alert-created').getByText(`Check your inbox: we have sent a link to ${email} to confirm this alert.`).waitFor();
      assert.match(page.url(), /\/jobs\?q=surveyor&region=London#job-alert$/);
      assert.deepEqual(await axeWithoutScripts(await page.content(), viewport), []);
      if (process.env.SCREENSHOTS_DIR) await section.screenshot({ path: join(process.env.SCREENSHOTS_DIR, `job-alert-nojs-sent-${label}.png`) });
      assert.equal(site.sql(`select status || '|' || frequency || '|' || q || '|' || array_to_string(regions, ',') || '|' || consent_text from public.job_alerts where email = '${email}'`),
        'pending|daily|surveyor|London|I agree to receive job alert e-mails from Cornerstone Property Search for this search. I can stop them at any time with the link in every e-mail.');

      // the mail's link and the confirmation page's button work without JavaScript too
      await page.goto(await mailLink(site.mailDir, email, 'Confirm your job alert'), { waitUntil: 'networkidle' });
      await page.getByRole('button', { name: 'Confirm my job alert' }).click();
      await page.getByRole('heading', { name: 'Your job alert is on' }).waitFor();
      assert.equal(site.sql(`select status from public.job_alerts where email = '${email}'`), 'active');
      await page.close();
    }
    await noJs.close();
  });

  test('screenshots of /jobs (results, filtered, empty) at 1440 and 390 px', { skip: !process.env.SCREENSHOTS_DIR }, async () => {
    const visitor = await launch(); // as a visitor sees it (the suite's browser is still signed in as the admin)
    for (const [label, viewport] of [
      ['1440', DESKTOP],
      ['390', MOBILE],
    ]) {
      const page = await visitor.page(viewport);
      await page.goto(`${site.url}/jobs`, { waitUntil: 'networkidle' });
      await shot(page, `jobs-${label}`);
      await page.goto(`${site.url}/jobs?q=manager&type=permanent`, { waitUntil: 'networkidle' });
      await shot(page, `jobs-filtered-${label}`);
      await page.goto(`${site.url}/jobs?q=underwater+basket+weaving`, { waitUntil: 'networkidle' });
      await page.getByTestId('jobs-empty').getByText('No jobs match your search').waitFor();
      await shot(page, `jobs-empty-${label}`);
      await page.close();
    }
    await visitor.close();
  });
});
