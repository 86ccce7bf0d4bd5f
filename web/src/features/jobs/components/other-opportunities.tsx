// 'Other Opportunities in Property': up to three static sample roles, excluding the current one.
import { Link } from 'react-router';
import { MapPinIcon } from '@/components/ui/icons';
import { otherOpportunities } from '../data/sample-jobs';

export const OTHER_OPPORTUNITIES_MAX = 3;

export function OtherOpportunities({ currentId }: { currentId: string }) {
  const roles = otherOpportunities.filter((r) => r.id !== currentId).slice(0, OTHER_OPPORTUNITIES_MAX);
  return (
    <section className="section section--white" aria-labelledby="other-opps-title" data-testid="other-opportunities">
      <div className="container">
        <h2 id="other-opps-title">Other Opportunities in Property</h2>
        <div className="grid grid--3">
          {roles.map((r) => (
            <article key={r.id} className="card card--interactive">
              <span className="badge">{r.type}</span>
              <h3 className="card__title" style={{ marginTop: 'var(--sp-3)' }}>
                {r.title}
              </h3>
              <p className="card__meta">
                <span>{r.company}</span>
                <span>
                  <MapPinIcon size={14} style={{ display: 'inline', verticalAlign: '-2px' }} /> {r.location}
                </span>
                <span>{r.salary}</span>
              </p>
              <div className="card__footer">
                <Link to={`/jobs/${r.id}`} className="btn btn--outline btn--sm card__stretched">
                  View Details<span className="visually-hidden">: {r.title}</span>
                </Link>
              </div>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
