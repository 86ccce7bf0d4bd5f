// A CSV file → import rows (Papa Parse): the header checked against the documented columns, each cell converted to
// its column's type (UK dates, pounds, the typed vocabularies), the Markdown rendered with the one renderer, and the
// problems found per row. The database checks every row again (admin_import_jobs) before anything is written.
import Papa from 'papaparse';
import { renderJobMarkdown } from '@/lib/job-markdown';
import { EMPLOYMENT_TYPES, JOB_STATUSES, SALARY_PERIODS, WORK_ARRANGEMENTS } from '../job-model';
import { IMPORT_COLUMNS, MAX_IMPORT_ROWS, type ImportColumn } from './columns';

export type ImportRow = { line: number; values: Record<string, unknown>; errors: string[] };
export type ParsedFile = { rows: ImportRow[]; fileErrors: string[] };

const BY_NAME = new Map(IMPORT_COLUMNS.map((c) => [c.name, c]));

/** '31/01/2027' or '2027-01-31' → '2027-01-31'; null when it is not a real date. */
export function parseUkDate(text: string): string | null {
  const uk = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const [y, m, d] = uk ? [uk[3], uk[2], uk[1]] : iso ? [iso[1], iso[2], iso[3]] : [];
  if (!y) return null;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(m) - 1 || date.getUTCDate() !== Number(d)) return null;
  return date.toISOString().slice(0, 10);
}

function oneOf(allowed: readonly string[], text: string, column: string): [string | null, string | null] {
  const v = text.toLowerCase().replace(/\s+/g, '-');
  return allowed.includes(v) ? [v, null] : [null, `${column} must be one of ${allowed.join(', ')} (not "${text}")`];
}

/** One cell as the value its column stores, or the problem with it. Empty cells clear the field (null). */
export function convertCell(column: ImportColumn, raw: string): { value: unknown; error: string | null } {
  const text = raw.trim();
  if (!text) return { value: column.kind === 'list' ? [] : null, error: null };
  switch (column.kind) {
    case 'money': {
      const digits = text.replace(/[£,\s]/g, '');
      return /^\d{1,9}$/.test(digits) ? { value: Number(digits), error: null } : { value: null, error: `${column.name} must be whole pounds (not "${text}")` };
    }
    case 'date': {
      const date = parseUkDate(text);
      return date ? { value: date, error: null } : { value: null, error: `${column.name} must be a date as YYYY-MM-DD or DD/MM/YYYY (not "${text}")` };
    }
    case 'status':
    case 'employment_type':
    case 'work_arrangement':
    case 'salary_period':
    case 'client_type': {
      const allowed = { status: JOB_STATUSES, employment_type: EMPLOYMENT_TYPES, work_arrangement: WORK_ARRANGEMENTS, salary_period: SALARY_PERIODS, client_type: ['named', 'confidential'] }[column.kind];
      const [value, error] = oneOf(allowed, text, column.name);
      return { value, error };
    }
    case 'list':
      return { value: text.split(/\r?\n|;/).map((b) => b.trim()).filter(Boolean), error: null };
    case 'markdown':
      return { value: raw, error: null };
    default:
      return { value: text, error: null };
  }
}

function rowFrom(line: number, header: ImportColumn[], cells: string[]): ImportRow {
  const values: Record<string, unknown> = {};
  const errors: string[] = [];
  header.forEach((column, i) => {
    const { value, error } = convertCell(column, cells[i] ?? '');
    if (error) errors.push(error);
    values[column.name] = value;
    if (column.kind === 'markdown') values[`${column.name}_html`] = renderJobMarkdown(value as string | null);
  });
  if (!values.external_id) errors.push('external_id is required');
  if (cells.length !== header.length) errors.push(`the row has ${cells.length} cells; the header has ${header.length}`);
  return { line, values, errors };
}

/** Parses the file's text; file-level problems (header, size) stop it before any row is sent. */
export function parseJobsCsv(text: string): ParsedFile {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const fileErrors = parsed.errors.filter((e) => e.type !== 'Delimiter').map((e) => `Line ${(e.row ?? 0) + 1}: ${e.message}`);
  const [head = [], ...body] = parsed.data;
  const names = head.map((h) => h.trim().toLowerCase());
  const unknown = names.filter((n) => !BY_NAME.has(n));
  if (unknown.length) fileErrors.push(`Unknown columns: ${unknown.join(', ')} (see the column list and the template)`);
  const doubled = names.filter((n, i) => names.indexOf(n) !== i);
  if (doubled.length) fileErrors.push(`Columns named twice: ${[...new Set(doubled)].join(', ')}`);
  if (!names.includes('external_id')) fileErrors.push('The header has no external_id column (the key the import updates by)');
  if (body.length === 0) fileErrors.push('The file has no rows under its header');
  if (body.length > MAX_IMPORT_ROWS) fileErrors.push(`The file has ${body.length} rows; import at most ${MAX_IMPORT_ROWS} at a time`);
  if (fileErrors.length) return { rows: [], fileErrors };
  const header = names.map((n) => BY_NAME.get(n) as ImportColumn);
  return { rows: body.map((cells, i) => rowFrom(i + 2, header, cells)), fileErrors };
}
