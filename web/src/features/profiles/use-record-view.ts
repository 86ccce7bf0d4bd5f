// Records one view per profile (or client link) per page load, and only once the page has been visible to a person
// (Page Visibility API): e-mail link scanners and prerenderers that load the page without showing it record nothing.
// Waits for the session so a signed-in viewer is recorded as themselves (and an admin's view is known as one).
import { useEffect, useRef } from 'react';
import { useAuth } from '@/lib/auth';
import { recordProfileView } from './api/public-profile';

const recordedThisLoad = new Set<string>();

export function whenVisible(run: () => void): () => void {
  if (document.visibilityState === 'visible') {
    run();
    return () => undefined;
  }
  const onChange = () => {
    if (document.visibilityState !== 'visible') return;
    document.removeEventListener('visibilitychange', onChange);
    run();
  };
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}

/** Runs `record` once per page load for `key` (null: nothing to record yet), once visible and the session known. */
export function useRecordOnce(key: string | null, record: (userId: string | null) => Promise<unknown>) {
  const { loading, user } = useAuth();
  const userId = user?.id ?? null;
  const recordRef = useRef(record);
  recordRef.current = record;
  useEffect(() => {
    if (!key || loading || recordedThisLoad.has(key)) return;
    return whenVisible(() => {
      if (recordedThisLoad.has(key)) return;
      recordedThisLoad.add(key);
      recordRef.current(userId).catch(() => recordedThisLoad.delete(key));
    });
  }, [key, loading, userId]);
}

export function useRecordView(profileId: string | null) {
  useRecordOnce(profileId, (userId) => recordProfileView(profileId as string, userId));
}
