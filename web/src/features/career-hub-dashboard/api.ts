// The dashboard's reads and the candidate's data rights, all through SQL functions of the caller
// (sql/migrations/0202): saved jobs (closed ones marked), applications, data export, account deletion.
import { getSupabase } from '@/lib/api';

export type SavedJob = { job_id: string; saved_at: string; title: string; company: string; location: string | null; salary: string | null; type: string | null; status: 'active' | 'closed' };
/** status: the plain status that follows the firm's (Received, In review, Interviewing, Offer, Placed, Not progressed, Withdrawn). */
export type MyApplication = { id: string; applied_at: string; job_id: string | null; job_title: string | null; company: string | null; job_status: 'active' | 'closed' | 'removed'; status: string };

function result<T>({ data, error }: { data: unknown; error: { message: string } | null }): T {
  if (error) throw new Error(error.message);
  return data as T;
}

const client = () => getSupabase();
export const listSavedJobs = async () => result<SavedJob[]>(await (await client()).rpc('my_saved_jobs'));
export const listApplications = async () => result<MyApplication[]>(await (await client()).rpc('my_applications'));
/** Everything the site keeps about the caller: the account's data (export_my_data) and the firm's desk's part of it
 * (export_my_desk_data: applications' plain statuses, a profile's consents and where it was shared), as one file. */
export const exportMyData = async () => {
  const c = await client();
  const [account, desk] = await Promise.all([c.rpc('export_my_data'), c.rpc('export_my_desk_data')]);
  return { ...result<Record<string, unknown>>(account), ...result<Record<string, unknown>>(desk) };
};
export const deleteMyAccount = async () =>
  result<Record<string, number>>(await (await client()).rpc('delete_my_account', { confirmation: 'DELETE' }));

export async function removeSavedJob(jobId: string): Promise<void> {
  const { error } = await (await getSupabase()).from('saved_jobs').delete().eq('job_id', jobId);
  if (error) throw new Error(error.message);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** The spec's date display format, 'dd MMM yyyy HH:mm' (local time). */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  return `${two(d.getDate())} ${MONTHS[d.getMonth()]} ${d.getFullYear()} ${two(d.getHours())}:${two(d.getMinutes())}`;
}
