// The editor's job list: title (a link to the form), reference, company and location, status, closing date, what it
// lacks, and the row actions Duplicate and Publish / Close / Reopen (the form has the rest).
import { Link } from 'react-router';
import { formatDate } from '@/lib/admin/format';
import type { ListedJob } from '../api/jobs';
import { STATUS_LABELS, type JobStatus } from '../job-model';
import { MISSING_LABELS, PROBLEM_LABELS } from '@/lib/admin/issue-labels';

export type RowAction = 'duplicate' | 'publish' | 'close' | 'reopen';

const STATUS_ACTION: Record<JobStatus, { action: RowAction; label: string }> = {
  draft: { action: 'publish', label: 'Publish' },
  active: { action: 'close', label: 'Close' },
  closed: { action: 'reopen', label: 'Reopen' },
};

type Props = { jobs: ListedJob[]; busy: boolean; onAction: (job: ListedJob, action: RowAction) => void };

function Issues({ job }: { job: ListedJob }) {
  const problems = job.status === 'closed' ? [] : job.publish_problems;
  if (problems.length === 0 && job.missing.length === 0) return <span className="muted-small">None</span>;
  return (
    <div className="issue-tags">
      {problems.map((p) => (
        <span key={p} className="badge issue-tag" title="Needed before it can be live">
          {PROBLEM_LABELS[p] ?? p}
        </span>
      ))}
      {job.missing.map((m) => (
        <span key={m} className="badge issue-tag issue-tag--soft">
          {MISSING_LABELS[m] ?? m}
        </span>
      ))}
    </div>
  );
}

export function JobsTable({ jobs, busy, onAction }: Props) {
  if (jobs.length === 0) return <p className="empty-state">No jobs match these filters.</p>;
  return (
    <div className="table-scroll" role="region" aria-label="Jobs" tabIndex={0}>
      <table className="admin-table admin-table--stack" data-testid="vacancies-table">
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Status</th>
            <th scope="col">Closing date</th>
            <th scope="col">Issues</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((j) => {
            const next = STATUS_ACTION[j.status];
            return (
              <tr key={j.id} data-testid="vacancy-row" data-job-id={j.id}>
                <td data-label="Job">
                  <div>
                    <Link to={`/admin/vacancies/${j.id}`} className="vacancy-title">
                      {j.title}
                    </Link>
                    <div className="muted-small">{[j.job_id, j.company, j.location, j.external_id && `CRM ${j.external_id}`].filter(Boolean).join(' · ')}</div>
                  </div>
                </td>
                <td data-label="Status">
                  <span className={`badge status-badge--${j.status === 'active' ? 'active' : 'inactive'}`} data-testid="vacancy-status">
                    {STATUS_LABELS[j.status]}
                  </span>
                </td>
                <td data-label="Closing date" className="nowrap">
                  {j.closing_date ? formatDate(`${j.closing_date}T12:00:00Z`) : '—'}
                </td>
                <td data-label="Issues">
                  <Issues job={j} />
                </td>
                <td data-label="Actions">
                  <div className="row-actions">
                    <button type="button" className="btn btn--outline btn--sm" onClick={() => onAction(j, next.action)} disabled={busy} aria-label={`${next.label} ${j.title}`}>
                      {next.label}
                    </button>
                    <button type="button" className="btn btn--ghost btn--sm" onClick={() => onAction(j, 'duplicate')} disabled={busy} aria-label={`Duplicate ${j.title}`}>
                      Duplicate
                    </button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
