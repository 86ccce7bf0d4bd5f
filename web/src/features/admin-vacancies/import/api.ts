// The import's one call: rpc admin_import_jobs previews (apply false: every row written and rolled back) or applies
// (all rows in one transaction, or none). Rows go as the jobs columns, with the rendered Markdown.
import { getSupabase, unwrap } from '@/lib/api';
import type { Json } from '@/lib/database.types';

export type ImportResultRow = { row: number; external_id: string | null; action: 'insert' | 'update' | null; id: string | null; errors: string[] };
export type ImportResult = { applied: boolean; inserted: number; updated: number; failed: number; rows: ImportResultRow[] };

export async function importJobs(rows: Record<string, unknown>[], fileName: string, apply: boolean): Promise<ImportResult> {
  const client = await getSupabase();
  return unwrap(await client.rpc('admin_import_jobs', { rows: rows as Json, file_name: fileName, apply })) as unknown as ImportResult;
}
