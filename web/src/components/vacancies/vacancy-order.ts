// Display order of the vacancies section: first job, first trending card, second job, third job, second trending
// card — at most five.
import type { JobRow } from '@/lib/jobs/types';
import { trendingCards, type TrendingCard } from '@/lib/jobs/sample-jobs';

export const VACANCY_CARDS = 5;

export type VacancyItem = { kind: 'job'; job: JobRow } | TrendingCard;

export function vacancyOrder(jobs: JobRow[]): VacancyItem[] {
  const j = jobs.map((job) => ({ kind: 'job' as const, job }));
  const slots: (VacancyItem | undefined)[] = [j[0], trendingCards[0], j[1], j[2], trendingCards[1]];
  return slots.filter((x): x is VacancyItem => x !== undefined).slice(0, VACANCY_CARDS);
}
