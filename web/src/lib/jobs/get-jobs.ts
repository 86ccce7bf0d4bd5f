// Active jobs, newest posted first (spec §7 "jobs list"): public rows, read as anon with postgrest-js alone.
import { unwrap } from '@/lib/api';
import { getPublicData } from '@/lib/public-data';
import { JOB_COLUMNS, type JobRow } from './types';

export async function getActiveJobs(limit?: number): Promise<JobRow[]> {
  const client = await getPublicData();
  let query = client.from('jobs').select(JOB_COLUMNS).eq('status', 'active').order('posted_date', { ascending: false });
  if (limit) query = query.limit(limit);
  return unwrap(await query);
}
