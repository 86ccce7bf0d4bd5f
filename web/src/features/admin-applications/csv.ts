// The applications list as CSV (admin-common/csv: formula-safe cells).
import { toCsv } from '../admin-common/csv';
import { formatDateTime } from '../admin-common/format';
import type { ExportRow } from './api/applications';
import { STATUS_LABELS } from './status';

export const CSV_HEADER = ['Applied', 'First Name', 'Last Name', 'Email', 'Phone', 'Job', 'Job Reference', 'Status', 'Candidate Sees', 'Consultant', 'CV File', 'Notes'];

export function applicationsCsv(rows: ExportRow[]): string {
  return toCsv(
    CSV_HEADER,
    rows.map((r) => [formatDateTime(r.applied_at), r.first_name, r.last_name, r.email, r.phone, r.job_title, r.job_ref, STATUS_LABELS[r.pipeline_status], r.candidate_sees, r.consultant, r.cv_file, r.notes]),
  );
}
