// Helpers for the Career Hub suite: the site with `make run`'s demo content, its mail and storage folders, and
// small browser helpers (keyboard-only focus, downloads, axe).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { repoDir, startSite } from './site.mjs';

/** The demo content `make run` loads (sql/seed/*.sql), as one script for psql. */
export function demoSeedSql() {
  const dir = join(repoDir, 'sql', 'seed');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

/**
 * The gateway with the demo content, a mail folder and a storage folder this suite can read, a fast storage sweep,
 * and one e-mail per address per second (the suite asks for a password reset within a minute of the sign-up mail,
 * which Auth's default 60 s per address refuses).
 */
export async function startCareerHubSite() {
  const data = mkdtempSync(join(tmpdir(), 'career-hub-e2e-'));
  const mailDir = join(data, 'mail');
  const storageDir = join(data, 'storage');
  const site = await startSite({
    sql: demoSeedSql(),
    env: { GATEWAY_MAIL_DIR: mailDir, FILE_STORAGE_BACKEND_PATH: storageDir, GATEWAY_STORAGE_SWEEP_SECS: '0.2', GOTRUE_SMTP_MAX_FREQUENCY: '1' },
  });
  return {
    ...site,
    mailDir,
    storageDir,
    stop: async () => {
      await site.stop();
      rmSync(data, { recursive: true, force: true });
    },
  };
}

/** The first link in the newest mail to `to` whose text contains `marker`, waiting up to 10 s for it. */
export async function mailLink(mailDir, to, marker) {
  for (let i = 0; i < 100; i++) {
    const files = (() => {
      try {
        return readdirSync(mailDir).filter((f) => f.endsWith('.eml'));
      } catch {
        return [];
      }
    })();
    const mails = files
      .map((f) => readFileSync(join(mailDir, f), 'utf8'))
      .filter((m) => m.includes(`To: ${to}`) && m.includes(marker));
    const link = mails.at(-1)?.match(/https?:\/\/\S+/)?.[0];
    if (link) return link;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to} containing ${marker} in ${mailDir}`);
}

/** Number of object files in the storage folder. */
export function storedFiles(dir) {
  const walk = (p) => {
    try {
      return readdirSync(p).reduce((n, e) => n + (statSync(join(p, e)).isDirectory() ? walk(join(p, e)) : 1), 0);
    } catch {
      return 0;
    }
  };
  return walk(join(dir, 'objects'));
}

/** The text of a PDF file as pdftotext (poppler-utils) extracts it. */
export function pdfText(file) {
  return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
}

/** Presses Tab (or Shift+Tab) until the focused element matches `selector`: keyboard-only navigation. */
export async function tabTo(page, selector, { back = false, max = 80 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

export async function axeViolations(page) {
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

/** Saves the download a click starts and returns its path. */
export async function download(page, click, dir) {
  const [dl] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = join(dir, dl.suggestedFilename());
  await dl.saveAs(path);
  return path;
}

/** Each Career Hub page's content and the stylesheet it injects (lib/inject-style.ts ids). */
const HUB_STYLES = [
  ['.auth-card', 'style-career-hub-login'],
  ['.dash-columns', 'style-career-hub-dashboard'],
  ['.builder', 'style-cv-builder'],
  ['.cv-paper', 'style-cv'],
  ['.template-card', 'style-cv-templates'],
];

/**
 * Watches a page (add before it loads) for a flash of unstyled content: `unstyledContent(page)` then lists the
 * Career Hub content that appeared in the document before its stylesheet did.
 */
export async function watchStyles(page) {
  await page.addInitScript((pairs) => {
    window.__unstyled = [];
    new MutationObserver(() => {
      for (const [content, style] of pairs)
        if (document.querySelector(content) && !document.getElementById(style) && !window.__unstyled.includes(content)) window.__unstyled.push(content);
    }).observe(document, { childList: true, subtree: true });
  }, HUB_STYLES);
}

/** [content seen before its style, ...] and the styles of the content present now that are missing. */
export async function unstyledContent(page) {
  return page.evaluate(
    (pairs) => [...window.__unstyled, ...pairs.filter(([c, s]) => document.querySelector(c) && !document.getElementById(s)).map(([c]) => `${c} (now)`)],
    HUB_STYLES,
  );
}

/** The robots meta contents once the page's own <Seo> has run (its canonical is the page's path). */
export async function robotsOf(page, path) {
  await page.waitForFunction((p) => document.querySelector('link[rel=canonical]')?.getAttribute('href')?.endsWith(p), path);
  return page.evaluate(() => [...document.querySelectorAll('meta[name=robots]')].map((m) => m.getAttribute('content')));
}
