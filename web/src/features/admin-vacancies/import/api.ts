// The import's one call: rpc admin_import_jobs previews (apply false: every row written and rolled back) or applies
// (all rows in one transaction, or none). Rows go as the jobs columns, with the rendered Markdown.
import { getSupabase, unwrap } from '@/lib/api';
import type { Json } from '@/lib/database.types';
import { array, bool, nullable, num, object, oneOf, str, type Decoder } from '@/lib/decode';

export type ImportResultRow = { row: number; external_id: string | null; action: 'insert' | 'update' | null; id: string | null; errors: string[] };
export type ImportResult = { applied: boolean; inserted: number; updated: number; failed: number; rows: ImportResultRow[] };

const importResult: Decoder<ImportResult> = object({
  applied: bool,
  inserted: num,
  updated: num,
  failed: num,
  rows: array(object({ row: num, external_id: nullable(str), action: nullable(oneOf(['insert', 'update'])), id: nullable(str), errors: array(str) })),
});

export async function importJobs(rows: Record<string, unknown>[], fileName: string, apply: boolean): Promise<ImportResult> {
  const client = await getSupabase();
  return importResult(unwrap(await client.rpc('admin_import_jobs', { rows: rows as Json, file_name: fileName, apply })));
}
