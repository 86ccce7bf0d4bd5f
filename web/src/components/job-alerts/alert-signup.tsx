// "E-mail me jobs like these": a job alert for the current search. The server renders the same section with the same
// form, which without JavaScript POSTs to the page (public.post_jobs_page, sql/migrations/0511); here it is sent with
// the RPC. The form takes an address, daily or weekly, and the consent, recorded with its words. A visitor then
// confirms from the e-mail (double opt-in); a signed-in candidate's verified address is active at once.
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useAuth } from '@/lib/auth';
import type { Filters } from '@/lib/job-search/model';
import { createJobAlert } from '@/lib/job-alerts/api';
import { ALERT_CONSENT, alertLabel, searchOfFilters, type AlertFrequency } from '@/lib/job-alerts/model';

type Outcome = { kind: 'idle' } | { kind: 'sending' } | { kind: 'done'; status: 'pending' | 'active'; email: string } | { kind: 'error'; message: string };

/** The outcome of a sign-up the server answered (a form posted before this page took over), read once. */
function serverOutcome(): Outcome {
  if (typeof document === 'undefined') return { kind: 'idle' };
  const el = document.querySelector<HTMLElement>('#job-alert[data-alert-status]');
  const status = el?.dataset.alertStatus;
  return status === 'pending' || status === 'active' ? { kind: 'done', status, email: el?.dataset.alertEmail ?? '' } : { kind: 'idle' };
}

export function JobAlertSignup({ filters }: { filters: Filters }) {
  const { user } = useAuth();
  const [outcome, setOutcome] = useState<Outcome>(serverOutcome);
  const id = useId();
  const search = searchOfFilters(filters);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const email = String(data.get('email') ?? '').trim();
    setOutcome({ kind: 'sending' });
    try {
      const result = await createJobAlert(
        { ...search, email, frequency: String(data.get('frequency')) as AlertFrequency, consent_text: ALERT_CONSENT },
        Boolean(user),
      );
      setOutcome({ kind: 'done', status: result.status, email });
    } catch (err) {
      setOutcome({ kind: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  };

  return (
    <section className="jobs-alert card" id="job-alert" aria-labelledby="jobs-alert-title">
      <h2 id="jobs-alert-title">E-mail me jobs like these</h2>
      <p>Get new roles that match this search by e-mail, daily or weekly. You can stop at any time.</p>
      {outcome.kind === 'done' ? (
        <p className="jobs-alert__done" role="status" data-testid="alert-created">
          {outcome.status === 'pending' ? (
            <>
              Check your inbox: we have sent a link to {outcome.email} to confirm this alert. Nothing is sent until you confirm.
            </>
          ) : (
            <>
              Your job alert is on. You can change or delete it in your <Link to="/career-hub/dashboard">Career Hub dashboard</Link>.
            </>
          )}
        </p>
      ) : (
        <form className="jobs-alert__form" method="post" onSubmit={(e) => void submit(e)}>
          <p className="jobs-alert__search">
            This search: <strong>{alertLabel(search)}</strong>
          </p>
          <div className="field">
            <label htmlFor={`${id}-email`}>E-mail address</label>
            <input id={`${id}-email`} name="email" type="email" autoComplete="email" required maxLength={320} defaultValue={user?.email ?? ''} />
          </div>
          <fieldset className="jobs-alert__frequency">
            <legend>How often</legend>
            <label className="checkbox">
              <input type="radio" name="frequency" value="weekly" defaultChecked /> Weekly
            </label>
            <label className="checkbox">
              <input type="radio" name="frequency" value="daily" /> Daily
            </label>
          </fieldset>
          <label className="checkbox jobs-alert__consent">
            <input type="checkbox" name="consent" value="yes" required /> <span>{ALERT_CONSENT}</span>
          </label>
          <p className="field__hint">
            We use your address only for these e-mails: <Link to="/privacy#job-alerts">how we use your data</Link>.
          </p>
          {outcome.kind === 'error' && (
            <p className="jobs-error" role="alert">
              {outcome.message}
            </p>
          )}
          <button type="submit" className="btn btn--accent" disabled={outcome.kind === 'sending'}>
            {outcome.kind === 'sending' ? 'Creating…' : 'Create alert'}
          </button>
        </form>
      )}
    </section>
  );
}
