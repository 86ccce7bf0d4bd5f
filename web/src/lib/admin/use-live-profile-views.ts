// Live profile views for the admin pages: a postgres_changes subscription on profile_views that calls `onChange`
// (debounced, so a burst of views reloads once) when a view is recorded or removed. The gateway delivers those
// changes only to subscribers whose claims may SELECT the row — admins, under profile_views' admin-only RLS.
// Returns whether the subscription is live: Realtime's system message says the database side is ready (until then,
// or when Realtime is unavailable, the page still shows the figures of its last load).
import { useEffect, useRef, useState } from 'react';
import { getSupabase } from '@/lib/api';

export const LIVE_RELOAD_DELAY_MS = 400;

export function useLiveProfileViews(onChange: () => unknown): boolean {
  const latest = useRef(onChange);
  latest.current = onChange;
  const [live, setLive] = useState(false);
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
        .on('system', {}, (message: { status?: string }) => {
          if (!cancelled) setLive(message?.status === 'ok');
        })
        .subscribe((status) => {
          if (!cancelled && status !== 'SUBSCRIBED') setLive(false);
        });
      stop = () => void client.removeChannel(channel);
    });
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
      stop?.();
    };
  }, []);
  return live;
}
