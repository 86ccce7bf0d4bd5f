// /insights (spec §2): hero with display-only category badges, articles 1-6 under "Latest Insights", two decorative
// images, articles 7-12 in a second grid. The thirteenth article is never shown.
import { Seo } from '@/lib/seo';
import { ArticleCard } from './article-card';
import { articles } from './articles';
import './insights.css';

const CATEGORY_BADGES = ['All', 'Market Analysis', 'Salary Reports', 'Industry Trends', 'Career Insights'];
const PER_GRID = 6;

export default function InsightsPage() {
  const first = articles.slice(0, PER_GRID);
  const second = articles.slice(PER_GRID, PER_GRID * 2);
  return (
    <>
      <Seo
        title="Industry Insights"
        description="Market analysis, salary reports, industry trends and career insights for property, real estate and the built environment."
        path="/insights"
      />
      <section className="page-hero on-dark">
        <div className="container">
          <p className="eyebrow">The Inside Track</p>
          <h1>Industry Insights</h1>
          <p className="lead on-dark">Market analysis, salary data and career thinking from across property and the built environment.</p>
          <ul className="insights-badges" aria-label="Categories">
            {CATEGORY_BADGES.map((c) => (
              <li key={c} className="badge badge--outline">
                {c}
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section className="section" aria-labelledby="latest-insights">
        <div className="container">
          <h2 id="latest-insights" className="section-head">
            Latest Insights
          </h2>
          <div className="grid grid--3 insights-grid">
            {first.map((a, i) => (
              <ArticleCard key={a.id} article={a} index={i} />
            ))}
          </div>
        </div>
      </section>
      <div className="container insights-decor" aria-hidden="true">
        <img src="/images/insights/decor-skyline.svg" alt="" width={1200} height={400} loading="lazy" decoding="async" />
        <img src="/images/insights/decor-plans.svg" alt="" width={1200} height={400} loading="lazy" decoding="async" />
      </div>
      <section className="section" aria-labelledby="more-insights">
        <div className="container">
          <h2 id="more-insights" className="section-head">
            More Insights
          </h2>
          <div className="grid grid--3 insights-grid">
            {second.map((a, i) => (
              <ArticleCard key={a.id} article={a} index={i} />
            ))}
          </div>
        </div>
      </section>
    </>
  );
}
