// The 13 insight articles (spec §3 "Insight article"), read at build time from web/content/insights/*.md.
import { parseFrontMatter } from './front-matter';

export type InsightArticle = {
  id: number;
  title: string;
  excerpt: string;
  category: string;
  /** Category shown on the article's own page when it differs from the listing badge. */
  articleCategory: string;
  readTime: string;
  date: string;
  slug: string;
  featured: boolean;
  image: string;
  related: string[];
  body: string;
};

const files = import.meta.glob<string>('/content/insights/*.md', { query: '?raw', import: 'default', eager: true });

export const articles: InsightArticle[] = Object.values(files)
  .map((source) => {
    const { data, body } = parseFrontMatter(source);
    return {
      id: Number(data.id),
      title: String(data.title),
      excerpt: String(data.excerpt),
      category: String(data.category),
      articleCategory: String(data.articleCategory ?? data.category),
      readTime: String(data.readTime),
      date: String(data.date),
      slug: String(data.slug),
      featured: data.featured === true,
      image: String(data.image),
      related: Array.isArray(data.related) ? data.related : [],
      body: body.trim(),
    };
  })
  .sort((a, b) => a.id - b.id);

/** Articles with their own page (a body); the others' "Read More" links go to the listing. */
export function hasPage(a: InsightArticle): boolean {
  return a.body.length > 0;
}

export function articleHref(a: InsightArticle): string {
  return hasPage(a) ? `/insights/${a.slug}` : '/insights';
}

export function findArticle(slug: string | undefined): InsightArticle | undefined {
  return articles.find((a) => a.slug === slug && hasPage(a));
}

export const IMAGE_SIZE = { width: 800, height: 450 };
