// The list's state lives in the URL (?q=&status=&issue=&sector=&sort=&page=): shareable, the back button works and
// the dashboard links straight to a filter (?issue=incomplete). The search box waits 250 ms before asking the server.
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@/lib/use-query';
import { getJobPage, PAGE_SIZE, type ListFilters, type ListIssue, type ListSort } from './api/jobs';
import { JOB_STATUSES, type JobStatus } from './job-model';

export const SEARCH_DELAY_MS = 250;
const ISSUES: ListIssue[] = ['incomplete', 'cannot_publish', 'closing_soon'];
const SORTS: ListSort[] = ['updated', 'posted', 'closing', 'title'];

export function filtersFromParams(p: URLSearchParams): ListFilters {
  const pick = <T extends string>(value: string | null, allowed: readonly T[], fallback: T | ''): T | '' =>
    allowed.includes(value as T) ? (value as T) : fallback;
  const page = Math.max(1, Number.parseInt(p.get('page') ?? '1', 10) || 1);
  return {
    search: p.get('q') ?? '',
    status: pick<JobStatus>(p.get('status'), JOB_STATUSES, ''),
    issue: pick<ListIssue>(p.get('issue'), ISSUES, ''),
    sector: p.get('sector') ?? '',
    sort: (pick<ListSort>(p.get('sort'), SORTS, 'updated') || 'updated') as ListSort,
    offset: (page - 1) * PAGE_SIZE,
  };
}

export function useJobList() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromParams(params), [params]);
  const [search, setSearch] = useState(filters.search);
  const query = useQuery(() => getJobPage(filters), [filters.search, filters.status, filters.issue, filters.sector, filters.sort, filters.offset]);

  function update(changes: Record<string, string>, keepPage = false) {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v) next.set(k, v);
          else next.delete(k);
        }
        if (!keepPage) next.delete('page');
        return next;
      },
      { replace: Object.keys(changes).includes('q') },
    );
  }

  useEffect(() => {
    if (search === filters.search) return;
    const timer = window.setTimeout(() => update({ q: search }), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search]);

  return {
    ...query,
    filters,
    search,
    setSearch,
    setFilter: (name: 'status' | 'issue' | 'sector' | 'sort', value: string) => update({ [name]: value }),
    setPage: (page: number) => update({ page: page > 1 ? String(page) : '' }, true),
    clear: () => {
      setSearch('');
      setParams(new URLSearchParams());
    },
  };
}
