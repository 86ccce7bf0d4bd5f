// Featured jobs for the admin (spec §7): the list with its job embedded (every row, by display_order), the jobs the
// selector offers, and the writes: add, update, switch on/off, remove, and reorder (rpc reorder_featured_jobs: one
// transaction). Every call throws an Error carrying the backend's message.
import { getSupabase, unwrap } from '@/lib/api';
import type { TablesInsert } from '@/lib/database.types';
import { FEATURED_SELECT, type FeaturedJobRow } from '@/lib/featured-job-row';

export const SECTOR_OPTIONS = [
  'Communications & Data',
  'Property Company',
  'Consultancy',
  'Not for Profit',
  'Supply Chain',
  'Retail & Consumer',
  'Hospitality',
  'Public Authority',
] as const;
export const TYPE_OPTIONS = ['Permanent', 'Contract'] as const;

export type { FeaturedJobRow };

export type JobOption = { id: string; job_id: string | null; title: string; company: string; status: string };

export type FeaturedFields = {
  custom_excerpt: string;
  custom_title: string | null;
  custom_company: string | null;
  custom_sector: string | null;
  custom_location: string | null;
  custom_salary: string | null;
  custom_type: string | null;
};

export async function listFeaturedJobs(): Promise<FeaturedJobRow[]> {
  const client = await getSupabase();
  return unwrap(await client.from('featured_jobs').select(FEATURED_SELECT).order('display_order', { ascending: true }));
}

/** Active jobs, newest first (the selector filters out the ones already featured). */
export async function listJobOptions(): Promise<JobOption[]> {
  const client = await getSupabase();
  return unwrap(
    await client.from('jobs').select('id, job_id, title, company, status').eq('status', 'active').order('posted_date', { ascending: false }),
  ) as JobOption[];
}

export async function addFeaturedJob(jobId: string, fields: FeaturedFields): Promise<void> {
  const client = await getSupabase();
  // display_order: the database sets it to the current count of featured jobs (spec §7, §9) in a trigger, which the
  // generated Insert type cannot see (it marks the NOT NULL column required): the one cast says so.
  const row: Omit<TablesInsert<'featured_jobs'>, 'display_order'> = { job_id: jobId, ...fields, tags: [] };
  unwrap(await client.from('featured_jobs').insert(row as TablesInsert<'featured_jobs'>));
}

export async function updateFeaturedJob(id: string, fields: Partial<FeaturedFields> | { is_active: boolean }): Promise<void> {
  const client = await getSupabase();
  unwrap(await client.from('featured_jobs').update(fields).eq('id', id));
}

export async function removeFeaturedJob(id: string): Promise<void> {
  const client = await getSupabase();
  unwrap(await client.from('featured_jobs').delete().eq('id', id));
}

export async function reorderFeaturedJobs(orderedIds: string[]): Promise<void> {
  const client = await getSupabase();
  unwrap(await client.rpc('reorder_featured_jobs', { ordered_ids: orderedIds }));
}

export function displayTitle(row: FeaturedJobRow): string {
  return row.custom_title || row.jobs?.title || 'Untitled job';
}
