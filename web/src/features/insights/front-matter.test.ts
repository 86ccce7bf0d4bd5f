// Insight articles: the front-matter reader, and the 13 articles it reads from web/content/insights (spec §3).
import { describe, expect, it } from 'vitest';
import { articleHref, articles, findArticle, hasPage } from './articles';
import { parseFrontMatter } from './front-matter';

describe('parseFrontMatter', () => {
  it('reads strings, numbers, booleans and lists, and returns the body', () => {
    const source = '---\r\ntitle: "Net zero: what next"\nid: 7\nratio: -1.5\nfeatured: true\ndraft: false\nrelated: [a-b, c ,]\nplain: Leeds: City\n---\n# Body\n';
    expect(parseFrontMatter(source)).toEqual({
      data: { title: 'Net zero: what next', id: 7, ratio: -1.5, featured: true, draft: false, related: ['a-b', 'c'], plain: 'Leeds: City' },
      body: '# Body\n',
    });
  });

  it('returns the whole text as the body without front matter, and skips lines without a key', () => {
    expect(parseFrontMatter('# Just text')).toEqual({ data: {}, body: '# Just text' });
    expect(parseFrontMatter('---\n: no key\nnot a pair\nk: v\n---\n').data).toEqual({ k: 'v' });
  });
});

describe('articles', () => {
  it('are the 13 articles, numbered 1 to 13 with unique slugs', () => {
    expect(articles.map((a) => a.id)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    expect(new Set(articles.map((a) => a.slug)).size).toBe(13);
    for (const a of articles) expect(a.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('relate only to articles that exist, never to themselves', () => {
    const slugs = new Set(articles.map((a) => a.slug));
    for (const a of articles) for (const slug of a.related) expect(slugs.has(slug) && slug !== a.slug, `${a.slug} → ${slug}`).toBe(true);
  });

  it('link to their page when they have one, else to the listing', () => {
    for (const a of articles) expect(articleHref(a)).toBe(hasPage(a) ? `/insights/${a.slug}` : '/insights');
    expect(findArticle('no-such-article')).toBeUndefined();
  });
});
