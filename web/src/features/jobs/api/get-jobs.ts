// Active jobs, newest posted first (spec §7 "jobs list").
import { getSupabase, unwrap } from '@/lib/api';
import { JOB_COLUMNS, type JobRow } from './types';

export async function getActiveJobs(limit?: number): Promise<JobRow[]> {
  const client = await getSupabase();
  let query = client.from('jobs').select(JOB_COLUMNS).eq('status', 'active').order('posted_date', { ascending: false });
  if (limit) query = query.limit(limit);
  return unwrap(await query) as unknown as JobRow[];
}
