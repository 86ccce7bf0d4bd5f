// One active job by id (spec §7 "jobs single"); null when there is none. Ids that are not UUIDs cannot be jobs.
import { getSupabase, unwrap } from '@/lib/api';
import { JOB_COLUMNS, type JobRow } from '@/lib/jobs/types';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isJobUuid(id: string): boolean {
  return UUID.test(id);
}

export async function getActiveJob(id: string): Promise<JobRow | null> {
  if (!isJobUuid(id)) return null;
  const client = await getSupabase();
  const row = unwrap(await client.from('jobs').select(JOB_COLUMNS).eq('id', id).eq('status', 'active').maybeSingle());
  return row;
}
