// Vacancies load state (spec §4): loading → real active jobs; none → sample jobs; error → sample jobs + message.
import { getActiveJobs } from '@/lib/jobs/get-jobs';
import type { JobRow } from '@/lib/jobs/types';
import { useQuery } from '@/lib/use-query';
import { latestJobsState, type LatestJobs } from './latest-jobs-state';

async function loadActiveJobs(): Promise<JobRow[]> {
  try {
    return await getActiveJobs();
  } catch (err) {
    console.warn('Jobs load failed:', err instanceof Error ? err.message : err);
    throw err;
  }
}

export function useLatestJobs(enabled: boolean): LatestJobs {
  const { data, error } = useQuery(loadActiveJobs, [], enabled);
  return latestJobsState(data, error !== null);
}
