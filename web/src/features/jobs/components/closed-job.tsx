// A closed job's page: the gateway answers 410 with "This role is no longer open" and up to three similar live roles
// (public.render_closed_job_page, sql/migrations/0402), no JobPosting data, noindex. The browser renders the same from
// the page's data (data-ssr-closed).
import { Link } from 'react-router';
import { Seo } from '@/lib/seo';

type SimilarRole = { id: string; title: string; company: string | null; location: string | null; salary: string | null };
export type ClosedJobData = { title: string; similar: SimilarRole[] };

/** The closed job the server rendered for this id, if it did. */
export function readClosedJob(id: string): ClosedJobData | null {
  if (typeof document === 'undefined') return null;
  const el = document.querySelector<HTMLElement>('[data-ssr-closed]');
  if (!el || el.dataset.ssrJobId !== id || el.dataset.ssrStatus !== '410') return null;
  try {
    return JSON.parse(el.dataset.ssrClosed ?? '') as ClosedJobData;
  } catch {
    return null;
  }
}

export function ClosedJob({ path, closed }: { path: string; closed: ClosedJobData }) {
  return (
    <>
      <Seo title="This role is no longer open" description={`${closed.title} is no longer open for applications.`} path={path} noindex />
      <section className="page-hero job-hero" data-testid="job-closed">
        <div className="container">
          <h1>This role is no longer open</h1>
          <p>{closed.title} has closed and is no longer taking applications.</p>
          <Link className="btn btn--accent" to="/jobs">
            Search live roles
          </Link>
        </div>
      </section>
      {closed.similar.length > 0 && (
        <section className="container section" aria-labelledby="similar-roles-title">
          <h2 id="similar-roles-title">Similar live roles</h2>
          <ul className="similar-roles">
            {closed.similar.map((r) => (
              <li key={r.id}>
                <Link to={`/jobs/${r.id}`}>{r.title}</Link>
                <span className="similar-roles__meta">{[r.company, r.location, r.salary].filter(Boolean).join(' · ')}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
