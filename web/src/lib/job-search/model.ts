// The job search's vocabulary and URL state: the filters a /jobs address holds (the same parameters, order and
// encoding as the database's private.jobs_href in sql/migrations/0404_jobs_page.sql), the result shape of
// public.search_jobs, and the words the page shows. Pure: no React, no network.
import { EMPLOYMENT_TYPE_LABELS, WORK_ARRANGEMENT_LABELS, type EmploymentType, type UkRegion, type WorkArrangement } from '@/lib/job-vocabulary';

export { EMPLOYMENT_TYPE_LABELS, WORK_ARRANGEMENT_LABELS, type EmploymentType, type UkRegion, type WorkArrangement } from '@/lib/job-vocabulary';
export type SortOrder = 'newest' | 'relevance';

/** What a /jobs address asks for. Lists are empty when not filtered; page 1 and sort newest are the defaults. */
export type Filters = {
  q?: string;
  location?: string;
  sector: string[];
  region: UkRegion[];
  type: EmploymentType[];
  arrangement: WorkArrangement[];
  salary?: number;
  posted?: number;
  sort?: 'relevance';
  page?: number;
};

export type ListKey = 'sector' | 'region' | 'type' | 'arrangement';

export type FacetValue<T extends string | number = string> = { value: T; count: number };

export type JobSummary = {
  id: string;
  job_id: string | null;
  title: string;
  company: string | null;
  location: string | null;
  region: UkRegion | null;
  salary: string | null;
  type: string | null;
  sector: string | null;
  employment_type: EmploymentType | null;
  work_arrangement: WorkArrangement | null;
  posted_date: string;
  closing_date: string | null;
  excerpt: string | null;
};

export type SearchResult = {
  total: number;
  page: number;
  pages: number;
  page_size: number;
  jobs: JobSummary[];
  facets: {
    sector: FacetValue[];
    region: FacetValue<UkRegion>[];
    employment_type: FacetValue<EmploymentType>[];
    work_arrangement: FacetValue<WorkArrangement>[];
    salary_min: FacetValue<number>[];
    posted_within: FacetValue<number>[];
  };
};

export const emptyFilters = (): Filters => ({ sector: [], region: [], type: [], arrangement: [] });

const LIST_KEYS: ListKey[] = ['sector', 'region', 'type', 'arrangement'];
const WHOLE = /^[0-9]{1,8}$/;

/** The filters of a query string (unknown parameters ignored, as the database does). */
export function parseFilters(params: URLSearchParams): Filters {
  const last = (k: string) => params.getAll(k).map((v) => v.trim()).filter(Boolean).pop();
  const list = (k: string) => [...new Set(params.getAll(k).map((v) => v.trim()).filter(Boolean))];
  const whole = (k: string) => {
    const v = last(k);
    return v && WHOLE.test(v) ? Number(v) : undefined;
  };
  const page = whole('page');
  return {
    q: last('q'),
    location: last('location'),
    sector: list('sector').sort(),
    region: list('region') as UkRegion[],
    type: list('type') as EmploymentType[],
    arrangement: list('arrangement') as WorkArrangement[],
    salary: whole('salary'),
    posted: whole('posted'),
    sort: last('sort') === 'relevance' ? 'relevance' : undefined,
    page: page && page > 1 ? page : undefined,
  };
}

/** The query string of a set of filters, in the database's canonical order ('' for none). */
export function filtersQuery(f: Filters): string {
  const params = new URLSearchParams();
  if (f.q) params.append('q', f.q);
  if (f.location) params.append('location', f.location);
  for (const k of LIST_KEYS) for (const v of f[k]) params.append(k, v);
  if (f.salary != null) params.append('salary', String(f.salary));
  if (f.posted != null) params.append('posted', String(f.posted));
  if (f.sort === 'relevance') params.append('sort', 'relevance');
  if (f.page && f.page > 1) params.append('page', String(f.page));
  return params.toString();
}

export function filtersHref(f: Filters): string {
  const query = filtersQuery(f);
  return query ? `/jobs?${query}` : '/jobs';
}

/** The filters without one value of a list (or without a single-valued filter), back on page 1. */
export function without(f: Filters, key: keyof Filters, value?: string): Filters {
  const next: Filters = { ...f, page: undefined };
  if ((LIST_KEYS as string[]).includes(key)) {
    const k = key as ListKey;
    (next[k] as string[]) = value === undefined ? [] : (f[k] as string[]).filter((v) => v !== value);
  } else {
    delete next[key];
  }
  return next;
}

export function hasFilters(f: Filters): boolean {
  return Boolean(f.q || f.location || f.salary != null || f.posted != null || LIST_KEYS.some((k) => f[k].length));
}

export function money(amount: number): string {
  return `£${amount.toLocaleString('en-GB')}`;
}

export function postedLabel(days: number): string {
  return days === 1 ? 'Last 24 hours' : `Last ${days} days`;
}

export function postedDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** "57 jobs found, showing 21–40", "1 job found", "No jobs found". */
export function countText(total: number, page: number, pageSize: number): string {
  if (total === 0) return 'No jobs found';
  const base = `${total} ${total === 1 ? 'job' : 'jobs'} found`;
  if (total <= pageSize) return base;
  return `${base}, showing ${(page - 1) * pageSize + 1}–${Math.min(page * pageSize, total)}`;
}

/** The heading of /jobs or of an indexable view (one value of one of sector, region, type, arrangement). */
export function heading(f: Filters): string {
  const single = !f.q && !f.location && f.salary == null && f.posted == null && !f.sort;
  const lists = LIST_KEYS.filter((k) => f[k].length > 0);
  if (single && lists.length === 0) return 'Current Vacancies';
  if (single && lists.length === 1 && f[lists[0]].length === 1) {
    const v = f[lists[0]][0];
    if (lists[0] === 'sector') return `${v} jobs`;
    if (lists[0] === 'region') return `Jobs in ${v}`;
    if (lists[0] === 'type') return `${EMPLOYMENT_TYPE_LABELS[v as EmploymentType]} jobs`;
    return `${WORK_ARRANGEMENT_LABELS[v as WorkArrangement]} jobs`;
  }
  return 'Current Vacancies';
}

export function isIndexable(f: Filters): boolean {
  return heading(f) !== 'Current Vacancies' || !hasFilters(f);
}

/** The active filters as removable chips, in the page's order. */
export function chips(f: Filters): { label: string; href: string }[] {
  const out: { label: string; href: string }[] = [];
  if (f.q) out.push({ label: `“${f.q}”`, href: filtersHref(without(f, 'q')) });
  if (f.location) out.push({ label: `Near ${f.location}`, href: filtersHref(without(f, 'location')) });
  for (const v of f.sector) out.push({ label: v, href: filtersHref(without(f, 'sector', v)) });
  for (const v of f.region) out.push({ label: v, href: filtersHref(without(f, 'region', v)) });
  for (const v of f.type) out.push({ label: EMPLOYMENT_TYPE_LABELS[v] ?? v, href: filtersHref(without(f, 'type', v)) });
  for (const v of f.arrangement) out.push({ label: WORK_ARRANGEMENT_LABELS[v] ?? v, href: filtersHref(without(f, 'arrangement', v)) });
  if (f.salary != null) out.push({ label: `${money(f.salary)}+`, href: filtersHref(without(f, 'salary')) });
  if (f.posted != null) out.push({ label: postedLabel(f.posted), href: filtersHref(without(f, 'posted')) });
  return out;
}

/** The page numbers the pager shows: the first, the last and two either side of the current one; null = a gap. */
export function pagerPages(page: number, pages: number): (number | null)[] {
  const shown = Array.from({ length: pages }, (_, i) => i + 1).filter((p) => p === 1 || p === pages || Math.abs(p - page) <= 2);
  const out: (number | null)[] = [];
  shown.forEach((p, i) => {
    out.push(p);
    if (i + 1 < shown.length && shown[i + 1] > p + 1) out.push(null);
  });
  return out;
}

/** The filters as public.search_jobs arguments. */
export function searchArgs(f: Filters) {
  return {
    q: f.q ?? undefined,
    location: f.location ?? undefined,
    sector: f.sector.length ? f.sector : undefined,
    region: f.region.length ? f.region : undefined,
    employment_type: f.type.length ? f.type : undefined,
    work_arrangement: f.arrangement.length ? f.arrangement : undefined,
    salary_min: f.salary,
    posted_within: f.posted,
    page: f.page ?? 1,
    sort: f.sort ?? 'newest',
  };
}
