// cv_documents for the signed-in candidate (RLS: own rows only). Saves are idempotent: the id is chosen in the
// browser, so a retried first save whose answer was lost updates the row it created instead of making a second one.
import { getSupabase } from '@/lib/api';
import type { Json } from '@/lib/database.types';
import type { CvDraft } from './model';

export type CvSummary = { id: string; title: string; updated_at: string };
export type CvRow = CvSummary & { data: Json };
export type CvPage = { rows: CvSummary[]; total: number };

/** The dashboard's list: one page of CVs without their drafts (sql/migrations/0334 caps an account at 25). */
export const CV_PAGE_SIZE = 10;

/** A refusal from the data API, with PostgREST's code. */
export class CvApiError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** The database refused the draft as it is (its shape, or the account's limits): saving it again cannot succeed. */
export const isRefusal = (e: unknown): e is CvApiError => e instanceof CvApiError && e.code === '23514';

/** A draft as the `data` jsonb column (a draft is plain JSON by construction). */
const asJson = (draft: CvDraft): Json => draft as unknown as Json;

async function client() {
  return getSupabase();
}

function fail(error: { message: string; code?: string } | null): void {
  if (error) throw new CvApiError(error.message, error.code);
}

/** One page of the account's CVs, last edited first, and how many there are. */
export async function listCvs(offset = 0): Promise<CvPage> {
  const { data, error, count } = await (await client())
    .from('cv_documents')
    .select('id,title,updated_at', { count: 'exact' })
    .order('updated_at', { ascending: false })
    .order('id')
    .range(offset, offset + CV_PAGE_SIZE - 1);
  fail(error);
  return { rows: (data ?? []) as CvSummary[], total: count ?? 0 };
}

export async function getCv(id: string): Promise<CvRow | null> {
  const { data, error } = await (await client()).from('cv_documents').select('id,title,updated_at,data').eq('id', id).maybeSingle();
  fail(error);
  return data as CvRow | null;
}

/** Writes the draft: update when the row exists, otherwise insert it with this id. Returns the row's updated_at. */
export async function saveCv(id: string, title: string, draft: CvDraft, retried = false): Promise<string> {
  const sb = await client();
  const updated = await sb.from('cv_documents').update({ title, data: asJson(draft) }).eq('id', id).select('updated_at');
  fail(updated.error);
  if (updated.data && updated.data.length) return (updated.data[0] as { updated_at: string }).updated_at;
  const inserted = await sb.from('cv_documents').insert({ id, title, data: asJson(draft) }).select('updated_at').single();
  if (inserted.error?.code === '23505' && !retried) return saveCv(id, title, draft, true);
  fail(inserted.error);
  return (inserted.data as { updated_at: string }).updated_at;
}

export async function renameCv(id: string, title: string): Promise<void> {
  const { error } = await (await client()).from('cv_documents').update({ title }).eq('id', id);
  fail(error);
}

export async function duplicateCv(id: string): Promise<void> {
  const row = await getCv(id);
  if (!row) throw new Error('That CV no longer exists.');
  const { error } = await (await client()).from('cv_documents').insert({ title: `Copy of ${row.title}`.slice(0, 200), data: row.data });
  fail(error);
}

export async function deleteCv(id: string): Promise<void> {
  const { error } = await (await client()).from('cv_documents').delete().eq('id', id);
  fail(error);
}

/** A new CV from a draft (JSON Resume import); returns its id. */
export async function createCv(title: string, draft: CvDraft): Promise<string> {
  const id = crypto.randomUUID();
  await saveCv(id, title, draft);
  return id;
}
