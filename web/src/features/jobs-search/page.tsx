// /jobs: every live job, newest first, with filters, facet counts, pages of 20 and a job alert for the search. The
// gateway serves the page rendered by public.render_jobs_page (sql/migrations/0404) for the address's filters, so
// it is complete HTML without JavaScript; the browser renders the same from its data (data-ssr-search) and then
// applies filter changes through the address (shareable, back button) with public.search_jobs.
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { site } from '@/content/site';
import { Seo } from '@/lib/seo';
import { JobAlertSignup } from '@/components/job-alerts/alert-signup';
import { FiltersForm } from './components/filters-form';
import { Results } from './components/results';
import { filtersHref, filtersQuery, heading, isIndexable, parseFilters, type Filters } from '@/lib/job-search/model';
import { useSearch } from './use-search';
import './jobs-search.css';

const LEAD = 'Live roles in property and the built environment, updated as they open and close.';

export default function JobsSearchPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const query = filtersQuery(parseFilters(params));
  // The filters just chosen show at once (a navigation commits as a transition); the address wins once it changes.
  const [pending, setPending] = useState<{ from: string; filters: Filters } | null>(null);
  const filters = pending?.from === query ? pending.filters : parseFilters(params);
  useEffect(() => setPending(null), [query]);
  const state = useSearch(filters);
  const result = state.kind === 'ready' ? state.result : state.previous;
  const title = heading(filters);
  const results = useRef<HTMLDivElement>(null);
  const page = filters.page ?? 1;
  const firstPage = useRef(page);

  // A new page of results starts at the top of the list (filters keep the place, so the form keeps focus).
  useEffect(() => {
    if (page !== firstPage.current) results.current?.scrollIntoView({ block: 'start' });
    firstPage.current = page;
  }, [page]);

  const apply = (next: Filters) => {
    setPending({ from: query, filters: next });
    void navigate(filtersHref(next));
  };
  const total = result?.total ?? 0;
  const indexable = isIndexable(filters);
  const description = `${total} live ${title === 'Current Vacancies' ? '' : `${title.replace(/ jobs$/, '').toLowerCase()} `}${
    total === 1 ? 'role' : 'roles'
  } in property and the built environment from ${site.name}. Search, filter and apply online.`;

  return (
    <div className="jobs-page" data-testid="jobs-search">
      <Seo
        title={`${title}${page > 1 ? ` – page ${page}` : ''}`}
        description={description}
        path={indexable ? `/jobs${query ? `?${query}` : ''}` : '/jobs'}
        noindex={!indexable}
      />
      <section className="page-hero jobs-hero">
        <div className="container">
          <p className="eyebrow">Current Vacancies</p>
          <h1>{title}</h1>
          <p className="lead">{LEAD}</p>
          <p className="jobs-hero__agency">
            Every role here is advertised by {site.name}, acting as an employment agency for permanent roles and an employment business
            for temporary ones.
          </p>
        </div>
      </section>
      <div className="container section jobs-layout">
        <FiltersForm filters={filters} facets={result?.facets ?? null} onChange={apply} />
        <div className="jobs-results" ref={results}>
          {state.kind === 'error' && (
            <p className="jobs-error" role="alert">
              The search could not be run: {state.message}
            </p>
          )}
          {result ? (
            <Results filters={filters} result={result} busy={state.kind === 'loading'} />
          ) : (
            state.kind === 'loading' && (
              <p className="jobs-results__count" role="status" aria-live="polite" data-testid="jobs-count">
                Searching…
              </p>
            )
          )}
          <JobAlertSignup filters={filters} />
        </div>
      </div>
    </div>
  );
}
