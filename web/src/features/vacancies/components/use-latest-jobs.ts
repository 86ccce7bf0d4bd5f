// Vacancies load state (spec §4): loading → real active jobs; none → sample jobs; error → sample jobs + message.
import { useEffect, useState } from 'react';
import { getActiveJobs } from '@/features/jobs/api/get-jobs';
import type { JobRow } from '@/features/jobs/api/types';
import { sampleJobs } from '@/features/jobs/data/sample-jobs';

export type LatestJobs = { loading: boolean; jobs: JobRow[]; error: boolean; sample: boolean };

export function useLatestJobs(enabled: boolean): LatestJobs {
  const [state, setState] = useState<LatestJobs>({ loading: true, jobs: [], error: false, sample: false });
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    getActiveJobs()
      .then((jobs) => {
        if (!live) return;
        setState(jobs.length ? { loading: false, jobs, error: false, sample: false } : { loading: false, jobs: sampleJobs, error: false, sample: true });
      })
      .catch((err: unknown) => {
        console.warn('Jobs load failed:', err instanceof Error ? err.message : err);
        if (live) setState({ loading: false, jobs: sampleJobs, error: true, sample: true });
      });
    return () => {
      live = false;
    };
  }, [enabled]);
  return state;
}
