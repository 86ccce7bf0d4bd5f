// The candidate list's state: the search term (sent to the server after a 250 ms pause), the page offset and the
// loaded page; `refetch` reloads the current page (after a write, or from outside, e.g. a realtime event).
import { useEffect, useState } from 'react';
import { useQuery } from '@/lib/use-query';
import { getProfilePage } from './api/candidate-profiles';

export const SEARCH_DELAY_MS = 250;

export function useCandidateProfiles() {
  const [search, setSearch] = useState('');
  const [term, setTerm] = useState('');
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    const timer = window.setTimeout(() => {
      setTerm(search);
      setOffset(0);
    }, SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [search]);
  const query = useQuery(() => getProfilePage(term, offset), [term, offset]);
  return { search, setSearch, term, offset, setOffset, ...query };
}
