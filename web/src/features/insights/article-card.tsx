import { Link } from 'react-router';
import { articleHref, IMAGE_SIZE, type InsightArticle } from './articles';

export function ArticleCard({ article, index }: { article: InsightArticle; index: number }) {
  return (
    <article className="card card--interactive insight-card" style={{ animationDelay: `${index * 0.1}s` }} data-testid="insight-card">
      <img className="insight-card__image" src={article.image} alt="" width={IMAGE_SIZE.width} height={IMAGE_SIZE.height} loading={index < 3 ? 'eager' : 'lazy'} decoding="async" />
      <div className="insight-card__badges">
        <span className="badge">{article.category}</span>
        {article.featured && <span className="badge badge--accent">Featured</span>}
      </div>
      <h3 className="card__title">{article.title}</h3>
      <p className="card__meta muted">
        <span>{article.date}</span>
        <span>{article.readTime}</span>
      </p>
      <p className="insight-card__excerpt">{article.excerpt}</p>
      <div className="card__footer">
        <Link to={articleHref(article)} className="insight-card__more">
          Read More<span className="visually-hidden">: {article.title}</span>
        </Link>
      </div>
    </article>
  );
}
