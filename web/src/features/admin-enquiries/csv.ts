// The enquiries list as CSV (lib/admin/csv: formula-safe cells).
import { toCsv } from '@/lib/admin/csv';
import { formatDateTime } from '@/lib/admin/format';
import { KIND_LABELS, type ExportRow } from './api/enquiries';

export const CSV_HEADER = ['Received', 'Kind', 'Name', 'Email', 'Phone', 'Company', 'Message', 'Source Page', 'Handled', 'Handled At', 'Handled By', 'Notes'];

export function enquiriesCsv(rows: ExportRow[]): string {
  return toCsv(
    CSV_HEADER,
    rows.map((r) => [formatDateTime(r.received_at), KIND_LABELS[r.enquiry_kind] ?? r.enquiry_kind, r.name, r.email, r.phone, r.company, r.message, r.source_page, r.is_handled ? 'Yes' : 'No', formatDateTime(r.handled_at), r.handled_by, r.notes]),
  );
}
