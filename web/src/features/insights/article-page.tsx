// /insights/{slug} (spec §2 Article pages): back link to /#insights, category badge, title, excerpt, author, date,
// read time, body, and a "Related Articles" sidebar.
import { Link, useParams } from 'react-router';
import { site } from '@/content/site';
import { Seo } from '@/lib/seo';
import { articleHref, articles, findArticle, IMAGE_SIZE } from './articles';
import { Markdown } from './markdown';
import './insights.css';

export default function ArticlePage() {
  const { slug } = useParams();
  const article = findArticle(slug);
  if (!article) {
    return (
      <>
        <Seo title="Article not found" description="This article does not exist." path={`/insights/${slug ?? ''}`} noindex />
        <section className="page-hero">
          <div className="container">
            <h1>Article not found</h1>
            <p>
              <Link to="/insights">Browse all insights</Link>
            </p>
          </div>
        </section>
      </>
    );
  }
  const related = article.related
    .map((s) => articles.find((a) => a.slug === s))
    .filter((a): a is NonNullable<typeof a> => Boolean(a));
  const path = `/insights/${article.slug}`;
  return (
    <>
      <Seo
        title={article.title}
        description={article.excerpt}
        path={path}
        ogType="article"
        jsonLd={{
          '@context': 'https://schema.org',
          '@type': 'Article',
          headline: article.title,
          description: article.excerpt,
          datePublished: isoDate(article.date),
          author: { '@type': 'Person', name: site.founder.name },
          publisher: { '@type': 'Organization', name: site.name, url: site.url },
          image: `${site.url}${article.image}`,
          mainEntityOfPage: `${site.url}${path}`,
        }}
      />
      <section className="page-hero on-dark article-hero">
        <div className="container">
          <Link to="/#insights" className="article-back">
            <span aria-hidden="true">←</span> Back to Insights
          </Link>
          <span className="badge badge--accent">{article.articleCategory}</span>
          <h1>{article.title}</h1>
          <p className="lead on-dark">{article.excerpt}</p>
          <p className="article-meta">
            <span>By {site.founder.name}</span>
            <span>{article.date}</span>
            <span>{article.readTime}</span>
          </p>
        </div>
      </section>
      <div className="section">
        <div className="container article-layout">
          <article className="prose article-body">
            <img src={article.image} alt="" width={IMAGE_SIZE.width} height={IMAGE_SIZE.height} className="article-image" />
            <Markdown source={article.body} />
          </article>
          <aside className="article-aside" aria-labelledby="related-articles">
            <h2 id="related-articles">Related Articles</h2>
            <ul>
              {related.map((r) => (
                <li key={r.id} className="card related-card">
                  <span className="badge">{r.category}</span>
                  <h3>
                    <Link to={articleHref(r)}>{r.title}</Link>
                  </h3>
                  <p className="muted">{r.excerpt}</p>
                </li>
              ))}
            </ul>
          </aside>
        </div>
      </div>
    </>
  );
}

/** "January 15, 2025" → "2025-01-15"; "August 2025" → "2025-08-01". */
function isoDate(text: string): string {
  const d = new Date(/\d{1,2},/.test(text) ? `${text} 12:00 UTC` : `1 ${text} 12:00 UTC`);
  return Number.isNaN(d.getTime()) ? text : d.toISOString().slice(0, 10);
}
