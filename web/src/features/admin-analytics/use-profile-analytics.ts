// The analytics page's data: the page-wide figures and, when a row is chosen, that profile's trend. `refetch` reloads
// both, so a caller outside the page (the realtime branch's postgres_changes subscription on profile_views) can
// refresh the figures when a view arrives.
import { useCallback, useState } from 'react';
import { useQuery } from '../admin-common/use-query';
import { getAnalytics, getProfileTrend } from './api/profile-analytics';

export function useProfileAnalytics() {
  const [selected, setSelected] = useState<string | null>(null);
  const all = useQuery(getAnalytics, []);
  const one = useQuery(() => getProfileTrend(selected as string), [selected], selected !== null);
  const refetchAll = all.refetch;
  const refetchOne = one.refetch;
  const refetch = useCallback(async () => {
    await Promise.all([refetchAll(), selected ? refetchOne() : Promise.resolve()]);
  }, [refetchAll, refetchOne, selected]);
  const trend = selected ? (one.data?.profile_id === selected ? one.data : null) : (all.data?.trend ?? null);
  return { analytics: all.data, error: all.error ?? one.error, selected, select: setSelected, trend, refetch };
}
