// The admin area and shared candidate profiles against the real gateway with make run's demo content: who is turned
// away from which admin route, the demo admin's featured-job and candidate-profile work (with the home page and the
// public profile following), recorded views arriving in the analytics, Clear Admin Views, the chart and CSV export.
// Accessibility (axe) of these pages at both widths is in admin-a11y.test.mjs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { DESKTOP, launch } from './lib/browser.mjs';
import { DEMO_ADMIN, DEMO_CANDIDATE, VISITOR_UA, count, demoSeedSql, expectToast, signIn } from './lib/admin.mjs';
import { gatewayAvailable, startSite } from './lib/site.mjs';

const skip = gatewayAvailable() ? false : 'needs the gateway: run under scripts/with-test-db.sh (npm run e2e:gateway)';
let site;
let browser;
let admin; // the demo admin's page, signed in once
before(async () => {
  if (skip) return;
  site = await startSite({ sql: demoSeedSql() });
  browser = await launch({ permissions: ['clipboard-read', 'clipboard-write'] });
  admin = await browser.page(DESKTOP);
  await signIn(admin, site.url, DEMO_ADMIN);
});
after(async () => {
  await browser?.close();
  await site?.stop();
});

/** A separate browser with no session (a client opening a shared link), with an ordinary browser's user agent. */
async function visitor(options = {}) {
  const own = await launch({ userAgent: VISITOR_UA, ...options });
  const page = await own.page(DESKTOP);
  page.close = () => own.close();
  return page;
}

async function finalPath(page, path) {
  await page.goto(site.url + path, { waitUntil: 'networkidle' });
  await page.waitForTimeout(300);
  return new URL(page.url()).pathname;
}

describe('admin area', { skip }, () => {
  test('non-admins are turned away from every admin route as spec §6 says', async () => {
    const page = await visitor();
    assert.equal(await finalPath(page, '/admin'), '/admin', 'a signed-out visitor stays on the dashboard...');
    await page.getByTestId('admin-access-required').waitFor();
    assert.match(await page.getByTestId('admin-access-required').innerText(), /Admin Access Required[\s\S]*Please sign in with an admin account to access the dashboard\./);
    assert.equal(await page.getByRole('link', { name: 'Sign In' }).getAttribute('href'), '/admin-login');
    for (const path of ['/admin/jobs', '/admin/candidates', '/admin/candidates/analytics', '/admin/vacancies', '/admin/vacancies/import']) {
      assert.equal(await finalPath(page, path), '/admin-login', `signed out: ${path} -> /admin-login`);
    }
    assert.equal(await finalPath(page, '/vacancies'), '/', 'signed out: /vacancies -> /');

    await signIn(page, site.url, DEMO_CANDIDATE);
    assert.equal(await page.getByRole('link', { name: 'Featured Jobs' }).count(), 0, 'no admin links in the header for a candidate');
    for (const path of ['/admin', '/admin/jobs', '/admin/candidates', '/admin/candidates/analytics', '/admin/vacancies', '/vacancies', '/admin-login']) {
      assert.equal(await finalPath(page, path), '/', `signed-in candidate: ${path} ends on /`);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('Create Admin Account makes an account but never an admin', async () => {
    const page = await visitor();
    await page.goto(site.url + '/admin-login', { waitUntil: 'networkidle' });
    assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Admin Login');
    await page.getByRole('button', { name: 'Need an account? Create Admin Account' }).click();
    assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Create Admin Account');
    assert.match(await page.getByTestId('admin-grant-note').innerText(), /An existing admin must grant access/);
    await page.getByLabel('Email').fill('new.staff@example.com');
    await page.getByLabel('Password').fill('a-long-password');
    await page.getByRole('button', { name: 'Create Admin Account', exact: true }).click();
    await expectToast(page, 'Account Created! Please check your email to verify your account.');
    assert.equal(count(site, "select count(*) from auth.users where email = 'new.staff@example.com'"), 1);
    assert.equal(count(site, "select count(*) from public.user_roles r join auth.users u on u.id = r.user_id where u.email = 'new.staff@example.com'"), 0);
    await page.getByRole('button', { name: 'Already have an account? Sign In' }).click();
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByTestId('toast').waitFor();
    assert.match(await page.getByTestId('toast').innerText(), /^Login Failed/);
    await page.close();
  });

  test('the dashboard shows the job figures, the first 10 jobs, data quality issues and recent activity', async () => {
    await admin.goto(site.url + '/admin', { waitUntil: 'networkidle' });
    for (const [testId, sql] of [
      ['stat-total-jobs', 'select count(*) from public.jobs'],
      ['stat-active-jobs', "select count(*) from public.jobs where status = 'active'"],
      ['stat-incomplete-jobs', 'select count(*) from public.jobs j where cardinality(public.job_missing_fields(j)) > 0'],
    ]) {
      assert.match(await admin.getByTestId(testId).innerText(), new RegExp(`\\b${count(site, sql)}\\b`), testId);
    }
    assert.equal(await admin.locator('[data-testid=dashboard-jobs] > li').count(), 10);
    const quality = await admin.getByTestId('data-quality').innerText();
    assert.match(quality, /Head of Supply Chain[\s\S]*No description[\s\S]*No requirements[\s\S]*Company is 'Unknown Company'[\s\S]*No salary/);
    assert.match(quality, /Non-Executive Director[\s\S]*Salary is 'Competitive'/);
    assert.equal(await admin.getByRole('link', { name: 'Featured Jobs' }).first().getAttribute('href'), '/admin/jobs', 'header link for admins');
    assert.equal(await admin.getByRole('link', { name: 'Profiles' }).getAttribute('href'), '/admin/candidates', 'header link for admins');
  });

  test('featured jobs: add, edit, reorder, deactivate and remove, and the home page follows', async () => {
    const page = admin;
    await page.goto(site.url + '/admin/jobs', { waitUntil: 'networkidle' });
    const rows = page.getByTestId('featured-row');
    assert.equal(await rows.count(), 6);
    const add = page.getByRole('button', { name: 'Add Featured Job' });
    assert.equal(await add.isDisabled(), true, 'nothing chosen: the button is disabled');
    const excerpt = page.getByLabel('Custom Excerpt *');
    await excerpt.fill('x');
    await excerpt.fill('');
    assert.equal(await page.locator('.field--invalid').count(), 2, 'the missing job and excerpt get a red border');
    const jobSelect = page.getByLabel('Job *');
    const offered = await jobSelect.locator('option').allInnerTexts();
    assert.ok(!offered.some((o) => o.startsWith('Head of Development')), 'jobs already featured are not offered');
    assert.ok(offered.some((o) => o.startsWith('Graduate Building Surveyor')));
    await jobSelect.selectOption({ label: 'Graduate Building Surveyor — Carter Lane Consulting (PPR-1004)' });
    await excerpt.fill('APC pathway with a friendly Bristol consultancy.');
    await page.getByLabel('Custom Sector').selectOption('Consultancy');
    await page.getByLabel('Custom Type').selectOption('Permanent');
    await add.click();
    await expectToast(page, 'Success Featured job added successfully');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=featured-row]').length === 7);
    assert.equal(await rows.last().getByTestId('featured-row-title').innerText(), 'Graduate Building Surveyor');
    assert.equal(count(site, "select display_order from public.featured_jobs where custom_excerpt like 'APC pathway%'"), 6, 'display_order = the count');

    await page.getByRole('button', { name: 'Edit: Graduate Building Surveyor' }).click();
    assert.equal(await page.getByLabel('Job *').isDisabled(), true, 'edit locks the job selector');
    await page.getByLabel('Custom Title').fill('Graduate Surveyor (APC)');
    await page.getByRole('button', { name: 'Update Featured Job' }).click();
    await expectToast(page, 'Success Featured job updated successfully');
    await page.getByRole('button', { name: 'Add Featured Job' }).waitFor();
    assert.equal(await page.getByLabel('Custom Title').inputValue(), '', 'the form is cleared after the update');

    // Reorder with the keyboard through the drag handle: Space, six times up, Space.
    await page.getByRole('button', { name: 'Drag to reorder: Graduate Surveyor (APC)' }).focus();
    await page.keyboard.press('Space');
    for (let position = 6; position >= 1; position--) {
      await page.keyboard.press('ArrowUp');
      // @dnd-kit announces each step in its live region.
      await page.waitForFunction((p) => [...document.querySelectorAll('[id^=DndLiveRegion]')].some((r) => r.textContent.includes(`is over position ${p} of 7`)), position);
    }
    await page.keyboard.press('Space');
    await expectToast(page, 'Success Featured jobs reordered');
    assert.equal(await rows.first().getByTestId('featured-row-title').innerText(), 'Graduate Surveyor (APC)');
    assert.equal(site.sql("select string_agg(display_order::text, ',' order by display_order) from public.featured_jobs"), '0,1,2,3,4,5,6');
    // And with a button: move it back down one place.
    await page.getByRole('button', { name: 'Move down: Graduate Surveyor (APC)' }).click();
    await expectToast(page, 'Success Featured jobs reordered');
    await page.getByRole('button', { name: 'Move up: Graduate Surveyor (APC)' }).click();
    await expectToast(page, 'Success Featured jobs reordered');

    const home = await visitor();
    const firstCard = async () => {
      await home.goto(site.url + '/', { waitUntil: 'networkidle' });
      await home.getByTestId('featured-opportunities').scrollIntoViewIfNeeded();
      await home.locator('[data-testid=featured-card] h3').first().waitFor();
      return home.locator('[data-testid=featured-card] h3').first().innerText();
    };
    assert.equal(await firstCard(), 'Graduate Surveyor (APC)', 'the home page shows the new first featured job');

    await page.getByRole('switch', { name: 'Active: Graduate Surveyor (APC)' }).click();
    await expectToast(page, 'Success Featured job updated successfully');
    assert.equal(await page.getByRole('switch', { name: 'Active: Graduate Surveyor (APC)' }).getAttribute('aria-checked'), 'false');
    assert.equal(await firstCard(), 'Head of Development', 'a switched-off job leaves the home page');

    await page.getByRole('button', { name: 'Remove: Graduate Surveyor (APC)' }).click();
    const dialog = page.getByTestId('remove-featured-dialog');
    assert.match(await dialog.innerText(), /Are you sure you want to remove this featured job\?/);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expectToast(page, 'Success Featured job removed successfully');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=featured-row]').length === 6);
    await home.close();

    const audited = site.sql("select string_agg(action, ',' order by id) from public.audit_log where table_name = 'featured_jobs' and actor_email = 'admin@example.com'");
    assert.match(audited, /^INSERT,UPDATE,(UPDATE,)+DELETE$/, 'every write is in the audit log, by the admin');
    await page.goto(site.url + '/admin', { waitUntil: 'networkidle' });
    assert.match(await page.getByTestId('recent-activity').innerText(), /admin@example\.com removed featured job 'Graduate Surveyor \(APC\)'/);
    assert.deepEqual(page.errors, []);
  });

  test('featured jobs: a mouse drag by the handle reorders the table and saves display_order', async () => {
    const page = admin;
    await page.goto(site.url + '/admin/jobs', { waitUntil: 'networkidle' });
    const titles = () => page.getByTestId('featured-row-title').allInnerTexts();
    const before = await titles();
    assert.ok(before.length >= 3);
    const savedOrder = () =>
      site.sql("select string_agg(coalesce(nullif(f.custom_title, ''), j.title), '|' order by f.display_order) from public.featured_jobs f join public.jobs j on j.id = f.job_id");
    assert.equal(savedOrder(), before.join('|'), 'the table shows the saved order');
    // Drag the third row's handle with the mouse (@dnd-kit's pointer sensor: a press, a move past 4 px, a release)
    // onto the first row, with the table in the middle of the window (clear of the edges where @dnd-kit scrolls).
    await page.getByTestId('featured-table').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const handle = page.getByRole('button', { name: `Drag to reorder: ${before[2]}` });
    const from = await handle.boundingBox();
    const to = await page.getByTestId('featured-row').first().boundingBox();
    const x = from.x + from.width / 2;
    await page.mouse.move(x, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(x, from.y + from.height / 2 - 10, { steps: 4 });
    // @dnd-kit announces where the job is in its live region.
    const announced = (text) => page.waitForFunction((t) => [...document.querySelectorAll('[id^=DndLiveRegion]')].some((r) => r.textContent.includes(t)), text);
    await announced(`${before[2]} is over position 3 of`);
    await page.mouse.move(x, to.y + to.height / 4, { steps: 12 });
    await announced(`${before[2]} is over position 1 of`);
    await page.mouse.up();
    await expectToast(page, 'Success Featured jobs reordered');
    const after = [before[2], before[0], before[1], ...before.slice(3)];
    assert.deepEqual(await titles(), after, 'the dragged job is first, the others follow in their order');
    assert.equal(savedOrder(), after.join('|'), 'and display_order holds the new order');
    assert.equal(site.sql('select string_agg(display_order::text, \',\' order by display_order) from public.featured_jobs'),
      after.map((_, i) => i).join(','), 'positions 0..n-1');
    await page.reload({ waitUntil: 'networkidle' });
    assert.deepEqual(await titles(), after, 'the order survives a reload');
    assert.deepEqual(page.errors, []);
  });

  test('a shared profile records its view only once the page has been shown (not by a link scanner loading it unseen)', async () => {
    const page = await visitor();
    await page.addInitScript(() => {
      window.__visibility = 'hidden';
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => window.__visibility });
    });
    const slug = site.sql("select slug from public.candidate_profiles where candidate_id = 'CAND-2003'");
    const views = () => count(site, "select count(*) from public.profile_views v join public.candidate_profiles p on p.id = v.profile_id where p.candidate_id = 'CAND-2003'");
    const before = views();
    await page.goto(`${site.url}/profile/${slug}`, { waitUntil: 'networkidle' });
    await page.getByTestId('profile-sheet').waitFor();
    await page.waitForTimeout(500);
    assert.equal(views(), before, 'loaded but never shown: no view');
    await page.evaluate(() => {
      window.__visibility = 'visible';
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() => views() === before + 1);
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await page.waitForTimeout(300);
    assert.equal(views(), before + 1, 'one view per page load');
    await page.close();
  });

  test('candidate profiles: search, create, edit, share, view signed out, analytics, clear admin views, export, delete', async () => {
    const page = admin;
    await page.goto(site.url + '/admin/candidates', { waitUntil: 'networkidle' });
    assert.equal(await page.getByTestId('profile-count').innerText(), '12 profiles');
    const search = page.getByPlaceholder('Search candidates...');
    await search.fill('MANCHESTER');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=candidate-row]').length === 1);
    assert.match(await page.getByTestId('candidate-row').innerText(), /James Okafor/);
    await search.fill('nobody-matches-this');
    await page.getByText('No candidates found').waitFor();
    await search.fill('');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=candidate-row]').length === 12);

    // Create, with the spec's required-field messages first.
    await page.getByRole('button', { name: 'Add New Profile' }).click();
    const dialog = page.getByTestId('profile-dialog');
    assert.match(await dialog.innerText(), /Create Candidate Profile[\s\S]*Add a new candidate profile to share with clients/);
    await dialog.getByRole('button', { name: 'Create Profile' }).click();
    assert.match(await dialog.innerText(), /Name is required \(for internal use\)[\s\S]*Candidate ID is required/);
    await dialog.getByLabel('Candidate Name (Internal Use Only) *').fill('Priya Secretname');
    await dialog.getByLabel('Candidate ID *').fill('CAND-E2E');
    await dialog.getByLabel('Job Title').fill('Senior Quantity Surveyor');
    await dialog.getByLabel('Candidate Reference').fill('Ref: PS-QS-01');
    await dialog.getByLabel('Email (Internal Use Only)').fill('priya.secret@example.com');
    await dialog.getByLabel('Location (Internal Use Only)').fill('Secretbury');
    await dialog.getByLabel('Profile Details').fill('Chartered QS.\n\n  Indented line kept.');
    await dialog.getByRole('button', { name: 'Create Profile' }).click();
    await expectToast(page, 'Success Candidate profile created successfully');
    await page.getByTestId('profile-count').filter({ hasText: '13 profiles' }).waitFor();
    assert.equal(site.sql("select source || ' ' || (external_id ~ '^manual-[0-9]{13}$') from public.candidate_profiles where candidate_id = 'CAND-E2E'"), 'manual true');
    const row = page.locator('[data-testid=candidate-row][data-candidate-id=CAND-E2E]');

    // Edit: candidate_id is read-only.
    await row.getByRole('button', { name: 'Edit Profile CAND-E2E' }).click();
    assert.match(await dialog.innerText(), /Edit Candidate Profile[\s\S]*Update the candidate profile details/);
    assert.equal(await dialog.getByLabel('Candidate ID *').getAttribute('readonly'), '');
    await dialog.getByLabel('Job Title').fill('Associate Director - Cost Management');
    await dialog.getByRole('button', { name: 'Update Profile' }).click();
    await expectToast(page, 'Success Candidate profile updated successfully');
    await row.filter({ hasText: 'Associate Director - Cost Management' }).waitFor();

    // Share link: copied, and View Profile opens it in a new tab (as the admin: an admin view).
    await row.getByRole('button', { name: 'Copy Share Link CAND-E2E' }).click();
    await expectToast(page, 'Link Copied Share link copied to clipboard');
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const slug = site.sql("select slug from public.candidate_profiles where candidate_id = 'CAND-E2E'");
    assert.equal(link, `${site.url}/profile/${slug}`);
    const viewLink = row.getByRole('link', { name: /View Profile CAND-E2E/ });
    assert.equal(await viewLink.getAttribute('target'), '_blank');
    const [tab] = await Promise.all([page.context().waitForEvent('page'), viewLink.click()]);
    await tab.getByTestId('profile-sheet').waitFor();
    await tab.waitForFunction(() => true);
    await waitFor(() => count(site, `select count(*) from public.profile_views v join public.candidate_profiles p on p.id = v.profile_id where p.candidate_id = 'CAND-E2E' and v.by_admin`) === 1);
    await tab.close();

    // Deactivate: the link shows Profile Not Found; activate again.
    await row.getByRole('button', { name: 'Deactivate CAND-E2E' }).click();
    await expectToast(page, 'Success Candidate profile updated successfully');
    await row.getByTestId('candidate-status').filter({ hasText: 'Inactive' }).waitFor();
    const client = await visitor();
    await client.goto(link, { waitUntil: 'networkidle' });
    await client.getByTestId('profile-not-found').waitFor();
    assert.match(await client.getByTestId('profile-not-found').innerText(), /Profile Not Found[\s\S]*This profile link is invalid or has been deactivated\./);
    await row.getByRole('button', { name: 'Activate CAND-E2E' }).click();
    await expectToast(page, 'Success Candidate profile updated successfully');
    await row.getByTestId('candidate-status').filter({ hasText: 'Active' }).waitFor();

    // The client opens the link signed out: the public fields only, in the page and on the wire.
    const bodies = [];
    client.on('response', async (r) => {
      if (r.url().includes('/rest/v1/')) bodies.push(await r.text().catch(() => ''));
    });
    await client.goto(link, { waitUntil: 'networkidle' });
    await client.getByTestId('profile-sheet').waitFor();
    const sheet = await client.getByTestId('profile-sheet').innerText();
    assert.match(sheet, /CAND-E2E[\s\S]*Associate Director - Cost Management[\s\S]*Reference: Ref: PS-QS-01[\s\S]*Available for opportunities[\s\S]*Print Profile[\s\S]*Profile Details/);
    assert.equal(await client.getByTestId('profile-details').evaluate((el) => getComputedStyle(el).whiteSpace), 'pre-wrap');
    assert.match(await client.getByTestId('profile-details').evaluate((el) => el.textContent), /Chartered QS\.\n\n {2}Indented line kept\./);
    assert.equal(await client.locator('meta[name=robots]').getAttribute('content'), 'noindex, nofollow');
    assert.match(await client.getByText('Interested in this candidate?').locator('..').innerText(), /Get in Touch/);
    assert.equal(await client.locator('[data-testid=other-profiles] a').count(), 5, 'Other Profiles: 5');
    await waitFor(() => bodies.length >= 3);
    const wire = bodies.join('\n');
    for (const secret of ['Priya Secretname', 'priya.secret@example.com', 'Secretbury', 'Olivia Bennett', 'example.com"']) {
      assert.ok(!wire.includes(secret), `the API never sends ${secret} to the public page`);
    }
    // Print: only the profile.
    await client.emulateMedia({ media: 'print' });
    assert.equal(await client.getByTestId('site-header').isVisible(), false, 'print hides the header');
    assert.equal(await client.getByText('Interested in this candidate?').isVisible(), false, 'print hides the sidebar');
    assert.equal(await client.getByTestId('profile-sheet').isVisible(), true, 'print shows the profile');
    await client.emulateMedia({ media: 'screen' });
    await waitFor(() => count(site, "select count(*) from public.profile_views v join public.candidate_profiles p on p.id = v.profile_id where p.candidate_id = 'CAND-E2E' and not v.by_admin") === 1);
    // A reload right away is a repeat: a view, not a new viewer.
    await client.reload({ waitUntil: 'networkidle' });
    await waitFor(() => count(site, "select count(*) from public.profile_views v join public.candidate_profiles p on p.id = v.profile_id where p.candidate_id = 'CAND-E2E' and v.is_repeat") === 1);
    await client.close();

    // The analytics: the visitor's two loads, one unique viewer; the admin's view is excluded.
    await page.goto(site.url + '/admin/candidates/analytics', { waitUntil: 'networkidle' });
    const arow = page.locator('[data-testid=analytics-row][data-candidate-id=CAND-E2E]');
    await arow.waitFor();
    assert.match(await arow.innerText(), /Priya Secretname[\s\S]*Associate Director - Cost Management[\s\S]*Ref: PS-QS-01\s+2\s+1\s+\d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}/);
    const analytics = JSON.parse(site.sql(`select json_build_object('views', sum(views), 'viewed', count(*) filter (where views > 0), 'profiles', count(*))
      from (select p.id, (select count(*) from public.profile_views v where v.profile_id = p.id and not v.is_bot and not v.by_admin) as views from public.candidate_profiles p) t`));
    assert.match(await page.getByTestId('card-total-views').innerText(), new RegExp(`^Total Views\\s+${analytics.views}$`));
    assert.match(await page.getByTestId('card-profiles-viewed').innerText(), new RegExp(`${analytics.viewed}\\s+Out of ${analytics.profiles} total profiles`));
    assert.match(await page.getByTestId('card-engagement-rate').innerText(), new RegExp(`${Math.round((100 * analytics.viewed) / analytics.profiles)}%`));
    const views = await page.getByTestId('analytics-views').allInnerTexts();
    assert.deepEqual(views.map(Number), [...views.map(Number)].sort((a, b) => b - a), 'sorted by views');
    assert.ok((await page.locator('tr.is-dimmed').count()) > 0, 'unviewed profiles are dimmed');

    // The chart: all profiles, then the chosen one.
    const bars = () => page.locator('[data-testid=views-chart] g[data-day]');
    assert.equal(await bars().count(), 30);
    const today = await bars().last().getAttribute('data-views');
    assert.ok(Number(today) >= 2, 'today has the new views');
    assert.match(await page.getByTestId('top-referrers').innerText(), /Top referrers/);
    await arow.getByRole('button', { name: /Show trend/ }).click();
    await page.getByRole('heading', { name: /Views per day: Priya Secretname \(CAND-E2E\)/ }).waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid=views-chart] g[data-day]:last-of-type')?.getAttribute('data-views') === '2');
    await page.getByRole('button', { name: 'Show all profiles' }).click();

    // CSV export of the table.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = readFileSync(await download.path(), 'utf8').replace(/^\ufeff/, '');
    const lines = csv.trim().split('\r\n');
    assert.equal(lines[0], 'Candidate Name,Candidate ID,Job Title,Reference,Status,Total Views,Unique Viewers,First Viewed,Last Viewed');
    assert.equal(lines.length, 14);
    assert.match(csv, /Priya Secretname,CAND-E2E,Associate Director - Cost Management,Ref: PS-QS-01,active,2,1,/);

    // Clear Admin Views reports how many it deleted.
    const adminViews = count(site, 'select count(*) from public.profile_views where by_admin');
    assert.ok(adminViews >= 4, 'the demo admin views and the one made here');
    await page.getByRole('button', { name: 'Clear Admin Views' }).click();
    const clear = page.getByTestId('clear-admin-views-dialog');
    assert.match(await clear.innerText(), /Clear Admin Views\?[\s\S]*This will permanently delete all profile views made by admin users from the database\. This action cannot be undone\./);
    await clear.getByRole('button', { name: 'Clear Views' }).click();
    await expectToast(page, `Cleared ${adminViews} admin views`);
    assert.equal(count(site, 'select count(*) from public.profile_views where by_admin'), 0);
    assert.match(await page.getByTestId('excluded-note').innerText(), /Not counted: 0 admin views/);

    // Delete, after a confirmation.
    await page.goto(site.url + '/admin/candidates', { waitUntil: 'networkidle' });
    await row.getByRole('button', { name: 'Delete CAND-E2E' }).click();
    const confirm = page.getByTestId('delete-profile-dialog');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(count(site, "select count(*) from public.candidate_profiles where candidate_id = 'CAND-E2E'"), 1, 'Cancel keeps the profile');
    await row.getByRole('button', { name: 'Delete CAND-E2E' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Success Candidate deleted successfully');
    await page.getByTestId('profile-count').filter({ hasText: '12 profiles' }).waitFor();
    assert.deepEqual(page.errors, []);
  });
  test('more than a page of profiles: Next and Previous, a search starts again at page 1, the count is the total', async () => {
    const extra = 45;
    site.sql(`insert into public.candidate_profiles (candidate_id, name, email, location, job_title, created_at)
      select 'CAND-PG' || lpad(n::text, 2, '0'), 'Paging Person ' || n, 'paging' || n || '@example.org', 'Pagetown',
             'Surveyor', now() - make_interval(days => 30 + n)
      from generate_series(1, ${extra}) n`);
    try {
      const total = count(site, 'select count(*) from public.candidate_profiles');
      assert.ok(total > 50, 'more than a page of the analytics table too');
      const page = admin;
      await page.goto(site.url + '/admin/candidates', { waitUntil: 'networkidle' });
      const rows = page.getByTestId('candidate-row');
      const pager = page.getByRole('navigation', { name: 'Candidate pages' });
      await page.getByTestId('profile-count').filter({ hasText: `${total} profiles` }).waitFor();
      assert.equal(await rows.count(), 25);
      assert.match(await pager.innerText(), new RegExp(`Showing 1–25 of ${total}`));
      assert.equal(await pager.getByRole('button', { name: 'Previous' }).isDisabled(), true);
      const firstPage = await rows.evaluateAll((r) => r.map((row) => row.dataset.candidateId));
      await pager.getByRole('button', { name: 'Next' }).click();
      await pager.filter({ hasText: `Showing 26–50 of ${total}` }).waitFor();
      const secondPage = await rows.evaluateAll((r) => r.map((row) => row.dataset.candidateId));
      assert.equal(secondPage.length, 25);
      assert.ok(!secondPage.some((id) => firstPage.includes(id)), 'page 2 holds other profiles');
      await pager.getByRole('button', { name: 'Next' }).click();
      await pager.filter({ hasText: `Showing 51–${total} of ${total}` }).waitFor();
      assert.equal(await rows.count(), total - 50);
      assert.equal(await pager.getByRole('button', { name: 'Next' }).isDisabled(), true, 'no page after the last');
      assert.ok((await rows.evaluateAll((r) => r.map((row) => row.dataset.candidateId))).includes('CAND-PG45'), 'the oldest profile is on the last page');
      await pager.getByRole('button', { name: 'Previous' }).click();
      await pager.filter({ hasText: `Showing 26–50 of ${total}` }).waitFor();
      assert.deepEqual(await rows.evaluateAll((r) => r.map((row) => row.dataset.candidateId)), secondPage, 'Previous goes back');

      // On page 2, a search starts again at page 1 of the matches; the count still says the total.
      await page.getByPlaceholder('Search candidates...').fill('PAGETOWN');
      await pager.filter({ hasText: `Showing 1–25 of ${extra}` }).waitFor();
      assert.match(await page.getByTestId('profile-count').innerText(), new RegExp(`^${total} profiles · ${extra} matching “PAGETOWN”$`));
      assert.equal(await rows.count(), 25);
      assert.ok((await rows.allInnerTexts()).every((t) => /Paging Person/.test(t)), 'only the matches');
      await page.getByPlaceholder('Search candidates...').fill('');
      await pager.filter({ hasText: `Showing 1–25 of ${total}` }).waitFor();

      // The analytics table pages too (50 rows a page, by views); the CSV export holds every row.
      await page.goto(site.url + '/admin/candidates/analytics', { waitUntil: 'networkidle' });
      const arows = page.getByTestId('analytics-row');
      await arows.first().waitFor();
      assert.equal(await arows.count(), 50);
      assert.match(await page.getByTestId('analytics-page-range').innerText(), new RegExp(`Showing 1–50 of ${total}`));
      assert.match(await page.getByTestId('card-profiles-viewed').innerText(), new RegExp(`Out of ${total} total profiles`));
      const pageOne = (await page.getByTestId('analytics-views').allInnerTexts()).map(Number);
      await page.getByRole('navigation', { name: 'Pages of the table' }).getByRole('button', { name: 'Next' }).click();
      await page.getByTestId('analytics-page-range').filter({ hasText: `Showing 51–${total} of ${total}` }).waitFor();
      assert.equal(await arows.count(), total - 50);
      const pageTwo = (await page.getByTestId('analytics-views').allInnerTexts()).map(Number);
      assert.ok(Math.min(...pageOne) >= Math.max(...pageTwo), 'page 2 continues the order by views');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      const csv = readFileSync(await download.path(), 'utf8').trim().split('\r\n');
      assert.equal(csv.length, total + 1, 'the export holds every profile, not one page');
      assert.deepEqual(page.errors, []);
    } finally {
      site.sql("delete from public.candidate_profiles where candidate_id like 'CAND-PG%'");
    }
  });

  test('live: a view recorded elsewhere reaches the analytics and the Views column without a reload', async () => {
    const slug = site.sql("select slug from public.candidate_profiles where candidate_id = 'CAND-2004'");
    const counted = () => count(site, "select count(*) from public.profile_views v join public.candidate_profiles p on p.id = v.profile_id where p.candidate_id = 'CAND-2004' and not v.is_bot and not v.by_admin");
    const page = admin;
    await page.goto(site.url + '/admin/candidates/analytics', { waitUntil: 'networkidle' });
    const cell = page.locator('[data-testid=analytics-row][data-candidate-id=CAND-2004] [data-testid=analytics-views]');
    await cell.waitFor();
    const before = counted();
    assert.equal(Number(await cell.innerText()), before, 'the row shows the counted views');
    const totalBefore = Number((await page.getByTestId('card-total-views').innerText()).match(/\d+/)[0]);
    const list = await browser.page(DESKTOP);
    await list.goto(site.url + '/admin/candidates', { waitUntil: 'networkidle' });
    const listCell = list.locator('[data-testid=candidate-row][data-candidate-id=CAND-2004] [data-testid=candidate-views]');
    await listCell.waitFor();
    assert.equal(Number(await listCell.innerText()), before);
    // Both pages say they are live once their postgres_changes subscription is ready; then marks on both
    // documents, which a reload or navigation would lose.
    for (const p of [page, list]) {
      await p.getByTestId('live-status').waitFor({ timeout: 15000 });
      await p.evaluate(() => (window.__samePage = true));
    }

    const client = await visitor();
    await client.goto(`${site.url}/profile/${slug}`, { waitUntil: 'networkidle' });
    await waitFor(() => counted() === before + 1);
    await page.waitForFunction((n) => document.querySelector('[data-testid=analytics-row][data-candidate-id=CAND-2004] [data-testid=analytics-views]')?.textContent === String(n), before + 1, { timeout: 15000 });
    await page.getByTestId('card-total-views').filter({ hasText: String(totalBefore + 1) }).waitFor({ timeout: 5000 });
    await list.waitForFunction((n) => document.querySelector('[data-testid=candidate-row][data-candidate-id=CAND-2004] [data-testid=candidate-views]')?.textContent === String(n), before + 1, { timeout: 15000 });
    for (const p of [page, list]) assert.equal(await p.evaluate(() => window.__samePage), true, 'no reload');
    assert.deepEqual(page.errors, []);
    assert.deepEqual(list.errors, []);
    await client.close();
    await list.close();
  });

  test('the dashboard shows what data retention has due and the last pass', async () => {
    site.sql(`insert into public.enquiries (name, email, message, created_at)
      values ('Olive Oldfield', 'olive.oldfield@example.org', 'Any roles in Leeds?', now() - interval '13 months')`);
    const due = (status) => count(site, `select count(*) from private.retention_people(now()) where status = '${status}'`);
    const page = admin;
    await page.goto(site.url + '/admin', { waitUntil: 'networkidle' });
    const panel = page.getByTestId('retention-panel');
    await panel.getByTestId('retention-last-run').waitFor();
    assert.equal(await panel.getByRole('heading', { level: 2 }).innerText(), 'Data retention');
    const notices = due('notice due');
    assert.ok(notices >= 1);
    assert.match(await panel.getByTestId('retention-due-now').innerText(),
      new RegExp(`At the next nightly pass: ${notices} notices? to send, ${due('deletion due')} (person|people) to erase\\.`));
    assert.match(await panel.getByTestId('retention-due').innerText(), /olive\.oldfield@example\.org\s+Retention notice due now \(since \d{2} [A-Z][a-z]{2} \d{4}\) · 1 enquiry/);
    assert.match(await panel.getByTestId('retention-last-run').innerText(), /No retention pass has run yet/);

    // A pass (as pg_cron runs it) sends the notice: the panel shows the pass, and the person awaits an answer.
    site.sql('select private.run_retention()');
    await page.reload({ waitUntil: 'networkidle' });
    await panel.getByTestId('retention-last-run').filter({ hasText: 'Last pass' }).waitFor();
    assert.match(await panel.getByTestId('retention-last-run').innerText(),
      new RegExp(`^Last pass \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}: ${notices} notices? sent, 0 people erased, \\d+ records? deleted\\.$`));
    assert.equal(await panel.getByText('olive.oldfield@example.org').count(), 0, 'notified: next step a year on, not due within 30 days');
    assert.equal(count(site, "select count(*) from gateway.outbox where to_address = 'olive.oldfield@example.org' and subject like 'Would you like us to keep your details?%'"), 1);
    assert.deepEqual(page.errors, []);
  });
});

async function waitFor(check, timeout = 10000) {
  const end = Date.now() + timeout;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting for the database');
    await new Promise((r) => setTimeout(r, 150));
  }
}
