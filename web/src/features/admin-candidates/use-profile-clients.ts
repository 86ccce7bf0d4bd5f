// The clients whose links were viewed, for the profiles on the page (rpc admin_profile_clients), by profile id;
// loaded again whenever the page's rows are (after a write, or a view arriving live).
import { useMemo } from 'react';
import { useQuery } from '@/lib/use-query';
import type { CandidateProfile } from './api/candidate-profiles';
import { getProfileClients, type ProfileClient } from './api/sharing';

export function useProfileClients(profiles: CandidateProfile[] | undefined) {
  const ids = (profiles ?? []).map((p) => p.id);
  const query = useQuery(() => getProfileClients(ids), [profiles], ids.length > 0);
  const byProfile = useMemo(() => {
    const map = new Map<string, ProfileClient[]>();
    for (const c of query.data ?? []) map.set(c.profile_id, [...(map.get(c.profile_id) ?? []), c]);
    return map;
  }, [query.data]);
  return { byProfile, refetch: query.refetch };
}
