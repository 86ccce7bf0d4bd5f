// Pure URL rules of the link crawl: whether an href is a page of this site (on the served origin or the site's
// public origin, which canonical links and the sitemap use), another website, a contact link or not a link at all,
// and the key a page is fetched and rendered under (path + query; the fragment is checked against the page's ids).

/**
 * @param {string} href absolute URL (as the browser resolved it)
 * @param {{ origin: string, publicOrigin?: string | null }} site
 * @returns {{ kind: 'site', key: string, fragment: string | null }
 *   | { kind: 'external' | 'contact', href: string }
 *   | { kind: 'invalid', href: string, reason: string }}
 */
export function classifyHref(href, { origin, publicOrigin = null }) {
  let url;
  try {
    url = new URL(href);
  } catch {
    return { kind: 'invalid', href, reason: 'not a valid URL' };
  }
  if (url.protocol === 'mailto:' || url.protocol === 'tel:') return { kind: 'contact', href };
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'invalid', href, reason: `a ${url.protocol} link leads nowhere` };
  if (url.origin !== origin && url.origin !== publicOrigin) return { kind: 'external', href: url.href };
  return { kind: 'site', key: `${url.pathname}${url.search}`, fragment: fragmentOf(url.hash) };
}

/** The element id a fragment names ('#a%20b' → 'a b'); null for none or a bare '#' (the top of the page). */
export function fragmentOf(hash) {
  const raw = hash.replace(/^#/, '');
  if (!raw) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The <loc> URLs of a sitemap document. */
export function sitemapLocations(xml) {
  return [...xml.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/g)].map((m) => m[1].replaceAll('&amp;', '&'));
}

/** True when a path belongs to one of the APIs rather than the site (their answers are the pages' business). */
export function isApiPath(pathname) {
  return /^\/(rest|auth|storage|realtime|functions|graphql)\/v1(\/|$)/.test(pathname);
}
