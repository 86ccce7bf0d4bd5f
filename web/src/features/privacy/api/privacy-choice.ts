// The retention notice behind an e-mailed link, and the person's answer (SQL: public.privacy_choice and
// public.set_privacy_choice, sql/migrations/0320_retention.sql). The token authorises; no sign-in is needed.
import { getSupabase, unwrap } from '@/lib/api';
import { object, oneOf, optional, str, type Decoder } from '@/lib/decode';

const NOTICE_STATUSES = ['awaiting', 'kept', 'deleted', 'unknown'] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];

export type Notice = {
  status: NoticeStatus;
  /** When the data is deleted if there is no answer (ISO time). */
  delete_after?: string;
  /** After a "keep" answer: when we ask again (ISO time). */
  next_review_at?: string | null;
  /** What is held, in words ("a job application (with your CV) and an enquiry"). */
  holds?: string;
};

const notice: Decoder<Notice> = object({ status: oneOf(NOTICE_STATUSES), delete_after: optional(str), next_review_at: optional(str), holds: optional(str) });

/** The token from the link's fragment (#token=…), or null when the link is incomplete. */
export function tokenFromHash(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token && /^[0-9a-f]{64}$/.test(token) ? token : null;
}

export async function fetchNotice(token: string): Promise<Notice> {
  const client = await getSupabase();
  return notice(unwrap(await client.rpc('privacy_choice', { token })));
}

export async function answerNotice(token: string, choice: 'keep' | 'delete'): Promise<Notice> {
  const client = await getSupabase();
  return notice(unwrap(await client.rpc('set_privacy_choice', { token, choice })));
}
