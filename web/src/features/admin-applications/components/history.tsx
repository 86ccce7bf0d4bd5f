// An application's history: received, then each status change with who made it and whether the applicant was
// e-mailed, oldest first.
import { formatDateTime } from '@/lib/admin/format';
import type { ApplicationDetail } from '../api/applications';
import { STATUS_LABELS } from '../status';

export function History({ application }: { application: ApplicationDetail }) {
  return (
    <section className="admin-panel" aria-labelledby="history-title" data-testid="history">
      <h2 id="history-title">History</h2>
      <ol className="plain-list desk-history">
        <li>
          <strong>Received</strong>
          <div className="muted-small">
            <time dateTime={application.created_at}>{formatDateTime(application.created_at)}</time>
            {application.has_account ? ' · from a Career Hub account' : ''}
          </div>
        </li>
        {application.history.map((h, i) => (
          <li key={`${h.at}-${i}`} data-testid="history-entry">
            <strong>
              {STATUS_LABELS[h.from]} → {STATUS_LABELS[h.to]}
            </strong>
            <div className="muted-small">
              <time dateTime={h.at}>{formatDateTime(h.at)}</time> · {h.by ?? 'the system'}
              {h.mailed ? ' · applicant e-mailed' : ''}
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
