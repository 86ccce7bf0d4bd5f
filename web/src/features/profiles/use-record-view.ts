// Records one view per profile per page load, and only once the page has been visible to a person (Page Visibility
// API): e-mail link scanners and prerenderers that load the page without showing it record nothing. Waits for the
// session so a signed-in viewer is recorded as themselves (and an admin's view is known as one).
import { useEffect } from 'react';
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

export function useRecordView(profileId: string | null) {
  const { loading, user } = useAuth();
  const userId = user?.id ?? null;
  useEffect(() => {
    if (!profileId || loading || recordedThisLoad.has(profileId)) return;
    return whenVisible(() => {
      if (recordedThisLoad.has(profileId)) return;
      recordedThisLoad.add(profileId);
      recordProfileView(profileId, userId).catch(() => recordedThisLoad.delete(profileId));
    });
  }, [profileId, loading, userId]);
}
