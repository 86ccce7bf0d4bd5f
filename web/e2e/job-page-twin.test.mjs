// The job page is rendered twice: by public.render_job_page (SQL, the HTML the gateway serves for /jobs/{id}) and by
// React (web/src/features/jobs) once the page hydrates. This suite holds the two to one another for jobs covering
// the variants: the server's HTML exactly as fetched (no script runs) against the same URL after hydration, compared
// on the JobPosting JSON-LD (parsed, every field), the head (title, description, canonical, robots, Open Graph), the
// visible text of the job's content line by line, and its links.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DESKTOP, launch } from './lib/browser.mjs';
import { gatewayAvailable, startSite } from './lib/site.mjs';

const skip = gatewayAvailable() ? false : 'needs the gateway: run under scripts/with-test-db.sh (npm run e2e:gateway)';

const JOBS = {
  'salary stated, benefits, closing date, named client, hybrid, Markdown lists': 'a1000000-0000-4000-8000-000000000001',
  'Competitive, confidential, remote contract, no requirements, no consultant': 'a1000000-0000-4000-8000-000000000002',
  'minimum salary by the day, placeholder company, on-site temporary, plain text with line breaks': 'a1000000-0000-4000-8000-000000000003',
  'no type, no employment basis, no job reference, no location': 'a1000000-0000-4000-8000-000000000004',
};
const CLOSED = 'a1000000-0000-4000-8000-0000000000c1';
const [A, B, C, D] = Object.values(JOBS);

// Job A's text comes from the editor (Markdown rendered by markdown-it, stored as HTML); the others are plain text
// rendered by the database (public.job_text_html / job_text_list_html).
const seedSql = `
insert into public.jobs (id, job_id, status, posted_date, closing_date, title, company, location, region, salary, salary_min,
  salary_max, salary_period, type, sector, employment_type, work_arrangement, description, description_html, requirements,
  requirements_html, benefits, client_type, consultant_name, consultant_email) values
 ('${A}', 'TWN-1', 'active', '2026-11-21T09:30:00Z', '2027-01-15', 'Head of Build-to-Rent & Living', 'Arbour Living', 'Manchester',
  'North West', '£95,000 - £110,000 + bonus', 95000, 110000, 'year', 'Senior Leadership', 'Residential', 'permanent', 'hybrid',
  E'Lead **Build-to-Rent** operations.\\n\\n### What you will do\\n\\n- Own 2,400 homes\\n- Lead a team of 40\\n\\n1. Budget\\n2. Leasing',
  '<p>Lead <strong>Build-to-Rent</strong> operations &amp; growth.</p><h3>What you will do</h3><ul><li>Own 2,400 homes</li><li>Lead a team of 40</li></ul><ol><li>Budget</li><li>Leasing</li></ol><p>See <a href="https://www.example.com/btr">our portfolio</a>.</p>',
  E'- 10 years in residential operations\\n- RICS or equivalent',
  '<ul><li>10 years in residential operations</li><li>RICS or equivalent</li></ul>',
  '{"Car allowance","25 days holiday","Private medical"}', 'named', 'Amelia Hart', 'amelia.hart@example.com'),
 ('${B}', 'TWN-2', 'active', '2026-11-19T12:00:00Z', null, 'Interim Project Director', 'Confidential', 'Leeds', 'Yorkshire and the Humber',
  null, null, null, 'year', 'Interim', 'Construction', 'contract', 'remote',
  E'A 12-month interim role.\\n\\nInside IR35.', null, null, null, '{}', 'confidential', null, null),
 ('${C}', 'TWN-3', 'active', '2026-11-18T00:00:00Z', null, 'Site Manager', 'Unknown Company', 'Bristol', 'South West',
  '£350 per day', 350, null, 'day', 'Temporary', 'Construction', 'temporary', 'on-site',
  E'Line one\\nline two of the same paragraph.\\n\\n<Second> paragraph & more.', null, E'SMSTS\\nCSCS card', null,
  '{"Weekly pay"}', null, 'Tom Reed', 'tom.reed@example.com'),
 ('${D}', null, 'active', '2026-11-17T08:00:00Z', null, 'Graduate Surveyor', 'Halden Estates', null, null,
  null, null, null, 'year', null, null, null, null, null, null, null, null, '{}', 'named', null, null),
 ('${CLOSED}', 'TWN-9', 'closed', '2026-10-01T09:00:00Z', null, 'Closed Development Manager', 'Acme Estates', 'Leeds',
  'Yorkshire and the Humber', null, null, null, 'year', 'Professional', 'Construction', 'permanent', 'on-site', 'Filled.', null,
  null, null, '{}', 'named', null, null);
`;

let site;
let browser;
before(async () => {
  if (skip) return;
  site = await startSite({ sql: seedSql });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

/** What the comparison reads from a page, in the page: head, JSON-LD, content lines and links. */
function readPage() {
  const lines = (el) => (el ? el.innerText.split('\n').map((l) => l.replace(/\s+/g, ' ').trim()).filter(Boolean) : []);
  const head = [...document.head.querySelectorAll('meta[data-head], link[data-head]')]
    .map((el) => `${el.getAttribute('name') ?? el.getAttribute('property') ?? el.getAttribute('rel')}=${el.getAttribute('content') ?? el.getAttribute('href')}`)
    .sort();
  const jsonLd = [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) => JSON.parse(s.textContent));
  // The job's content: the live job's page (with Other Opportunities), or the closed or unknown job's notice.
  const root = document.querySelector('[data-testid="job-page"], [data-testid="job-not-found"], [data-testid="job-closed"]');
  const scope = root?.matches('[data-testid="job-page"]') ? root : root?.parentElement;
  const links = [...(scope?.querySelectorAll('a[href]') ?? [])].map((a) => `${a.innerText.replace(/\s+/g, ' ').trim()} -> ${a.getAttribute('href')}`);
  const headings = [...(scope?.querySelectorAll('h1, h2, h3, h4') ?? [])].map((h) => `${h.tagName} ${h.innerText.replace(/\s+/g, ' ').trim()}`);
  return { title: document.title, head, jsonLd, headings, text: lines(scope), links };
}

/** The server's page: the HTML as fetched, shown with every script blocked (what a crawler without JS reads). */
async function serverRendering(path) {
  const res = await fetch(site.url + path);
  const html = await res.text();
  const page = await browser.page(DESKTOP);
  await page.route(/\.m?js(\?|$)/, (route) => route.abort());
  await page.route(site.url + path, (route) => route.fulfill({ status: res.status, contentType: 'text/html', body: html }));
  await page.goto(site.url + path, { waitUntil: 'load' });
  const seen = await page.evaluate(readPage);
  await page.close();
  return { status: res.status, ...seen };
}

/** React's page: the same URL after hydration replaced the server's markup and head. */
async function browserRendering(path) {
  const page = await browser.page(DESKTOP);
  const res = await page.goto(site.url + path, { waitUntil: 'networkidle' });
  await page.waitForFunction(() => !document.querySelector('[data-ssr-status]') && document.querySelector('[data-testid^="job-"]'));
  const seen = await page.evaluate(readPage);
  // The browser reports the document's own 404/410 status as a failed load; anything else is an error.
  assert.deepEqual(page.errors.filter((e) => !/Failed to load resource: the server responded with a status of (404|410) /.test(e)), []);
  await page.close();
  return { status: res.status(), ...seen };
}

async function assertTwins(path) {
  const server = await serverRendering(path);
  const client = await browserRendering(path);
  assert.ok(server.text.length >= 3, `the server rendered the job's content: ${JSON.stringify(server.text)}`);
  assert.equal(client.status, server.status);
  assert.equal(client.title, server.title, 'title');
  assert.deepEqual(client.head, server.head, 'head: description, canonical, robots, Open Graph');
  assert.deepEqual(client.jsonLd, server.jsonLd, 'JobPosting JSON-LD');
  assert.deepEqual(client.headings, server.headings, 'headings');
  assert.deepEqual(client.text, server.text, 'visible text of the job');
  assert.deepEqual(client.links, server.links, 'links');
  return server;
}

for (const [variant, id] of Object.entries(JOBS)) {
  test(`the server's and the browser's job page agree: ${variant}`, { skip }, async () => {
    const server = await assertTwins(`/jobs/${id}`);
    assert.equal(server.status, 200);
    assert.equal(server.jsonLd.filter((d) => d['@type'] === 'JobPosting').length, 1, 'one JobPosting');
  });
}

test("the server's and the browser's page of a closed job agree (410, no JobPosting)", { skip }, async () => {
  const server = await assertTwins(`/jobs/${CLOSED}`);
  assert.equal(server.status, 410);
  assert.deepEqual(server.jsonLd.filter((d) => d['@type'] === 'JobPosting'), []);
});

test("the server's and the browser's page of an unknown job agree (404 Job Not Found)", { skip }, async () => {
  const server = await assertTwins('/jobs/5f2d8e4f-6b7c-4d0e-8f4a-5b6c7d8e9f0a');
  assert.equal(server.status, 404);
  assert.ok(server.text.includes('Job Not Found'));
});

test('the comparison sees the variants: Markdown lists, Competitive, the agency line, benefits, closing date, other roles', { skip }, async () => {
  const a = await serverRendering(`/jobs/${A}`);
  for (const line of ['What you will do', 'Own 2,400 homes', 'Hybrid', 'Permanent', 'Private medical']) assert.ok(a.text.includes(line), line);
  assert.ok(a.text.includes('Advertised by Cornerstone Property Search, acting as an employment agency (permanent role).'));
  assert.equal(a.jsonLd.find((d) => d['@type'] === 'JobPosting').validThrough, '2027-01-15T23:59:59Z');
  assert.ok(a.headings.includes('H2 Other Opportunities in Property'), 'the other live roles are in the server HTML');
  assert.ok(a.links.includes(`View Details : Interim Project Director -> /jobs/${B}`), JSON.stringify(a.links));
  const b = await serverRendering(`/jobs/${B}`);
  assert.ok(b.text.includes('Competitive') && b.text.includes('Remote'));
  assert.equal(b.jsonLd.find((d) => d['@type'] === 'JobPosting').jobLocationType, 'TELECOMMUTE');
});
