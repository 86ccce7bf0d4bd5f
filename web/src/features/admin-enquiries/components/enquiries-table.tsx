// The enquiries list: a box to tick each row (and all on the page), who sent it (to the enquiry's page), the kind,
// the page it came from, when, the start of the message, and whether it is handled and by whom.
import { Link } from 'react-router';
import { formatDateTime } from '@/lib/admin/format';
import { SelectAllHeader, SelectCell } from '@/components/admin/select-cells';
import { KIND_LABELS, type EnquiryRow } from '../api/enquiries';

type Props = { rows: EnquiryRow[]; selected: Set<string>; onToggle: (id: string) => void; onToggleAll: (on: boolean) => void };

export function HandledBadge({ handled, by }: { handled: boolean; by: string | null }) {
  return handled ? (
    <span className="badge app-status app-status--good" data-testid="enquiry-handled">
      Handled{by ? ` by ${by}` : ''}
    </span>
  ) : (
    <span className="badge app-status app-status--open" data-testid="enquiry-handled">
      Unhandled
    </span>
  );
}

export function EnquiriesTable({ rows, selected, onToggle, onToggleAll }: Props) {
  if (rows.length === 0) return <p className="empty-state">No enquiries found</p>;
  return (
    <div className="table-scroll" role="region" aria-label="Enquiries" tabIndex={0}>
      <table className="admin-table admin-table--stack" data-testid="enquiries-table">
        <thead>
          <tr>
            <SelectAllHeader rows={rows} selected={selected} onToggleAll={onToggleAll} label="Select every enquiry on this page" />
            <th scope="col">From</th>
            <th scope="col">Kind</th>
            <th scope="col">Source page</th>
            <th scope="col">Received</th>
            <th scope="col">Message</th>
            <th scope="col">Handled</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-testid="enquiry-row" data-enquiry-id={r.id} className={selected.has(r.id) ? 'is-selected' : undefined}>
              <SelectCell id={r.id} selected={selected} onToggle={onToggle} label={`Select the enquiry from ${r.name}`} />
              <td data-label="From">
                <div>
                  <Link to={`/admin/enquiries/${r.id}`} className="row-title">
                    {r.name}
                  </Link>
                  <div className="muted-small">{[r.company, r.email].filter(Boolean).join(' · ')}</div>
                </div>
              </td>
              <td data-label="Kind">{KIND_LABELS[r.kind] ?? r.kind}</td>
              <td data-label="Source page">{r.source_page ?? <span className="muted">—</span>}</td>
              <td data-label="Received" className="nowrap">
                {formatDateTime(r.created_at)}
              </td>
              <td data-label="Message" className="desk-snippet">
                {r.message ? r.message.slice(0, 90) + (r.message.length > 90 ? '…' : '') : <span className="muted">—</span>}
              </td>
              <td data-label="Handled">
                <HandledBadge handled={r.handled} by={r.handled_by_name} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
