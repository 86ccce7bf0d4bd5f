// The desk's figures for the dashboard (rpc admin_desk_summary): applications since the admin's last visit to the
// list (every one before the first visit), applications awaiting review, unhandled enquiries.
import { getSupabase, unwrap } from '@/lib/api';
import { nullable, num, object, str, type Decoder } from '@/lib/decode';

export type DeskSummary = { last_seen_at: string | null; new_since_last_visit: number; awaiting_review: number; unhandled_enquiries: number };

const deskSummary: Decoder<DeskSummary> = object({
  last_seen_at: nullable(str),
  new_since_last_visit: num,
  awaiting_review: num,
  unhandled_enquiries: num,
});

export async function getDeskSummary(): Promise<DeskSummary> {
  const client = await getSupabase();
  return deskSummary(unwrap(await client.rpc('admin_desk_summary')));
}
