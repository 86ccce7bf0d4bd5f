// The enquiries list as CSV (admin-common/csv: formula-safe cells).
import { toCsv } from '../admin-common/csv';
import { formatDateTime } from '../admin-common/format';
import { KIND_LABELS, type ExportRow } from './api/enquiries';

export const CSV_HEADER = ['Received', 'Kind', 'Name', 'Email', 'Phone', 'Company', 'Message', 'Source Page', 'Handled', 'Handled At', 'Handled By', 'Notes'];

export function enquiriesCsv(rows: ExportRow[]): string {
  return toCsv(
    CSV_HEADER,
    rows.map((r) => [formatDateTime(r.received_at), KIND_LABELS[r.enquiry_kind] ?? r.enquiry_kind, r.name, r.email, r.phone, r.company, r.message, r.source_page, r.is_handled ? 'Yes' : 'No', formatDateTime(r.handled_at), r.handled_by, r.notes]),
  );
}
