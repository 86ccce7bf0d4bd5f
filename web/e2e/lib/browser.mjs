// Debian Chromium through playwright-core (no browser download): one persistent context per suite in a fresh profile.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { chromium } from 'playwright-core';

// Every browser a test file launched is closed when the file ends, also those a failed test left open: one open
// browser keeps node's event loop alive, and the test file would never exit.
const open = new Set();
after(async () => {
  await Promise.all([...open].map((browser) => browser.close().catch(() => {})));
});

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP = { width: 1440, height: 900 };
export const MOBILE = { width: 390, height: 844 };

export async function launch(options = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'web-e2e-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: DESKTOP,
    ...options,
  });
  const browser = {
    context,
    /** A new page that records console errors and page errors into `page.errors`. */
    async page(viewport = DESKTOP) {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      page.errors = [];
      page.on('console', (m) => {
        if (m.type() === 'error') page.errors.push(`console.error: ${m.text()}`);
      });
      page.on('pageerror', (e) => page.errors.push(`pageerror: ${e.message}`));
      return page;
    },
    async close() {
      open.delete(browser);
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  open.add(browser);
  return browser;
}

/**
 * A page in its own browser context whose timers only move when the test says so (page.clock.runFor). The clock
 * belongs to the context, so it never leaks into other tests; `page.close()` closes that context too.
 */
export async function clockPage(viewport = DESKTOP, { reducedMotion } = {}) {
  const own = await launch();
  const page = await own.page(viewport);
  if (reducedMotion) await page.emulateMedia({ reducedMotion });
  const start = new Date('2026-01-05T09:00:00Z');
  await page.clock.install({ time: start });
  await page.clock.pauseAt(new Date(start.getTime() + 1000));
  page.close = () => own.close();
  return page;
}
