// The dashboard's reads and the candidate's data rights, all through SQL functions of the caller
// (sql/migrations/0202, 0332, 0335): saved jobs (closed ones marked), applications, data export (every part, the
// long lists read on page by page), account deletion.
import { getSupabase } from '@/lib/api';

/** A job as the candidate may see it: current while active, else as it last was in public (null if it never was). */
export type SavedJob = { job_id: string; saved_at: string; title: string | null; company: string | null; location: string | null; salary: string | null; type: string | null; status: 'active' | 'closed' };
/** status: the plain status that follows the firm's (Received, In review, Interviewing, Offer, Placed, Not progressed, Withdrawn). */
export type MyApplication = { id: string; applied_at: string; job_id: string | null; job_title: string | null; company: string | null; job_status: 'active' | 'closed' | 'removed'; status: string };

function result<T>({ data, error }: { data: unknown; error: { message: string } | null }): T {
  if (error) throw new Error(error.message);
  return data as T;
}

const client = () => getSupabase();
export const listSavedJobs = async () => result<SavedJob[]>(await (await client()).rpc('my_saved_jobs'));
export const listApplications = async () => result<MyApplication[]>(await (await client()).rpc('my_applications'));
type Export = Record<string, unknown> & { page_size: number; more: Record<string, boolean> };

/** Everything the site holds about the caller: the export, with each list flagged in `more` read to its end. */
export async function exportMyData(): Promise<Record<string, unknown>> {
  const sb = await client();
  const doc = result<Export>(await sb.rpc('export_my_data'));
  for (const part of Object.keys(doc.more ?? {})) {
    const items = doc[part] as unknown[];
    let next: unknown[];
    do {
      next = result<unknown[]>(await sb.rpc('export_my_data_part', { part, skip: items.length }));
      items.push(...next);
    } while (next.length === doc.page_size);
  }
  return { ...doc, more: {} };
}
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
