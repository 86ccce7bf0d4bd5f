// Loads a list (or a page of one) for the dashboard and keeps its loading/error state; `reload` fetches it again.
import { useCallback, useEffect, useState } from 'react';

export type ListState<T> = { items: T | null; error: string | null; reload: () => void };

export function useList<T>(load: () => Promise<T>): ListState<T> {
  const [items, setItems] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    load()
      .then((rows) => live && (setItems(rows), setError(null)))
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [load, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { items, error, reload };
}
