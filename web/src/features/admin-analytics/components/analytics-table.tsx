// The per-profile table (spec §2): Candidate Name, Job Title, Reference, Total Views, Unique Viewers, First Viewed,
// Last Viewed ('dd MMM yyyy HH:mm'), sorted by views; unviewed profiles dimmed with 0 and dashes; a profile without a
// name shows 'Unknown'. "Show trend" picks the profile whose views per day the chart shows. One page of rows at a
// time (the server sorts and pages).
import { formatDateTime } from '@/lib/admin/format';
import type { ProfileFigures } from '../api/profile-analytics';

type Props = { rows: ProfileFigures[]; selected: string | null; onSelect: (row: ProfileFigures | null) => void };

export function AnalyticsTable({ rows, selected, onSelect }: Props) {
  if (rows.length === 0) return <p className="empty-state">No candidate profiles yet.</p>;
  return (
    <div className="table-scroll" role="region" aria-label="Table of views per profile" tabIndex={0}>
      <table className="admin-table admin-table--stack" data-testid="analytics-table">
        <thead>
          <tr>
            <th scope="col">Candidate Name</th>
            <th scope="col">Job Title</th>
            <th scope="col">Reference</th>
            <th scope="col" className="num">Total Views</th>
            <th scope="col" className="num">Unique Viewers</th>
            <th scope="col">First Viewed</th>
            <th scope="col">Last Viewed</th>
            <th scope="col">Trend</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const dimmed = r.views === 0;
            const isSelected = r.id === selected;
            return (
              <tr key={r.id} className={[dimmed && 'is-dimmed', isSelected && 'is-selected'].filter(Boolean).join(' ') || undefined} data-testid="analytics-row" data-candidate-id={r.candidate_id}>
                <td data-label="Candidate Name">
                  <div>
                    <strong>{r.name ?? 'Unknown'}</strong>
                    <div className="muted-small">{r.candidate_id}</div>
                  </div>
                </td>
                <td data-label="Job Title">{r.job_title ?? '—'}</td>
                <td data-label="Reference">{r.candidate_reference ?? '—'}</td>
                <td data-label="Total Views" className="num" data-testid="analytics-views">
                  {r.views}
                </td>
                <td data-label="Unique Viewers" className="num">{r.unique_viewers}</td>
                <td data-label="First Viewed" className="nowrap">{r.first_viewed ? formatDateTime(r.first_viewed) : '—'}</td>
                <td data-label="Last Viewed" className="nowrap" data-testid="analytics-last-viewed">
                  {r.last_viewed ? formatDateTime(r.last_viewed) : '—'}
                </td>
                <td data-label="Trend">
                  <button type="button" className="btn btn--ghost btn--sm" aria-pressed={isSelected} onClick={() => onSelect(isSelected ? null : r)}>
                    {isSelected ? 'Showing' : 'Show trend'}
                    <span className="visually-hidden"> for {r.candidate_id}</span>
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
