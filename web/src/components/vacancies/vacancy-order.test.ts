// The vacancies section's card order and its load states (spec §4), without a browser.
import { describe, expect, it } from 'vitest';
import type { JobRow } from '@/lib/jobs/types';
import { sampleJobs, trendingCards } from '@/lib/jobs/sample-jobs';
import { latestJobsState } from './latest-jobs-state';
import { VACANCY_CARDS, vacancyOrder } from './vacancy-order';

const jobs = (n: number): JobRow[] => Array.from({ length: n }, (_, i) => ({ ...sampleJobs[0], id: `job-${i + 1}`, title: `Job ${i + 1}` }));
const shape = (items: ReturnType<typeof vacancyOrder>) => items.map((x) => (x.kind === 'job' ? x.job.id : x.title));

describe('vacancyOrder', () => {
  it('puts job 1, trending 1, job 2, job 3, trending 2', () => {
    expect(shape(vacancyOrder(jobs(3)))).toEqual(['job-1', trendingCards[0].title, 'job-2', 'job-3', trendingCards[1].title]);
  });

  it('shows at most five cards however many jobs there are', () => {
    const items = vacancyOrder(jobs(12));
    expect(items).toHaveLength(VACANCY_CARDS);
    expect(shape(items)).toEqual(['job-1', trendingCards[0].title, 'job-2', 'job-3', trendingCards[1].title]);
  });

  it('closes the gaps when there are fewer than three jobs', () => {
    expect(shape(vacancyOrder(jobs(1)))).toEqual(['job-1', trendingCards[0].title, trendingCards[1].title]);
    expect(shape(vacancyOrder(jobs(2)))).toEqual(['job-1', trendingCards[0].title, 'job-2', trendingCards[1].title]);
  });

  it('shows only the trending cards when there is no job', () => {
    expect(vacancyOrder([]).map((x) => x.kind)).toEqual(['trending', 'trending']);
  });
});

describe('latestJobsState', () => {
  it('is loading, with no cards, until the load answers', () => {
    expect(latestJobsState(null, false)).toEqual({ loading: true, jobs: [], error: false, sample: false });
  });

  it('shows the real jobs, newest first as loaded', () => {
    const real = jobs(4);
    expect(latestJobsState(real, false)).toEqual({ loading: false, jobs: real, error: false, sample: false });
  });

  it('falls back to the sample jobs when there are none', () => {
    expect(latestJobsState([], false)).toEqual({ loading: false, jobs: sampleJobs, error: false, sample: true });
  });

  it('falls back to the sample jobs with an error when the load failed, whatever it returned', () => {
    expect(latestJobsState(null, true)).toEqual({ loading: false, jobs: sampleJobs, error: true, sample: true });
    expect(latestJobsState(jobs(2), true)).toMatchObject({ jobs: sampleJobs, error: true });
  });
});
