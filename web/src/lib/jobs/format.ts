// Display helpers shared by job cards, the job page and its structured data.
import type { EmploymentType, JobRow } from './types';

/** Description paragraphs: split on blank lines. */
export function descriptionParagraphs(description: string | null): string[] {
  return (description ?? '')
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/** Requirements: an array, or newline-separated text (leading bullets removed). */
export function requirementList(requirements: string | string[] | null): string[] {
  const list = Array.isArray(requirements) ? requirements : (requirements ?? '').split(/\r?\n/);
  return list.map((r) => r.replace(/^\s*[-*•]\s*/, '').trim()).filter(Boolean);
}

export function postedText(job: Pick<JobRow, 'posted' | 'posted_date'>): string | null {
  if (job.posted) return job.posted;
  if (!job.posted_date) return null;
  const d = new Date(job.posted_date);
  if (Number.isNaN(d.getTime())) return null;
  return d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

export function clientTypeLabel(clientType: string | null): string {
  if (!clientType) return 'Not specified';
  if (clientType.toLowerCase() === 'confidential') return 'Confidential';
  if (clientType.toLowerCase() === 'named') return 'Named client';
  return clientType.charAt(0).toUpperCase() + clientType.slice(1);
}

export function jobReference(job: Pick<JobRow, 'job_id' | 'id'>): string {
  return job.job_id ?? job.id;
}

/** The agency line every job page carries (reg. 27), as public.job_advertiser_text words it. */
export function advertiserText(type: EmploymentType | null, firm: string): string {
  if (type === 'permanent') return `Advertised by ${firm}, acting as an employment agency (permanent role).`;
  if (type) return `Advertised by ${firm}, acting as an employment business (temporary role).`;
  return `Advertised by ${firm}.`;
}
