// The analytics page's data: the page-wide figures with one page of the table (`offset`), and, when a row is chosen,
// that profile's trend. The chosen row is kept whole, so it stays chosen on another page of the table. `refetch`
// reloads both, so a caller outside the page (the postgres_changes subscription on profile_views) can refresh the
// figures when a view arrives.
import { useCallback, useState } from 'react';
import { useQuery } from '@/lib/use-query';
import { getAnalytics, getProfileTrend, type ProfileFigures } from './api/profile-analytics';

export function useProfileAnalytics() {
  const [selected, setSelected] = useState<ProfileFigures | null>(null);
  const [offset, setOffset] = useState(0);
  const selectedId = selected?.id ?? null;
  const all = useQuery(() => getAnalytics(offset), [offset]);
  const one = useQuery(() => getProfileTrend(selectedId as string), [selectedId], selectedId !== null);
  const refetchAll = all.refetch;
  const refetchOne = one.refetch;
  const refetch = useCallback(async () => {
    await Promise.all([refetchAll(), selectedId ? refetchOne() : Promise.resolve()]);
  }, [refetchAll, refetchOne, selectedId]);
  const trend = selectedId ? (one.data?.profile_id === selectedId ? one.data : null) : (all.data?.trend ?? null);
  return { analytics: all.data, error: all.error ?? one.error, selected, select: setSelected, setOffset, trend, refetch };
}
