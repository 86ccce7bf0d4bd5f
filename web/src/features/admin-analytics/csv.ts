// The analytics table as CSV (RFC 4180: quoted fields, CRLF). Cells that a spreadsheet would run as a formula
// (starting with = + - @ or a tab/CR) are prefixed with ' so an exported name can never execute.
import { formatDateTime } from '../admin-common/format';
import type { ProfileFigures } from './api/profile-analytics';

export const CSV_HEADER = ['Candidate Name', 'Candidate ID', 'Job Title', 'Reference', 'Status', 'Total Views', 'Unique Viewers', 'First Viewed', 'Last Viewed'];

export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export function analyticsCsv(rows: ProfileFigures[]): string {
  const lines = rows.map((r) =>
    [r.name ?? 'Unknown', r.candidate_id, r.job_title, r.candidate_reference, r.status, r.views, r.unique_viewers, formatDateTime(r.first_viewed), formatDateTime(r.last_viewed)]
      .map(csvCell)
      .join(','),
  );
  return [CSV_HEADER.map(csvCell).join(','), ...lines].join('\r\n') + '\r\n';
}

export function downloadCsv(filename: string, csv: string): void {
  const url = URL.createObjectURL(new Blob(['\ufeff', csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
