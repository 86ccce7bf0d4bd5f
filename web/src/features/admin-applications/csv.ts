// The applications list as CSV (lib/admin/csv: formula-safe cells).
import { toCsv } from '@/lib/admin/csv';
import { formatDateTime } from '@/lib/admin/format';
import type { ExportRow } from './api/applications';
import { STATUS_LABELS } from './status';

export const CSV_HEADER = ['Applied', 'First Name', 'Last Name', 'Email', 'Phone', 'Job', 'Job Reference', 'Status', 'Candidate Sees', 'Consultant', 'CV File', 'Notes'];

export function applicationsCsv(rows: ExportRow[]): string {
  return toCsv(
    CSV_HEADER,
    rows.map((r) => [formatDateTime(r.applied_at), r.first_name, r.last_name, r.email, r.phone, r.job_title, r.job_ref, STATUS_LABELS[r.pipeline_status], r.candidate_sees, r.consultant, r.cv_file, r.notes]),
  );
}
