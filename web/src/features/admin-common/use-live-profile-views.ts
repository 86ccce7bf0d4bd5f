// Live profile views for the admin pages: a postgres_changes subscription on profile_views that calls `onChange`
// (debounced, so a burst of views reloads once) when a view is recorded or removed. The gateway delivers those
// changes only to subscribers whose claims may SELECT the row — admins, under profile_views' admin-only RLS.
import { useEffect, useRef } from 'react';
import { getSupabase } from '@/lib/api';

export const LIVE_RELOAD_DELAY_MS = 400;

export function useLiveProfileViews(onChange: () => unknown) {
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    let timer: number | undefined;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void getSupabase().then((client) => {
      if (cancelled) return;
      const channel = client
        .channel(`admin-profile-views-${crypto.randomUUID()}`)
        .on('postgres_changes', { event: '*', schema: 'public', table: 'profile_views' }, () => {
          window.clearTimeout(timer);
          timer = window.setTimeout(() => void latest.current(), LIVE_RELOAD_DELAY_MS);
        })
        .subscribe();
      stop = () => void client.removeChannel(channel);
    });
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
      stop?.();
    };
  }, []);
}
