// The public marketing pages (spec §2): every page's spec texts at 1440 and 390 px without console errors, the
// services selection, the enquiry form (validation, honeypot, submission), candidates → career-support anchors,
// the insights grids (12 of 13 articles) and both full articles with their related links.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DESKTOP, MOBILE, launch } from './lib/browser.mjs';
import { SITE_NAME } from './lib/routes.mjs';
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

const PAGES = [
  ['/services', ['Executive Search', 'Advertised Campaigns', 'Hiring Partners', 'Success Based Recruitment', 'Insight into Impact', 'Discover Leaders Without Compromising Confidentiality', 'Powered by our partnership with', 'Book a Free Hiring Audit', 'Development Cycles & Investment Initiatives', 'Real Estate Services', 'In-House / Head Office', 'Contact Our Team']],
  ['/contact', ['Monday - Friday, 9am - 6pm', 'Book a Call', '15-30 minute consultation', 'no commitment', 'Send us an enquiry']],
  ['/clients/developer-investor', ['Start a Conversation', 'View Current Opportunities']],
  ['/clients/service-provider', ['Start a Conversation', 'View Current Opportunities', 'Proof points']],
  ['/clients/corporate-in-house', ['Start a Conversation', 'View Current Opportunities', 'What our clients say']],
  ['/candidates', ['Support That Grows With You', 'Latest Vacancies', 'Entry-Level Support', 'Mid-Career Support', 'Senior Career Support', 'Career Workspace']],
  ['/career-support', ['Getting Hired', 'Departure Lounge Call', 'In their words']],
  ['/career-hub', ['CV Builder Wizard', 'Professional Templates', 'Expert Guidance', 'Get Started Free']],
  ['/insights', ['Industry Insights', 'All', 'Market Analysis', 'Salary Reports', 'Industry Trends', 'Career Insights', 'Latest Insights', 'Read More', 'Featured']],
  ['/insights/evolving-asset-manager-2025', ['Investigating the Evolving Role of the Property Asset Manager in 2025', 'Industry Analysis', '7 min read', 'January 15, 2025', 'Related Articles']],
  ['/insights/hybrid-working-property', ['Office Occupancy on the Rise but Hybrid Working is Here to Stay', 'Industry Trends', 'August 2025', '6 min read', '38.1%', '5.7%', 'West Midlands', 'Related Articles']],
  ['/about', ['What matters...', 'It starts with a conversation.']],
  ['/terms', ['Website Terms of Use', 'About these terms', 'Using our website', 'Career Hub accounts', 'Job adverts and applications', 'Intellectual property', 'Links to and from other websites', 'Our liability to you', 'Governing law', 'England and Wales', 'Contact us']],
  ['/our-work', ['Our Work', 'Development & Investment', 'In-House / Head Office', 'Real Estate Services', 'Facilities & Maintenance', 'The outcome', 'Confidential mandate', 'Start a Conversation', 'View Current Opportunities']],
  ['/privacy', ['Six Points That Secure Your Data', 'Candidates', 'Your data: Who, what and where', 'How will personal data be used', 'Information we obtain from other sources', 'Permission', 'Reference', "Information Commissioner's Office"]],
];

for (const [label, viewport] of [
  ['1440', DESKTOP],
  ['390', MOBILE],
]) {
  describe(`public pages at ${label} px`, () => {
    for (const [path, texts] of PAGES) {
      test(`${path} shows its spec texts`, async () => {
        const page = await browser.page(viewport);
        try {
          const res = await page.goto(site.url + path, { waitUntil: 'networkidle', timeout: 60_000 });
          assert.equal(res.status(), 200);
          assert.ok((await page.title()).includes(SITE_NAME));
          assert.equal(await page.locator('h1').count(), 1, 'one h1');
          for (const text of texts) {
            await page.getByText(text, { exact: false }).first().waitFor({ state: 'attached', timeout: 5000 });
          }
          // Every image declares its size (no layout shift).
          const unsized = await page.$$eval('main img', (imgs) => imgs.filter((i) => !i.getAttribute('width') || !i.getAttribute('height')).map((i) => i.src));
          assert.deepEqual(unsized, []);
          assert.deepEqual(page.errors, []);
        } finally {
          await page.close();
        }
      });
    }
  });
}

describe('services', () => {
  test('one service is active at a time; a card shows its own call to action', async () => {
    const page = await browser.page();
    try {
      await page.goto(`${site.url}/services`, { waitUntil: 'networkidle', timeout: 60_000 });
      const panel = page.locator('#service-panel');
      await panel.getByText('Discover Leaders Without Compromising Confidentiality').waitFor();
      await page.getByRole('button', { name: /Advertised Campaigns/ }).click();
      await panel.getByText("Let's Make Your Roles Shine").waitFor();
      await page.getByRole('button', { name: /Success Based Recruitment/ }).click();
      await panel.getByText("Let's Build Winning Teams Together").waitFor();
      await page.getByRole('button', { name: /Insight into Impact/ }).click();
      await panel.getByText('Get Started with Insight into Impact').waitFor();
      assert.equal(await page.locator('[aria-pressed="true"]').count(), 1);
      assert.deepEqual(page.errors, []);
    } finally {
      await page.close();
    }
  });

  test('a footer anchor selects its service; Book a Free Hiring Audit preselects the audit enquiry', async () => {
    const page = await browser.page();
    try {
      await page.goto(`${site.url}/services#embedded-recruitment`, { waitUntil: 'networkidle', timeout: 60_000 });
      await page.locator('#service-panel').getByText('Get Started with Hiring Partners').waitFor();
      await page.getByRole('link', { name: 'Book a Free Hiring Audit' }).click();
      await page.waitForURL(/\/contact\?kind=hiring-audit#enquiry$/);
      await page.waitForFunction(() => document.querySelector('#enquiry-kind')?.value === 'hiring-audit');
    } finally {
      await page.close();
    }
  });
});

describe('enquiry form', () => {
  test('client pages reach the form with Start a Conversation', async () => {
    const page = await browser.page(MOBILE);
    try {
      await page.goto(`${site.url}/clients/developer-investor`, { waitUntil: 'networkidle', timeout: 60_000 });
      await page.getByRole('link', { name: 'Start a Conversation' }).first().click();
      await page.waitForURL(/\/contact\?kind=client#enquiry$/);
      await page.waitForFunction(() => document.querySelector('#enquiry-kind')?.value === 'client');
    } finally {
      await page.close();
    }
  });

  test('empty and invalid fields get inline messages and the first is focused', async () => {
    const page = await browser.page();
    const sent = [];
    page.on('request', (r) => r.url().includes('/rest/v1/enquiries') && sent.push(r.url()));
    try {
      await page.goto(`${site.url}/contact#enquiry`, { waitUntil: 'networkidle', timeout: 60_000 });
      await page.getByRole('button', { name: 'Send Enquiry' }).click();
      await page.getByText('Please enter your name.').waitFor();
      await page.getByText('Please enter your e-mail address.').waitFor();
      await page.getByText('Please tell us a little about your enquiry').waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'enquiry-name');
      assert.equal(await page.getByLabel('Name *').getAttribute('aria-invalid'), 'true');
      assert.equal(await page.getByLabel('Name *').getAttribute('aria-describedby'), 'name-error');
      await page.getByLabel('Name *').fill('Sam Taylor');
      await page.getByLabel('E-mail *').fill('not-an-email');
      await page.getByLabel('Phone').fill('call me');
      await page.getByRole('button', { name: 'Send Enquiry' }).click();
      await page.getByText('Please enter a valid e-mail address').waitFor();
      await page.getByText('Please enter a valid phone number').waitFor();
      assert.equal(await page.getByText('Please enter your name.').count(), 0);
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'enquiry-email');
      assert.deepEqual(sent, []);
    } finally {
      await page.close();
    }
  });

  test('the honeypot is hidden from people and assistive technology, and a filled one sends nothing', async () => {
    const page = await browser.page();
    const sent = [];
    page.on('request', (r) => r.url().includes('/rest/v1/enquiries') && sent.push(r.url()));
    try {
      await page.goto(`${site.url}/contact`, { waitUntil: 'networkidle', timeout: 60_000 });
      const trap = page.locator('#enquiry-website');
      assert.equal(await trap.getAttribute('tabindex'), '-1');
      assert.equal(await page.locator('.enquiry-form__trap').getAttribute('aria-hidden'), 'true');
      assert.ok(!(await trap.isVisible()) || (await trap.boundingBox()).x < 0, 'honeypot is off screen');
      await page.getByLabel('Name *').fill('Bot');
      await page.getByLabel('E-mail *').fill('bot@example.com');
      await page.getByLabel('Message *').fill('Buy cheap links now please');
      await trap.fill('https://spam.example', { force: true });
      await page.waitForTimeout(3100);
      await page.getByRole('button', { name: 'Send Enquiry' }).click();
      await page.getByTestId('toast').getByText('Thank you for your enquiry').waitFor();
      assert.deepEqual(sent, []);
    } finally {
      await page.close();
    }
  });

  test('a form sent faster than a person could fill it is held back', async () => {
    const page = await browser.page();
    const sent = [];
    page.on('request', (r) => r.url().includes('/rest/v1/enquiries') && sent.push(r.url()));
    try {
      await page.goto(`${site.url}/contact`, { waitUntil: 'networkidle', timeout: 60_000 });
      await page.getByLabel('Name *').fill('Quick Fill');
      await page.getByLabel('E-mail *').fill('quick@example.com');
      await page.getByLabel('Message *').fill('An enquiry typed instantly.');
      await page.getByRole('button', { name: 'Send Enquiry' }).click();
      await page.getByTestId('toast').getByText('Please check your details').waitFor();
      assert.deepEqual(sent, []);
    } finally {
      await page.close();
    }
  });

  test('a valid enquiry is stored through the data API (or reports that it could not be sent without one)', async () => {
    const page = await browser.page();
    try {
      await page.goto(`${site.url}/contact?kind=hiring-audit#enquiry`, { waitUntil: 'networkidle', timeout: 60_000 });
      await page.waitForFunction(() => document.querySelector('#enquiry-kind')?.value === 'hiring-audit');
      const email = `e2e-${Date.now()}@example.com`;
      await page.getByLabel('Name *').fill('Alex Morgan');
      await page.getByLabel('E-mail *').fill(email);
      await page.getByLabel('Phone').fill('020 7946 0000');
      await page.getByLabel('Company').fill('Northgate Capital');
      await page.getByLabel('Message *').fill('We would like a hiring audit for our development team.');
      await page.waitForTimeout(3100);
      await page.getByRole('button', { name: 'Send Enquiry' }).click();
      if (site.restAvailable) {
        await page.getByTestId('toast').getByText('Thank you for your enquiry').waitFor();
        assert.equal(await page.getByLabel('Name *').inputValue(), '');
        // site.sql returns psql's unaligned text: one line a row, fields separated by '|'.
        const out = site.sql(`select kind, name, phone, company from public.enquiries where email = '${email}'`);
        assert.deepEqual(out.split('\n'), ['hiring-audit|Alex Morgan|020 7946 0000|Northgate Capital']);
        assert.deepEqual(page.errors, []);
      } else {
        await page.getByTestId('toast').getByText('Your enquiry could not be sent').waitFor();
        assert.equal(await page.getByLabel('Name *').inputValue(), 'Alex Morgan', 'the visitor keeps what they typed');
        assert.deepEqual(page.errors, []);
      }
    } finally {
      await page.close();
    }
  });
});

describe('candidates → career support', () => {
  for (const [stage, anchor] of [
    ['entry-level', 'early-career'],
    ['mid-career', 'mid-career'],
    ['senior', 'senior-executive'],
  ]) {
    test(`the ${stage} stage link lands on #${anchor}`, async () => {
      const page = await browser.page();
      try {
        await page.goto(`${site.url}/candidates`, { waitUntil: 'networkidle', timeout: 60_000 });
        await page.getByTestId(`stage-${stage}`).getByRole('link').click();
        await page.waitForURL(new RegExp(`/career-support#${anchor}$`));
        await page.waitForFunction((id) => {
          const r = document.getElementById(id)?.getBoundingClientRect();
          return r && r.top >= -2 && r.top < window.innerHeight / 2;
        }, anchor);
        assert.deepEqual(page.errors, []);
      } finally {
        await page.close();
      }
    });
  }
});

describe('insights', () => {
  test('shows articles 1-12 in two grids of six and never the thirteenth', async () => {
    const page = await browser.page();
    try {
      await page.goto(`${site.url}/insights`, { waitUntil: 'networkidle', timeout: 60_000 });
      const grids = page.locator('.insights-grid');
      assert.equal(await grids.count(), 2);
      assert.equal(await grids.nth(0).getByTestId('insight-card').count(), 6);
      assert.equal(await grids.nth(1).getByTestId('insight-card').count(), 6);
      assert.equal(await page.getByText('Facilities Management: From Cost Centre to Strategic Partner').count(), 0);
      assert.equal(await page.locator('.insight-card .badge--accent', { hasText: 'Featured' }).count(), 3);
      const hrefs = await page.getByRole('link', { name: /Read More/ }).evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      assert.equal(hrefs.length, 12);
      assert.deepEqual(hrefs.filter((h) => h !== '/insights').sort(), ['/insights/evolving-asset-manager-2025', '/insights/hybrid-working-property']);
    } finally {
      await page.close();
    }
  });

  for (const [slug, related] of [
    ['evolving-asset-manager-2025', ['UK Property Salary Guide 2024', 'Office Occupancy on the Rise but Hybrid Working is Here to Stay']],
    ['hybrid-working-property', ['Investigating the Evolving Role of the Property Asset Manager in 2025', 'ESG in Commercial Property']],
  ]) {
    test(`${slug} renders its body, back link and related articles`, async () => {
      const page = await browser.page();
      try {
        await page.goto(`${site.url}/insights/${slug}`, { waitUntil: 'networkidle', timeout: 60_000 });
        assert.equal(await page.getByRole('link', { name: /Back to Insights/ }).getAttribute('href'), '/#insights');
        assert.ok((await page.locator('.article-body h2').count()) >= 4, 'article body has sections');
        const aside = page.getByRole('complementary');
        for (const title of related) await aside.getByRole('link', { name: new RegExp(title) }).waitFor();
        const ld = await page.locator('script[type="application/ld+json"]').allTextContents();
        assert.ok(ld.some((t) => JSON.parse(t)['@type'] === 'Article'), 'Article structured data');
        if (slug === 'hybrid-working-property') {
          await aside.getByRole('link', { name: /Investigating the Evolving Role/ }).click();
          await page.waitForURL(/\/insights\/evolving-asset-manager-2025$/);
          await page.getByRole('heading', { level: 1, name: /Investigating the Evolving Role/ }).waitFor();
        }
        assert.deepEqual(page.errors, []);
      } finally {
        await page.close();
      }
    });
  }
});

describe('our work and terms', () => {
  test('our work: every sector shows assignments with an outcome; confidential clients are never named or quoted by name', async () => {
    const page = await browser.page(MOBILE);
    try {
      await page.goto(`${site.url}/our-work`, { waitUntil: 'networkidle', timeout: 60_000 });
      for (const id of ['development-investment', 'in-house-head-office', 'real-estate-services', 'facilities-maintenance']) {
        const cards = page.locator(`#${id} [data-testid=assignment]`);
        assert.ok((await cards.count()) >= 1, `${id} has assignments`);
        assert.equal(await cards.getByText('The outcome').count(), await cards.count(), `${id}: every assignment states its outcome`);
      }
      const confidential = page.locator('[data-testid=assignment]', { hasText: 'Confidential mandate' });
      assert.ok((await confidential.count()) >= 1);
      for (const card of await confidential.all()) {
        assert.equal(await card.locator('img').count(), 0, 'no client logo');
        for (const caption of await card.locator('figcaption').allTextContents()) assert.match(caption, /client name withheld/);
      }
      const hrefs = async (name) => page.getByRole('link', { name }).evaluateAll((as) => [...new Set(as.map((a) => a.getAttribute('href')))]);
      assert.deepEqual(await hrefs('Start a Conversation'), ['/contact?kind=client#enquiry']);
      assert.deepEqual(await hrefs('View Current Opportunities'), ['/#vacancies']);
      await page.getByRole('navigation', { name: 'Sectors on this page' }).getByRole('link', { name: 'Facilities & Maintenance' }).click();
      await page.waitForURL(/#facilities-maintenance$/);
      assert.deepEqual(page.errors, []);
    } finally {
      await page.close();
    }
  });

  test('terms: links to the privacy notice and the enquiry form, every contents entry has its section', async () => {
    const page = await browser.page();
    try {
      await page.goto(`${site.url}/terms`, { waitUntil: 'networkidle', timeout: 60_000 });
      const main = page.locator('main');
      assert.equal(await main.getByRole('link', { name: 'privacy notice' }).first().getAttribute('href'), '/privacy');
      assert.equal(await main.getByRole('link', { name: 'enquiry form' }).getAttribute('href'), '/contact?kind=other#enquiry');
      const targets = await page.locator('.legal-toc a').evaluateAll((as) => as.map((a) => a.getAttribute('href').slice(1)));
      assert.equal(targets.length, 14);
      for (const id of targets) assert.equal(await page.locator(`section[id="${id}"] h2`).count(), 1, `section ${id}`);
      assert.match(await main.textContent(), /governed by the law of England and Wales/);
      assert.deepEqual(page.errors, []);
    } finally {
      await page.close();
    }
  });
});
