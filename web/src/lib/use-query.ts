// A small data-loading hook for the admin pages: { data, error, loading, refetch }. `refetch` can be called from
// outside the page (e.g. a realtime subscription) to load the data again; stale answers are dropped.
import { useCallback, useEffect, useRef, useState } from 'react';

export type QueryState<T> = { data: T | null; error: string | null; loading: boolean; refetch: () => Promise<void> };

export function useQuery<T>(load: () => Promise<T>, deps: unknown[], enabled = true): QueryState<T> {
  const [state, setState] = useState<{ data: T | null; error: string | null; loading: boolean }>({
    data: null,
    error: null,
    loading: enabled,
  });
  const generation = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  const refetch = useCallback(async () => {
    const mine = ++generation.current;
    setState((s) => ({ ...s, loading: true }));
    try {
      const data = await loadRef.current();
      if (mine === generation.current) setState({ data, error: null, loading: false });
    } catch (e) {
      if (mine === generation.current) setState((s) => ({ data: s.data, error: (e as Error).message, loading: false }));
    }
  }, []);

  useEffect(() => {
    if (enabled) void refetch();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, refetch, ...deps]);

  return { ...state, refetch };
}
