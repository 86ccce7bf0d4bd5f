// The dashboard's Data retention panel (the privacy notice: a year from the last contact, then one e-mail asking to
// keep or delete, then erasure on the date it states): how many people the next nightly pass will e-mail or erase,
// who is due within 30 days (soonest first), and when the last pass ran and what it did.
import { formatDate, formatDateTime } from '@/lib/admin/format';
import type { Retention, RetentionDue, RetentionRun } from '../api/get-retention';

export const RETENTION_LIST_LIMIT = 8;

function holdings(p: RetentionDue): string {
  const parts = [
    [p.applications, 'application', 'applications'],
    [p.enquiries, 'enquiry', 'enquiries'],
    [p.accounts, 'account', 'accounts'],
    [p.profiles, 'profile', 'profiles'],
  ] as const;
  return parts
    .filter(([n]) => n > 0)
    .map(([n, one, many]) => `${n} ${n === 1 ? one : many}`)
    .join(', ');
}

function stepText(p: RetentionDue, now: number): string {
  const what = p.next_step === 'erasure' ? 'Erasure' : 'Retention notice';
  const when = formatDate(p.next_step_at);
  if (p.status === 'awaiting answer') return `${what} on ${when} unless they answer`;
  return new Date(p.next_step_at).getTime() <= now ? `${what} due now (since ${when})` : `${what} on ${when}`;
}

function runText(run: RetentionRun): string {
  const erased = Object.entries(run.deleted ?? {}).reduce((sum, [, n]) => sum + Number(n || 0), 0);
  return `${run.notices} ${run.notices === 1 ? 'notice' : 'notices'} sent, ${run.people_erased} ${run.people_erased === 1 ? 'person' : 'people'} erased, ${erased} ${erased === 1 ? 'record' : 'records'} deleted`;
}

export function RetentionPanel({ data, error }: { data: Retention | null; error: string | null }) {
  const now = Date.now();
  const noticesNow = data?.due.filter((p) => p.status === 'notice due').length ?? 0;
  const erasuresNow = data?.due.filter((p) => p.status === 'deletion due').length ?? 0;
  const lastPass = data?.runs.find((r) => r.kind === 'scheduled') ?? null;
  return (
    <section className="admin-panel" aria-labelledby="retention-title" data-testid="retention-panel">
      <h2 id="retention-title">Data retention</h2>
      {error ? (
        <p role="alert" className="field__error">{error}</p>
      ) : !data ? (
        <p className="muted">Loading...</p>
      ) : (
        <>
          <p className="retention-figures" data-testid="retention-due-now">
            At the next nightly pass: <strong>{noticesNow}</strong> {noticesNow === 1 ? 'notice' : 'notices'} to send,{' '}
            <strong>{erasuresNow}</strong> {erasuresNow === 1 ? 'person' : 'people'} to erase.
          </p>
          {data.due.length === 0 ? (
            <p className="muted">Nobody is due a notice or erasure in the next 30 days.</p>
          ) : (
            <>
              <h3 className="retention-subtitle">Due within 30 days</h3>
              <ul className="plain-list" data-testid="retention-due">
                {data.due.slice(0, RETENTION_LIST_LIMIT).map((p) => (
                  <li key={p.email}>
                    <span className="retention-email">{p.email}</span>
                    <div className="muted-small">
                      {stepText(p, now)} · {holdings(p)}
                    </div>
                  </li>
                ))}
              </ul>
              {data.due.length > RETENTION_LIST_LIMIT && <p className="muted-small">and {data.due.length - RETENTION_LIST_LIMIT} more</p>}
            </>
          )}
          <p className="muted-small retention-last" data-testid="retention-last-run">
            {lastPass ? (
              <>
                Last pass <time dateTime={lastPass.ran_at}>{formatDateTime(lastPass.ran_at)}</time>: {runText(lastPass)}.
              </>
            ) : (
              'No retention pass has run yet: it runs nightly once pg_cron (or another scheduler) is set up.'
            )}
          </p>
        </>
      )}
    </section>
  );
}
