// The results column: the count (announced when it changes), sort links, the active filters as removable chips,
// the jobs as cards linking to their pages, an empty state that offers to drop filters, and the pager of real links.
import { Link } from 'react-router';
import {
  EMPLOYMENT_TYPE_LABELS,
  WORK_ARRANGEMENT_LABELS,
  chips,
  countText,
  filtersHref,
  hasFilters,
  pagerPages,
  postedDate,
  without,
  type Filters,
  type JobSummary,
  type SearchResult,
} from '@/lib/job-search/model';

function JobCard({ job }: { job: JobSummary }) {
  return (
    <li className="jobs-card card">
      <h2 className="jobs-card__title">
        <Link to={`/jobs/${job.id}`}>{job.title}</Link>
      </h2>
      {job.company && <p className="jobs-card__company">{job.company}</p>}
      <ul className="jobs-card__facts">
        <li>{job.location ?? 'Location not specified'}</li>
        <li>{job.salary || 'Competitive'}</li>
        {job.employment_type && <li>{EMPLOYMENT_TYPE_LABELS[job.employment_type]}</li>}
        {job.work_arrangement && <li>{WORK_ARRANGEMENT_LABELS[job.work_arrangement]}</li>}
      </ul>
      {job.excerpt && <p className="jobs-card__excerpt">{job.excerpt}</p>}
      <p className="jobs-card__posted">Posted {postedDate(job.posted_date)}</p>
    </li>
  );
}

function Chips({ filters }: { filters: Filters }) {
  const list = chips(filters);
  if (list.length === 0) return null;
  return (
    <ul className="jobs-chips" aria-label="Active filters">
      {list.map((c) => (
        <li key={c.href + c.label}>
          <Link className="jobs-chip" to={c.href}>
            {c.label}
            <span className="visually-hidden"> – remove this filter</span>
            <span aria-hidden="true"> ×</span>
          </Link>
        </li>
      ))}
      <li>
        <Link className="jobs-chip jobs-chip--clear" to="/jobs">
          Clear all
        </Link>
      </li>
    </ul>
  );
}

function Pager({ filters, page, pages }: { filters: Filters; page: number; pages: number }) {
  if (pages <= 1) return null;
  const href = (p: number) => filtersHref({ ...filters, page: p });
  return (
    <nav className="pager" aria-label="Pages of results">
      {page > 1 && (
        <Link className="pager__step" rel="prev" to={href(page - 1)}>
          Previous
        </Link>
      )}
      <ol className="pager__pages">
        {pagerPages(page, pages).map((p, i) => (
          <li key={p ?? `gap${i}`}>
            {p === null ? (
              <span className="pager__gap" aria-hidden="true">
                …
              </span>
            ) : p === page ? (
              <span className="pager__page" aria-current="page">
                {p}
              </span>
            ) : (
              <Link className="pager__page" to={href(p)} aria-label={`Page ${p}`}>
                {p}
              </Link>
            )}
          </li>
        ))}
      </ol>
      {page < pages && (
        <Link className="pager__step" rel="next" to={href(page + 1)}>
          Next
        </Link>
      )}
    </nav>
  );
}

function Sort({ filters }: { filters: Filters }) {
  if (!filters.q) return null;
  const newest = filtersHref({ ...filters, sort: undefined, page: undefined });
  const relevant = filtersHref({ ...filters, sort: 'relevance', page: undefined });
  return (
    <p className="jobs-sort">
      Sort: {filters.sort ? <Link to={newest}>Newest</Link> : <span aria-current="true">Newest</span>} ·{' '}
      {filters.sort ? <span aria-current="true">Most relevant</span> : <Link to={relevant}>Most relevant</Link>}
    </p>
  );
}

function Empty({ filters, page, total }: { filters: Filters; page: number; total: number }) {
  if (total > 0) {
    return (
      <div className="jobs-empty card" data-testid="jobs-empty">
        <h2>There is no page {page}</h2>
        <p>
          <Link to={filtersHref(without(filters, 'page'))}>Back to the first page</Link>
        </p>
      </div>
    );
  }
  return (
    <div className="jobs-empty card" data-testid="jobs-empty">
      <h2>No jobs match your search</h2>
      <p>
        Try removing a filter
        {hasFilters(filters) && (
          <>
            {' '}
            above, or <Link to="/jobs">see every live role</Link>
          </>
        )}
        .
      </p>
      <p>Or let us e-mail you when a role like this is published: create a job alert below.</p>
    </div>
  );
}

export function Results({ filters, result, busy }: { filters: Filters; result: SearchResult; busy: boolean }) {
  const outOfRange = result.page > result.pages;
  return (
    <>
      <div className="jobs-results__bar">
        <p className="jobs-results__count" role="status" aria-live="polite" data-testid="jobs-count">
          {busy ? 'Searching…' : countText(result.total, result.page, result.page_size)}
        </p>
        <Sort filters={filters} />
      </div>
      <Chips filters={filters} />
      {result.jobs.length === 0 || outOfRange ? (
        <Empty filters={filters} page={result.page} total={result.total} />
      ) : (
        <ol className="jobs-list" aria-busy={busy}>
          {result.jobs.map((job) => (
            <JobCard key={job.id} job={job} />
          ))}
        </ol>
      )}
      <Pager filters={filters} page={result.page} pages={result.pages} />
    </>
  );
}
