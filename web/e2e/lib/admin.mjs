// Helpers for the admin and profile suites: the demo content (sql/seed, as `make run` loads it), signing in through
// /admin-login, the toast text, and the counts the database holds.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoDir } from './site.mjs';

export const DEMO_ADMIN = { email: 'admin@example.com', password: 'demo-admin-2025' };
export const DEMO_CANDIDATE = { email: 'candidate@example.com', password: 'demo-candidate-2025' };
/** A visitor's browser (not headless Chromium's own user agent, which the database counts as a bot). */
export const VISITOR_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

export function demoSeedSql() {
  const dir = join(repoDir, 'sql', 'seed');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

/** Signs in through /admin-login; the page sends a signed-in user to /. */
export async function signIn(page, baseUrl, { email, password }) {
  await page.goto(baseUrl + '/admin-login', { waitUntil: 'networkidle' });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(baseUrl + '/');
}

export async function toastText(page) {
  const toast = page.getByTestId('toast');
  await toast.waitFor();
  return (await toast.innerText()).replace(/\s*✕\s*$/, '').replace(/\s+/g, ' ').trim();
}

/** Waits for a toast with exactly this text (title + description), then dismisses it. */
export async function expectToast(page, text) {
  await page.waitForFunction(
    (want) => {
      const t = document.querySelector('[data-testid=toast]');
      return t && t.innerText.replace(/✕/g, '').replace(/\s+/g, ' ').trim() === want;
    },
    text,
    { timeout: 10000 },
  );
  await page.getByRole('button', { name: 'Dismiss notification' }).click();
}

export function count(site, sql) {
  return Number(site.sql(sql));
}
