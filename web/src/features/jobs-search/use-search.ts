// The search a /jobs address asks for: on a page the server rendered, its result comes with it (data-ssr-search,
// public.render_jobs_page); after a filter changes it is fetched from public.search_jobs (./api).
import { useEffect, useState } from 'react';
import { fetchSearch, searchResult } from './api';
import { filtersQuery, type Filters, type SearchResult } from '@/lib/job-search/model';

export type SearchState =
  | { kind: 'ready'; result: SearchResult; query: string }
  | { kind: 'loading'; previous: SearchResult | null }
  | { kind: 'error'; message: string; previous: SearchResult | null };

type ServerSearch = { query: string; result: SearchResult; status: number; heading: string };

/** What the server rendered with the page, read once before the first render replaces its markup. */
function readServerSearch(): ServerSearch | null {
  if (typeof document === 'undefined') return null;
  const el = document.querySelector<HTMLElement>('[data-ssr-search]');
  if (!el?.dataset.ssrSearch) return null;
  try {
    const data = JSON.parse(el.dataset.ssrSearch) as { filters: Record<string, unknown>; result: unknown; heading: string };
    // The server's filters in the same canonical query string as ours, to know it answered this address.
    const f = data.filters;
    const list = (k: string) => (Array.isArray(f[k]) ? (f[k] as string[]) : []);
    const query = filtersQuery({
      q: f.q as string | undefined,
      location: f.location as string | undefined,
      sector: list('sector'),
      region: list('region') as Filters['region'],
      type: list('type') as Filters['type'],
      arrangement: list('arrangement') as Filters['arrangement'],
      salary: f.salary as number | undefined,
      posted: f.posted as number | undefined,
      sort: f.sort === 'relevance' ? 'relevance' : undefined,
      page: f.page as number | undefined,
    });
    return { query, result: searchResult(data.result), status: Number(el.dataset.ssrStatus ?? 200), heading: data.heading };
  } catch {
    return null;
  }
}

let serverSearch: ServerSearch | null | undefined;

export function useSearch(filters: Filters): SearchState {
  const query = filtersQuery(filters);
  const [state, setState] = useState<SearchState>(() => {
    serverSearch ??= readServerSearch();
    return serverSearch && serverSearch.query === query
      ? { kind: 'ready', result: serverSearch.result, query }
      : { kind: 'loading', previous: null };
  });
  useEffect(() => {
    if (state.kind === 'ready' && state.query === query) return;
    let live = true;
    setState((s) => ({ kind: 'loading', previous: s.kind === 'ready' ? s.result : s.previous }));
    fetchSearch(filters)
      .then((result) => live && setState({ kind: 'ready', result, query }))
      .catch((e: unknown) => {
        if (!live) return;
        const message = e instanceof Error ? e.message : String(e);
        setState((s) => ({ kind: 'error', message, previous: s.kind === 'loading' ? s.previous : null }));
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the query string is the filters' identity
  }, [query]);
  return state;
}
