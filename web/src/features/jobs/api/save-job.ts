// Save Job for a signed-in candidate (saved_jobs is owner-only: user_id must be the caller).
import { getSupabase } from '@/lib/api';

export async function saveJob(userId: string, jobId: string): Promise<'saved' | 'already'> {
  const client = await getSupabase();
  const { error } = await client.from('saved_jobs').insert({ user_id: userId, job_id: jobId });
  if (!error) return 'saved';
  if (error.code === '23505') return 'already';
  throw new Error(error.message);
}
