// Vacancies load state (spec §4): loading → real active jobs; none → sample jobs; error → sample jobs + message.
import { getActiveJobs } from '@/features/jobs/api/get-jobs';
import type { JobRow } from '@/features/jobs/api/types';
import { sampleJobs } from '@/features/jobs/data/sample-jobs';
import { useQuery } from '@/lib/use-query';

export type LatestJobs = { loading: boolean; jobs: JobRow[]; error: boolean; sample: boolean };

async function loadActiveJobs(): Promise<JobRow[]> {
  try {
    return await getActiveJobs();
  } catch (err) {
    console.warn('Jobs load failed:', err instanceof Error ? err.message : err);
    throw err;
  }
}

/** The section's state from the one load (spec §4's fallbacks): pure, so it is unit-tested. */
export function latestJobsState(jobs: JobRow[] | null, failed: boolean): LatestJobs {
  if (failed) return { loading: false, jobs: sampleJobs, error: true, sample: true };
  if (jobs === null) return { loading: true, jobs: [], error: false, sample: false };
  if (jobs.length === 0) return { loading: false, jobs: sampleJobs, error: false, sample: true };
  return { loading: false, jobs, error: false, sample: false };
}

export function useLatestJobs(enabled: boolean): LatestJobs {
  const { data, error } = useQuery(loadActiveJobs, [], enabled);
  return latestJobsState(data, error !== null);
}
