// Shared chrome: header menus (200 ms open, 300 ms skip, 150 ms close), header hide/solid on scroll, side drawer
// below xl with focus management, progress bar past 5 %, floating contact buttons after 400 px, the footer's phone
// dialog, scroll-to-top on route change.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DESKTOP, MOBILE, clockPage, launch } from './lib/browser.mjs';
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

async function scrollTo(page, y) {
  await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y);
}

test('desktop menus open after 200 ms, skip the delay within 300 ms, close 150 ms after leaving', async () => {
  const page = await clockPage(DESKTOP);
  await page.goto(site.url + '/', { waitUntil: 'networkidle' });
  const hire = page.getByTestId('menu-hire');
  const hired = page.getByTestId('menu-hired');
  await page.getByRole('button', { name: 'Hire With Us' }).hover();
  await page.clock.runFor(190);
  assert.equal(await hire.isVisible(), false, 'still closed before 200 ms');
  await page.clock.runFor(20);
  assert.equal(await hire.isVisible(), true, 'open after 200 ms');
  assert.equal(await page.getByRole('button', { name: 'Hire With Us' }).getAttribute('aria-expanded'), 'true');
  // Moving straight to the next group opens it at once (skip delay).
  await page.getByRole('button', { name: 'Getting Hired' }).hover();
  await page.clock.runFor(10);
  assert.equal(await hired.isVisible(), true);
  assert.equal(await hire.isVisible(), false);
  assert.equal(await hired.getByRole('link', { name: /Current Vacancies/ }).getAttribute('href'), '/jobs');
  // Leaving: closes after 150 ms.
  await page.mouse.move(700, 600);
  await page.clock.runFor(140);
  assert.equal(await hired.isVisible(), true, 'still open before 150 ms');
  await page.clock.runFor(20);
  assert.equal(await hired.isVisible(), false, 'closed after 150 ms');
  await page.close();
});

test('menus work from the keyboard: Enter opens, Escape closes and returns focus', async () => {
  const page = await browser.page(DESKTOP);
  await page.goto(site.url + '/', { waitUntil: 'networkidle' });
  const trigger = page.getByRole('button', { name: 'The Inside Track' });
  await trigger.focus();
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('menu-inside');
  await panel.waitFor({ state: 'visible' });
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'All Insights');
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'The Inside Track');
  // External partner link opens in a new tab; header links reach the spec's routes.
  await page.keyboard.press('Enter');
  const partner = page.getByTestId('menu-hire');
  assert.equal(await partner.isVisible(), false);
  const hrefs = await page.locator('header a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  for (const href of ['/services', '/clients/developer-investor', '/clients/service-provider', '/clients/corporate-in-house', '/career-hub', '/career-support#senior-executive', '/career-support#mid-career', '/career-support#early-career', '/insights', '/about', '/contact']) {
    assert.ok(hrefs.includes(href), `header links to ${href}`);
  }
  assert.equal(await page.locator('header a[target="_blank"]').count() >= 1, true);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('header: more opaque after 50 px, hides scrolling down past 100 px, returns scrolling up', async () => {
  const page = await browser.page(DESKTOP);
  await page.goto(site.url + '/', { waitUntil: 'networkidle' });
  const header = page.getByTestId('site-header');
  assert.equal(await header.getAttribute('data-state'), 'top');
  await scrollTo(page, 40);
  await page.waitForFunction(() => window.scrollY === 40);
  await page.waitForTimeout(50);
  assert.equal(await header.getAttribute('data-state'), 'top');
  await scrollTo(page, 80);
  await page.waitForFunction(() => document.querySelector('[data-testid=site-header]').dataset.state === 'solid');
  await scrollTo(page, 600);
  await page.waitForFunction(() => document.querySelector('[data-testid=site-header]').dataset.state === 'hidden');
  await scrollTo(page, 400);
  await page.waitForFunction(() => document.querySelector('[data-testid=site-header]').dataset.state === 'solid');
  await page.close();
});

test('progress bar shows only past 5 %; floating call/e-mail/book buttons after 400 px', async () => {
  const page = await browser.page(DESKTOP);
  await page.goto(site.url + '/', { waitUntil: 'networkidle' });
  const bar = page.getByTestId('scroll-progress');
  const floating = page.getByTestId('floating-contact');
  assert.doesNotMatch(await bar.getAttribute('class'), /--visible/);
  assert.equal(await floating.isVisible(), false);
  const fivePercent = await page.evaluate(() => (document.documentElement.scrollHeight - window.innerHeight) * 0.05);
  await scrollTo(page, Math.min(350, Math.floor(fivePercent) - 20));
  await page.waitForTimeout(100);
  assert.doesNotMatch(await bar.getAttribute('class'), /--visible/, 'hidden below 5 %');
  assert.equal(await floating.isVisible(), false, 'floating buttons hidden below 400 px');
  await scrollTo(page, Math.max(450, Math.ceil(fivePercent) + 50));
  await page.waitForFunction(() => document.querySelector('[data-testid=scroll-progress]').classList.contains('scroll-progress--visible'));
  await floating.waitFor({ state: 'visible' });
  const links = await floating.locator('a').evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.getAttribute('target')]));
  assert.ok(links[0][0].startsWith('tel:'));
  assert.ok(links[1][0].startsWith('mailto:'));
  assert.ok(links[2][0].startsWith('https://') && links[2][1] === '_blank');
  await page.close();
});

test('below xl the menu is a side drawer with focus management', async () => {
  const page = await browser.page(MOBILE);
  await page.goto(site.url + '/', { waitUntil: 'networkidle' });
  assert.equal(await page.getByRole('button', { name: 'Hire With Us' }).isVisible(), false, 'desktop menus hidden');
  const toggle = page.getByTestId('drawer-toggle');
  await toggle.click();
  const drawer = page.getByTestId('drawer');
  await drawer.waitFor({ state: 'visible' });
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Close menu');
  await drawer.getByRole('button', { name: 'Getting Hired' }).click();
  await drawer.getByRole('link', { name: /Current Vacancies/ }).waitFor({ state: 'visible' });
  // Focus stays inside the modal drawer.
  for (let i = 0; i < 15; i++) await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid=drawer]'))), true);
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'drawer-toggle');
  // Navigating from the drawer closes it.
  await toggle.click();
  await drawer.getByRole('link', { name: 'What Matters' }).click();
  await page.waitForURL('**/about');
  await drawer.waitFor({ state: 'hidden' });
  assert.deepEqual(page.errors.filter((e) => !e.includes('404')), []);
  await page.close();
});

test('footer phone opens a dialog with the number and OK; links and organisation data are present', async () => {
  const page = await browser.page(DESKTOP);
  await page.goto(site.url + '/', { waitUntil: 'networkidle' });
  await page.getByTestId('footer-phone').click();
  const dialog = page.getByTestId('phone-dialog');
  await dialog.waitFor({ state: 'visible' });
  assert.match(await dialog.innerText(), /020 7946 0321/);
  await dialog.getByRole('button', { name: 'OK' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const footer = page.getByTestId('site-footer');
  const hrefs = await footer.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  for (const href of ['/services#leadership-search', '/services#advertised-campaigns', '/services#embedded-recruitment', '/services#success-based-recruitment', '/services#insight-into-impact', '/about', '/our-work', '/insights', '/#vacancies', '/contact', '/privacy', '/terms', '/sitemap.xml']) {
    assert.ok(hrefs.includes(href), `footer links to ${href}`);
  }
  assert.match(await footer.innerText(), /Arrange a call here/);
  assert.match(await footer.innerText(), /© 2025/);
  const org = JSON.parse(await footer.locator('script[type="application/ld+json"]').textContent());
  assert.equal(org['@type'], 'EmploymentAgency');
  await page.close();
});

test('route changes scroll to the top', async () => {
  const page = await browser.page(DESKTOP);
  await page.goto(site.url + '/', { waitUntil: 'networkidle' });
  await scrollTo(page, 3000);
  await page.waitForFunction(() => window.scrollY > 1000);
  await page.getByTestId('site-footer').getByRole('link', { name: 'Privacy', exact: true }).first().click();
  await page.waitForURL('**/privacy');
  await page.waitForFunction(() => window.scrollY === 0);
  await page.close();
});

test('/vacancies is admin-only: a visitor is sent to the home page', async () => {
  const page = await browser.page(DESKTOP);
  const res = await page.goto(site.url + '/vacancies', { waitUntil: 'networkidle' });
  assert.equal(res.status(), 200);
  await page.waitForURL(site.url + '/');
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  assert.equal(await page.evaluate(() => history.length), 2, 'replaced, not pushed');
  await page.close();
});
