// The application pipeline's vocabulary (the SQL enum application_status): the order the firm works through, the
// admin's label for each, and what the candidate sees (public.plain_application_status says the same in SQL).
import type { Database } from '@/lib/database.types';

export type ApplicationStatus = Database['public']['Enums']['application_status'];

export const STATUSES: readonly ApplicationStatus[] = ['new', 'reviewed', 'shortlisted', 'interviewing', 'offered', 'placed', 'not_progressed', 'withdrawn'];

export const STATUS_LABELS: Record<ApplicationStatus, string> = {
  new: 'New',
  reviewed: 'Reviewed',
  shortlisted: 'Shortlisted',
  interviewing: 'Interviewing',
  offered: 'Offered',
  placed: 'Placed',
  not_progressed: 'Not progressed',
  withdrawn: 'Withdrawn',
};

/** The status a candidate sees in "My Applications". */
export const PLAIN_STATUS: Record<ApplicationStatus, string> = {
  new: 'Received',
  reviewed: 'In review',
  shortlisted: 'In review',
  interviewing: 'Interviewing',
  offered: 'Offer',
  placed: 'Placed',
  not_progressed: 'Not progressed',
  withdrawn: 'Withdrawn',
};

/** The badge colour family of a status: open, good news, or closed. */
export function statusTone(status: ApplicationStatus): 'open' | 'good' | 'closed' {
  if (status === 'offered' || status === 'placed') return 'good';
  if (status === 'not_progressed' || status === 'withdrawn') return 'closed';
  return 'open';
}

export function isStatus(value: string | null | undefined): value is ApplicationStatus {
  return STATUSES.includes(value as ApplicationStatus);
}
