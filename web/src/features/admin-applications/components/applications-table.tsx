// The applications list: a box to tick each row (and all on the page) for a bulk change, the applicant (to the
// application's page), the job (to its page), the date, the status, the consultant and the notes kept.
import { Link } from 'react-router';
import { formatDateTime } from '@/lib/admin/format';
import { SelectAllHeader, SelectCell } from '@/components/admin/select-cells';
import type { ApplicationRow } from '../api/applications';
import { StatusBadge } from './status-badge';

type Props = { rows: ApplicationRow[]; selected: Set<string>; onToggle: (id: string) => void; onToggleAll: (on: boolean) => void };

export function ApplicationsTable({ rows, selected, onToggle, onToggleAll }: Props) {
  if (rows.length === 0) return <p className="empty-state">No applications found</p>;
  return (
    <div className="table-scroll" role="region" aria-label="Applications" tabIndex={0}>
      <table className="admin-table admin-table--stack" data-testid="applications-table">
        <thead>
          <tr>
            <SelectAllHeader rows={rows} selected={selected} onToggleAll={onToggleAll} label="Select every application on this page" />
            <th scope="col">Applicant</th>
            <th scope="col">Job</th>
            <th scope="col">Applied</th>
            <th scope="col">Status</th>
            <th scope="col">Consultant</th>
            <th scope="col" className="num">Notes</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const name = `${r.first_name} ${r.last_name}`;
            return (
              <tr key={r.id} data-testid="application-row" data-application-id={r.id} className={selected.has(r.id) ? 'is-selected' : undefined}>
                <SelectCell id={r.id} selected={selected} onToggle={onToggle} label={`Select ${name}`} />
                <td data-label="Applicant">
                  <div>
                    <Link to={`/admin/applications/${r.id}`} className="row-title">
                      {name}
                    </Link>
                    <div className="muted-small">{r.email}</div>
                  </div>
                </td>
                <td data-label="Job">
                  {r.job_id && r.job_status === 'active' ? (
                    <a href={`/jobs/${r.job_id}`} target="_blank" rel="noopener">
                      {r.job_title}
                      {r.job_ref ? <span className="muted-small"> {r.job_ref}</span> : null}
                      <span className="visually-hidden"> (opens in a new tab)</span>
                    </a>
                  ) : r.job_title ? (
                    <span>
                      {r.job_title} <span className="muted-small">(closed)</span>
                    </span>
                  ) : (
                    <span className="muted">A role no longer listed</span>
                  )}
                </td>
                <td data-label="Applied" className="nowrap">
                  {formatDateTime(r.created_at)}
                </td>
                <td data-label="Status">
                  <StatusBadge status={r.status} />
                </td>
                <td data-label="Consultant">{r.consultant_name ?? <span className="muted">—</span>}</td>
                <td data-label="Notes" className="num">
                  {r.notes}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
