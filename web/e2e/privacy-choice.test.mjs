// /privacy/choice at 1440 and 390 px against the real gateway: the link in the retention e-mail (queued by the SQL
// pass private.run_retention for people last in touch over a year ago) shows what is held and the deletion
// date; "Keep my details" (by keyboard) is recorded and restarts the clock; "Delete my details" asks once more and
// erases; an incomplete or wrong link says so. axe-clean in every state, no console errors, no overflow.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { DESKTOP, MOBILE, launch } from './lib/browser.mjs';
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

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** A person with an enquiry 13 months old; runs a retention pass and returns the token e-mailed to them. */
function personWithNotice(email) {
  site.sql(`insert into public.enquiries (name, email, created_at) values ('Pat Person', '${email}', now() - interval '13 months')`);
  site.sql('select private.run_retention()');
  const body = site.sql(`select body_text from gateway.outbox where to_address = '${email}' and subject like 'Would you like%'`);
  return body.match(/\/privacy\/choice#token=([0-9a-f]{64})/)[1];
}

async function open(viewport, hash) {
  const page = await browser.page(viewport);
  await page.goto(`${site.url}/privacy/choice${hash}`, { waitUntil: 'networkidle' });
  return page;
}

async function checkPage(page) {
  const axe = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  assert.deepEqual(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), []);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `horizontal overflow of ${overflow}px`);
  assert.deepEqual(page.errors, []);
}

for (const [label, viewport] of [
  ['1440', DESKTOP],
  ['390', MOBILE],
]) {
  describe(`/privacy/choice at ${label} px`, () => {
    test('the link shows what is held and the date; Keep my details (keyboard only) is recorded', async (t) => {
      if (site.mode !== 'gateway') return t.skip('needs the gateway and a database');
      const email = `keep-${label}@example.com`;
      const token = personWithNotice(email);
      const page = await open(viewport, `#token=${token}`);
      await page.getByRole('heading', { name: 'Would you like us to keep your details?' }).waitFor();
      await page.getByText('We hold an enquiry.').waitFor();
      const date = site.sql(`select to_char(delete_after at time zone 'Europe/London', 'FMDD FMMonth YYYY') from private.retention_notices where email = '${email}'`);
      await page.getByText(date, { exact: true }).waitFor();
      assert.equal(await page.title(), 'Your details: keep or delete | Cornerstone Property Search');
      assert.equal(await page.locator('meta[name="robots"]').getAttribute('content'), 'noindex, nofollow');
      await checkPage(page);
      // The heading holds the focus; the next Tab stop is the first choice.
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Keep my details');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Thank you: we will keep your details' }).waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H2', 'focus moves to the result');
      assert.equal(site.sql(`select answer from private.retention_notices where email = '${email}'`), 'keep');
      assert.equal(site.sql(`select status from private.retention_people(now()) where email = '${email}'`), 'active');
      await checkPage(page);
      await page.close();
    });

    test('Delete my details asks once more, then erases everything held', async (t) => {
      if (site.mode !== 'gateway') return t.skip('needs the gateway and a database');
      const email = `delete-${label}@example.com`;
      const token = personWithNotice(email);
      const page = await open(viewport, `#token=${token}`);
      await page.getByRole('button', { name: 'Delete my details' }).click();
      await page.getByRole('heading', { name: 'Delete your details?' }).waitFor();
      await checkPage(page);
      assert.equal(site.sql(`select count(*) from public.enquiries where email = '${email}'`), '1', 'nothing is deleted before the confirmation');
      await page.getByRole('button', { name: 'Yes, delete my details' }).click();
      await page.getByRole('heading', { name: 'Your details have been deleted' }).waitFor();
      assert.equal(site.sql(`select count(*) from public.enquiries where email = '${email}'`), '0');
      await checkPage(page);
      await page.reload({ waitUntil: 'networkidle' });
      await page.getByRole('heading', { name: 'This link is not valid' }).waitFor();
      await page.close();
    });

    test('an incomplete or wrong link says so', async (t) => {
      if (site.mode !== 'gateway') return t.skip('needs the gateway and a database');
      for (const hash of ['', `#token=${'0'.repeat(64)}`, '#token=short']) {
        const page = await open(viewport, hash);
        await page.getByRole('heading', { name: 'This link is not valid' }).waitFor();
        if (hash === '') await checkPage(page);
        else assert.deepEqual(page.errors, []);
        await page.close();
      }
    });
  });
}
