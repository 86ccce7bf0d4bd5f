// The desk's figures for the dashboard (rpc admin_desk_summary): applications since the admin's last visit to the
// list (every one before the first visit), applications awaiting review, unhandled enquiries.
import { getSupabase, unwrap } from '@/lib/api';

export type DeskSummary = { last_seen_at: string | null; new_since_last_visit: number; awaiting_review: number; unhandled_enquiries: number };

export async function getDeskSummary(): Promise<DeskSummary> {
  const client = await getSupabase();
  return unwrap(await client.rpc('admin_desk_summary')) as unknown as DeskSummary;
}
