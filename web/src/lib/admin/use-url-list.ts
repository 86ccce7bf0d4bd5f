// A server-paged admin list whose filters live in the address (?q=…&offset=… and the list's own), so a filtered
// list can be linked to, reloaded and returned to: the search (?q) is sent 250 ms after typing stops; any other
// change goes back to the first page. `selected` holds the rows ticked for a bulk change and empties when the rows
// change.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@/lib/use-query';

export const SEARCH_DELAY_MS = 250;

export function useUrlList<F extends { search: string }, T>(
  names: readonly string[],
  parse: (params: URLSearchParams) => F,
  load: (filters: F, offset: number) => Promise<T>,
) {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => parse(params), [params, parse]);
  const offset = Math.max(0, Number(params.get('offset')) || 0);
  const [search, setSearch] = useState(filters.search);
  const [selected, setSelected] = useState<Set<string>>(new Set());

  const update = useCallback(
    (changes: Record<string, string | null>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value) next.set(key, value);
            else next.delete(key);
          }
          if (!('offset' in changes)) next.delete('offset');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  useEffect(() => {
    if (search === filters.search) return;
    const timer = window.setTimeout(() => update({ q: search.trim() ? search : null }), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [search, filters.search, update]);

  const key = JSON.stringify([filters, offset]);
  const query = useQuery(() => load(filters, offset), [key]);
  useEffect(() => setSelected(new Set()), [key]);

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const setFilter = (name: string, value: string | null) => update({ [name]: value });
  const setOffset = (value: number) => update({ offset: value > 0 ? String(value) : null });
  const clear = () => {
    setSearch('');
    update(Object.fromEntries(['q', ...names].map((n) => [n, null])));
  };
  return { filters, offset, search, setSearch, setFilter, setOffset, clear, selected, setSelected, toggle, ...query };
}
