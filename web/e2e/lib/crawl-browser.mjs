// The browser side of the link crawl: one tab per visitor that loads the site once and then moves between pages as
// the app itself does (history.pushState + popstate, which react-router follows), waits until the page has
// settled (no request in flight, nothing aria-busy), scrolls through it so sections that load near the viewport
// load, and reads its links, its element ids and whether it shows a not-found view. On a visitor's start pages it
// also opens every menu of the header and the mobile drawer, at 1440 and 390 px.
import { isApiPath } from './crawl-urls.mjs';
import { DESKTOP, MOBILE } from './browser.mjs';

const QUIET_MS = 100;
const STUCK_MS = 5000;
const SETTLE_TIMEOUT_MS = 15000;

/** What a rendered page offers: every href (resolved), every id, and whether it is a not-found view. */
function readPage() {
  const links = [];
  for (const a of document.querySelectorAll('a[href], area[href]')) {
    const raw = a.getAttribute('href');
    let href;
    try {
      href = new URL(raw, document.baseURI).href;
    } catch {
      href = raw;
    }
    links.push({ href, text: (a.textContent || a.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim().slice(0, 60) });
  }
  const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
  for (const a of document.querySelectorAll('a[name]')) ids.push(a.getAttribute('name'));
  const h1 = document.querySelector('h1')?.textContent ?? '';
  const notFound = document.querySelector('[data-not-found]') !== null || /\bnot found\b/i.test(h1) || /\bnot found\b/i.test(document.title);
  const busy = [...document.querySelectorAll('[aria-busy="true"]')].map((e) => `${e.tagName.toLowerCase()}.${e.className}`);
  return { final: location.pathname + location.search, links, ids, notFound, title: document.title, busy };
}

async function scrollThrough(page) {
  await page.evaluate(async () => {
    // Sections load within 600 px of the viewport (use-near-viewport.ts): steps of the viewport + 1000 px miss none.
    const step = window.innerHeight + 1000;
    for (let y = 0; y < document.documentElement.scrollHeight; y += step) {
      window.scrollTo(0, y);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }
    window.scrollTo(0, 0);
  });
}

/** A crawling tab in `context` for the site at `origin`. */
export async function openTab(context, origin) {
  const page = await context.newPage();
  await page.setViewportSize(DESKTOP);
  const pending = new Map();
  let lastChange = Date.now();
  const resourceErrors = [];
  const apiErrors = [];
  page.on('request', (r) => {
    pending.set(r, Date.now());
    lastChange = Date.now();
  });
  const done = (r) => {
    pending.delete(r);
    lastChange = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  page.on('response', (r) => {
    const url = new URL(r.url());
    if (url.origin !== origin || r.status() < 400) return;
    (isApiPath(url.pathname) ? apiErrors : resourceErrors).push({ url: url.pathname + url.search, status: r.status() });
  });

  /** Waits until no request is in flight (and, with `ariaBusy`, nothing is marked aria-busy); false on time-out. */
  async function settle({ ariaBusy = true } = {}) {
    const end = Date.now() + SETTLE_TIMEOUT_MS;
    while (Date.now() < end) {
      const now = Date.now();
      const loading = [...pending.values()].some((t) => now - t < STUCK_MS);
      const quiet = !loading && now - lastChange >= QUIET_MS;
      if (quiet && !(ariaBusy && (await page.evaluate(() => document.querySelector('[aria-busy="true"]') !== null)))) return true;
      await page.waitForTimeout(50);
    }
    return false;
  }

  async function appIsRunning() {
    return page.evaluate(() => (document.getElementById('root')?.childElementCount ?? 0) > 0).catch(() => false);
  }

  /** Shows `key` (path + query) the way the app would after a click, or by loading it when no app is running yet. */
  async function go(key) {
    lastChange = Date.now();
    if (await appIsRunning()) {
      await page.evaluate((to) => {
        const idx = (window.history.state?.idx ?? 0) + 1;
        window.history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx }, '', to);
        window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
      }, key);
    } else {
      await page.goto(origin + key, { waitUntil: 'load' });
    }
  }

  return {
    page,
    origin,
    resourceErrors,
    apiErrors,
    /** Renders `key` and reads it: { final, links, ids, notFound, title, settled }. */
    async visit(key) {
      resourceErrors.length = 0;
      await go(key);
      // Sections below the fold may stay busy until they near the viewport: scroll through, then wait for them;
      // again if the page moved on meanwhile (a redirect in the browser).
      const here = () => page.evaluate(() => window.location.href);
      let settled = false;
      for (let round = 0; round < 3; round++) {
        await settle({ ariaBusy: false });
        const before = await here();
        await scrollThrough(page);
        settled = await settle();
        if (settled || before === (await here())) break;
      }
      const inFlight = [...pending.keys()].map((r) => r.url());
      return { ...(await page.evaluate(readPage)), settled, inFlight, resourceErrors: [...resourceErrors] };
    },
    /** Opens every menu the header and navigation offer, at 1440 px and in the 390 px drawer; returns their links. */
    async menuLinks() {
      const links = [];
      for (const viewport of [DESKTOP, MOBILE]) {
        await page.setViewportSize(viewport);
        await settle();
        for (let i = 0; i < 40; i++) {
          const button = page.locator('header button[aria-expanded="false"]:not([data-crawl-opened]):visible, nav button[aria-expanded="false"]:not([data-crawl-opened]):visible, dialog[open] button[aria-expanded="false"]:not([data-crawl-opened]):visible').first();
          if ((await button.count()) === 0) break;
          const handle = await button.elementHandle();
          await handle.evaluate((b) => b.setAttribute('data-crawl-opened', ''));
          await handle.click();
          await settle();
          links.push(...(await page.evaluate(readPage)).links);
        }
        await page.keyboard.press('Escape');
        await page.evaluate(() => document.querySelectorAll('[data-crawl-opened]').forEach((b) => b.removeAttribute('data-crawl-opened')));
      }
      await page.keyboard.press('Escape');
      await page.setViewportSize(DESKTOP);
      await settle();
      return links;
    },
  };
}
