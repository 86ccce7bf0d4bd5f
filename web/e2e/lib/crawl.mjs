// The site-wide link crawl. For each visitor (signed out, or signed in as someone), starting from their start pages,
// it follows every same-site href the rendered pages and their menus offer, breadth first. Every unique URL is
// fetched once over HTTP for all visitors (the server's answer does not depend on who is signed in: sessions live in
// the browser); every HTML page is rendered once per visitor in that visitor's tab (what the client renders does).
// Broken: an answer >= 400, a page that renders a not-found view, a fragment naming no element of its page, a link
// that is not a web link, or a resource of a page answering >= 400. External links are listed, never fetched.
import { openTab } from './crawl-browser.mjs';
import { classifyHref, sitemapLocations } from './crawl-urls.mjs';

const MAX_PAGES_PER_VISITOR = 400;

/** One fetch per URL for the whole crawl; the body is kept only for XML (the sitemap). */
function httpChecker(origin) {
  const answers = new Map();
  return {
    answers,
    check(key) {
      if (!answers.has(key)) {
        answers.set(
          key,
          (async () => {
            const res = await fetch(origin + key, { redirect: 'manual' });
            const type = res.headers.get('content-type') ?? '';
            const body = type.includes('xml') ? await res.text() : (await res.arrayBuffer(), null);
            return { status: res.status, type, location: res.headers.get('location'), body };
          })(),
        );
      }
      return answers.get(key);
    },
  };
}

function newReport() {
  return { broken: new Map(), external: new Map(), contact: new Set(), rendered: new Map(), linkCount: 0, linkTargets: new Set(), unsettled: [], apiErrors: [] };
}

function addTo(map, key, value) {
  if (!map.has(key)) map.set(key, new Set());
  map.get(key).add(value);
}

/**
 * @param {{ origin: string, publicOrigin: string | null, visitors: { name: string, context: import('playwright-core').BrowserContext,
 *   start: string[] }[], extraLinks?: { from: string, href: string }[], follow?: boolean }} options
 * `extraLinks` are checked as if found on `from`; with `follow: false` nothing further is followed.
 */
export async function crawlSite({ origin, publicOrigin, visitors, extraLinks = [], follow = true }) {
  const http = httpChecker(origin);
  const report = newReport();
  // Visitors crawl side by side (one tab each); the HTTP answers are shared, so each URL is still fetched once.
  await Promise.all(
    visitors.map(async (visitor) => {
      const tab = await openTab(visitor.context, origin);
      const crawl = visitorCrawl(visitor, { origin, publicOrigin, report });
      for (const key of visitor.start) crawl.enqueue(key, '(start page)');
      for (const { from, href } of extraLinks) crawl.follow(new URL(href, origin).href, from);
      for (let key = crawl.next(); key !== undefined; key = crawl.next()) {
        await crawlPage(key, { crawl, tab, http, follow, isStart: visitor.start.includes(key) });
      }
      crawl.finish();
      report.apiErrors.push(...tab.apiErrors.map((e) => `${visitor.name}: ${e.status} ${e.url}`));
      await tab.page.close();
    }),
  );
  report.fetched = http.answers.size;
  return report;
}

/** One page of the crawl: its HTTP answer, then (for HTML) its render and the links it and its menus offer. */
async function crawlPage(key, { crawl, tab, http, follow, isStart }) {
  const answer = await http.check(key);
  if (answer.status >= 400) return crawl.fail(key, `HTTP ${answer.status}`);
  if (answer.status >= 300) {
    if (answer.location) crawl.follow(new URL(answer.location, tab.origin + key).href, `${key} (redirect)`);
    return;
  }
  if (answer.type.includes('xml') && answer.body && follow) {
    for (const loc of sitemapLocations(answer.body)) crawl.follow(loc, key);
    return;
  }
  if (!answer.type.includes('text/html')) return;
  const view = await tab.visit(key);
  crawl.rendered(key, view);
  if (!follow) return;
  if (view.final !== key) crawl.enqueue(view.final, `${key} (redirects in the browser)`);
  const menu = isStart ? await tab.menuLinks() : [];
  for (const l of [...view.links, ...menu]) crawl.follow(l.href, key);
}

/** A visitor's queue, where each URL was found, and what failed; `finish()` files every failure with every place. */
function visitorCrawl(visitor, { origin, publicOrigin, report }) {
  const queue = [];
  const foundOn = new Map();
  const failures = new Map();
  const views = new Map();
  const fragments = [];
  const at = (place) => `${visitor.name} on ${place}`;
  const broken = (what, reason, place) => addTo(report.broken, `${what}: ${reason}`, at(place));
  const self = {
    enqueue(key, from) {
      if (!foundOn.has(key)) queue.push(key);
      addTo(foundOn, key, from);
    },
    next() {
      if (views.size >= MAX_PAGES_PER_VISITOR) throw new Error(`more than ${MAX_PAGES_PER_VISITOR} pages for ${visitor.name}: does a link generate endless URLs?`);
      return queue.shift();
    },
    follow(href, from) {
      const link = classifyHref(href, { origin, publicOrigin });
      if (link.kind === 'site') {
        report.linkCount++;
        report.linkTargets.add(link.fragment ? `${link.key}#${link.fragment}` : link.key);
        self.enqueue(link.key, from);
        if (link.fragment) fragments.push({ key: link.key, fragment: link.fragment, from });
      } else if (link.kind === 'external') addTo(report.external, link.href, at(from));
      else if (link.kind === 'contact') report.contact.add(link.href);
      else broken(link.href, link.reason, from);
    },
    fail(key, reason) {
      failures.set(key, reason);
    },
    rendered(key, view) {
      views.set(key, view);
      addTo(report.rendered, key, visitor.name);
      if (view.notFound) self.fail(key, `renders the not-found view ("${view.title}")`);
      if (!view.settled) report.unsettled.push(`${at(key)} (at ${view.final}; busy: ${view.busy.join(', ') || 'none'}; in flight: ${view.inFlight.join(', ') || 'none'})`);
      for (const r of view.resourceErrors) broken(r.url, `HTTP ${r.status} while rendering the page`, key);
    },
    finish() {
      for (const [key, reason] of failures) for (const place of foundOn.get(key) ?? []) broken(key, reason, place);
      for (const f of fragments) {
        const view = views.get(f.key);
        if (view && !view.ids.includes(f.fragment)) broken(`${f.key}#${f.fragment}`, 'no element has this id', f.from);
      }
    },
  };
  return self;
}

/** Human-readable lines: each broken link with where it was found (the first `max` places, and how many more). */
export function brokenLines(report, max = 8) {
  return [...report.broken].map(([what, places]) => {
    const all = [...places];
    const more = all.length > max ? `; and ${all.length - max} more` : '';
    return `${what}\n    found: ${all.slice(0, max).join('; ')}${more}`;
  });
}
