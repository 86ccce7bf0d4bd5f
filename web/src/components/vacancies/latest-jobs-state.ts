// The vacancies section's state from its one load (spec §4): loading → real active jobs; none → sample jobs; error →
// sample jobs + message. Pure (no React, no network), so it is unit-tested.
import type { JobRow } from '@/lib/jobs/types';
import { sampleJobs } from '@/lib/jobs/sample-jobs';

export type LatestJobs = { loading: boolean; jobs: JobRow[]; error: boolean; sample: boolean };

/** `jobs` is null while the load runs; `failed` when it ended in an error. */
export function latestJobsState(jobs: JobRow[] | null, failed: boolean): LatestJobs {
  if (failed) return { loading: false, jobs: sampleJobs, error: true, sample: true };
  if (jobs === null) return { loading: true, jobs: [], error: false, sample: false };
  if (jobs.length === 0) return { loading: false, jobs: sampleJobs, error: false, sample: true };
  return { loading: false, jobs, error: false, sample: false };
}
