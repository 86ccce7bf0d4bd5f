// 'My Applications': applications made while signed in, newest first, with the job, the date and where each stands
// (the plain status that follows the firm's: Received, In review, Interviewing, Offer, Placed, Not progressed).
import { Link } from 'react-router';
import { formatDateTime, listApplications } from '../api';
import { useQuery } from '@/lib/use-query';
import { FormError } from '@/components/ui/form-error';

export function MyApplications() {
  const { data: items, error } = useQuery(listApplications, []);
  return (
    <section className="card dash-card" aria-labelledby="applications-heading">
      <h2 id="applications-heading">My Applications</h2>
      {error && <FormError message={error} />}
      {items === null && !error && <p className="muted">Loading...</p>}
      {items?.length === 0 && <p className="muted">No applications yet. Applications you make while signed in appear here.</p>}
      {items && items.length > 0 && (
        <ul className="dash-list" data-testid="my-applications">
          {items.map((a) => (
            <li key={a.id} className="dash-list__item">
              <div>
                {a.job_id && a.job_status === 'active' ? (
                  <Link to={`/jobs/${a.job_id}`} className="dash-list__title">
                    {a.job_title}
                  </Link>
                ) : (
                  <span className="dash-list__title">{a.job_title ?? 'A role no longer listed'}</span>
                )}{' '}
                {a.job_status === 'closed' && <span className="badge badge--outline">Closed</span>}{' '}
                <span className="badge" data-testid="application-status">
                  {a.status}
                </span>
                <p className="dash-list__meta">
                  {a.company ? `${a.company} — ` : ''}applied {formatDateTime(a.applied_at)}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
