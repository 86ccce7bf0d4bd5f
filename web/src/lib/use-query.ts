// The site's one data-loading hook: { data, error, loading, refetch }. `refetch` can be called from outside the page
// (e.g. a realtime subscription) to load the data again. Stale-answer rule: only the newest load's answer lands (a
// generation counter); the last good data stays while a reload runs or fails.
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
      if (mine === generation.current) setState((s) => ({ data: s.data, error: errorMessage(e), loading: false }));
    }
  }, []);

  useEffect(() => {
    if (enabled) void refetch();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, refetch, ...deps]);

  return { ...state, refetch };
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
