// The analytics table as CSV (lib/admin/csv: formula-safe cells).
import { formatDateTime } from '@/lib/admin/format';
import { toCsv } from '@/lib/admin/csv';
import type { ProfileFigures } from './api/profile-analytics';

export const CSV_HEADER = ['Candidate Name', 'Candidate ID', 'Job Title', 'Reference', 'Status', 'Total Views', 'Unique Viewers', 'First Viewed', 'Last Viewed'];

export function analyticsCsv(rows: ProfileFigures[]): string {
  return toCsv(
    CSV_HEADER,
    rows.map((r) => [r.name ?? 'Unknown', r.candidate_id, r.job_title, r.candidate_reference, r.status, r.views, r.unique_viewers, formatDateTime(r.first_viewed), formatDateTime(r.last_viewed)]),
  );
}
