// Page head (title, description, canonical, Open Graph, robots, JSON-LD). `<Seo>` is rendered by every page:
// during the build's prerender it records the page's head into a collector that scripts/prerender.mjs writes into the
// HTML file; in the browser it updates document.head after client-side navigations.
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { site } from '@/content/site';

export type HeadData = {
  /** Page title without the firm name; the firm name is appended (the home page passes the full title). */
  title: string;
  description: string;
  /** Path of the canonical URL, e.g. '/services'. */
  path: string;
  /** For app areas (/career-hub/*, /admin*, /profile/*, /vacancies): `noindex` (+ nofollow when `nofollow`). */
  noindex?: boolean;
  nofollow?: boolean;
  /** Structured data objects emitted as application/ld+json blocks. */
  jsonLd?: object | object[];
  ogType?: 'website' | 'article';
  /** Absolute path of an image for Open Graph (defaults to the site image). */
  image?: string;
  /** Use the title exactly as given (no " | firm" suffix). */
  exactTitle?: boolean;
};

export type HeadCollector = { head: HeadData | null };

const HeadContext = createContext<HeadCollector | null>(null);

export function HeadProvider({ collector, children }: { collector: HeadCollector; children: ReactNode }) {
  return <HeadContext.Provider value={collector}>{children}</HeadContext.Provider>;
}

export function fullTitle(head: HeadData): string {
  return head.exactTitle ? head.title : `${head.title} | ${site.name}`;
}

export function absoluteUrl(path: string): string {
  return path.startsWith('http') ? path : `${site.url}${path === '/' ? '/' : path}`;
}

/** JSON for an inline ld+json block: `<` escaped so the text can never close the script element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

type Tag = { tag: 'meta' | 'link'; attrs: Record<string, string> };

function headTags(head: HeadData): Tag[] {
  const url = absoluteUrl(head.path);
  const image = absoluteUrl(head.image ?? site.ogImage.src);
  const robots = head.noindex ? (head.nofollow ? 'noindex, nofollow' : 'noindex') : 'index, follow';
  return [
    { tag: 'meta', attrs: { name: 'description', content: head.description } },
    { tag: 'meta', attrs: { name: 'robots', content: robots } },
    { tag: 'link', attrs: { rel: 'canonical', href: url } },
    { tag: 'meta', attrs: { property: 'og:type', content: head.ogType ?? 'website' } },
    { tag: 'meta', attrs: { property: 'og:site_name', content: site.name } },
    { tag: 'meta', attrs: { property: 'og:title', content: fullTitle(head) } },
    { tag: 'meta', attrs: { property: 'og:description', content: head.description } },
    { tag: 'meta', attrs: { property: 'og:url', content: url } },
    { tag: 'meta', attrs: { property: 'og:image', content: image } },
    { tag: 'meta', attrs: { property: 'og:locale', content: 'en_GB' } },
    { tag: 'meta', attrs: { name: 'twitter:card', content: 'summary_large_image' } },
  ];
}

function jsonLdList(head: HeadData): object[] {
  if (!head.jsonLd) return [];
  return Array.isArray(head.jsonLd) ? head.jsonLd : [head.jsonLd];
}

/** The head as HTML, for the prerender script. Every element carries data-head so the client can replace it. */
export function renderHeadHtml(head: HeadData): string {
  const parts = [`<title>${escapeAttr(fullTitle(head))}</title>`];
  for (const t of headTags(head)) {
    const attrs = Object.entries(t.attrs)
      .map(([k, v]) => `${k}="${escapeAttr(v)}"`)
      .join(' ');
    parts.push(`<${t.tag} data-head ${attrs}>`);
  }
  for (const data of jsonLdList(head)) {
    parts.push(`<script data-head type="application/ld+json">${jsonForScript(data)}</script>`);
  }
  return parts.join('\n    ');
}

function applyHead(head: HeadData) {
  document.title = fullTitle(head);
  document.head.querySelectorAll('[data-head]').forEach((el) => el.remove());
  const frag = document.createDocumentFragment();
  for (const t of headTags(head)) {
    const el = document.createElement(t.tag);
    el.setAttribute('data-head', '');
    for (const [k, v] of Object.entries(t.attrs)) el.setAttribute(k, v);
    frag.appendChild(el);
  }
  for (const data of jsonLdList(head)) {
    const el = document.createElement('script');
    el.type = 'application/ld+json';
    el.setAttribute('data-head', '');
    el.textContent = JSON.stringify(data);
    frag.appendChild(el);
  }
  document.head.appendChild(frag);
}

/** Sets the page's head. Render once per page. */
export function Seo(props: HeadData) {
  const collector = useContext(HeadContext);
  if (collector) collector.head = props;
  const key = JSON.stringify(props);
  useEffect(() => {
    applyHead(JSON.parse(key) as HeadData);
  }, [key]);
  return null;
}
