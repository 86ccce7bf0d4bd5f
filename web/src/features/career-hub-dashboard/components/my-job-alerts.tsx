// 'Job alerts': the candidate's alerts (their own rows, RLS), each with its search in words, how often, whether it
// waits for confirmation and its last digest; create one, change its search or frequency, or delete it.
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useToast } from '@/components/ui/toast';
import { useCandidateAuth } from '@/lib/candidate-auth';
import { FormError } from '@/components/ui/form-error';
import { createJobAlert, deleteAlert, listMyAlerts, updateAlert } from '@/lib/job-alerts/api';
import { ALERT_CONSENT, alertLabel, filtersOfSearch, type AlertFrequency, type AlertSearch, type JobAlert } from '@/lib/job-alerts/model';
import { EMPLOYMENT_TYPE_LABELS, WORK_ARRANGEMENT_LABELS, filtersHref, money, type EmploymentType, type WorkArrangement } from '@/lib/job-search/model';
import { formatDateTime } from '../api';
import { useQuery } from '@/lib/use-query';

const SALARIES = [20000, 30000, 40000, 50000, 60000, 80000, 100000, 150000];

type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; alert: JobAlert };

/** The search and frequency fields, shared by "New alert" and "Edit". */
function AlertForm({ alert, email, onDone, onCancel }: { alert: JobAlert | null; email: string; onDone: (message: string) => void; onCancel: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const prefix = alert ? `alert-${alert.id}` : 'alert-new';
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const text = (k: string) => String(data.get(k) ?? '').trim() || null;
    const search: AlertSearch = {
      q: text('q'),
      location: text('location'),
      sectors: alert?.sectors ?? null,
      regions: alert?.regions ?? null,
      employment_types: text('type') ? [text('type') as EmploymentType] : null,
      work_arrangements: text('arrangement') ? [text('arrangement') as WorkArrangement] : null,
      salary_min: text('salary') ? Number(text('salary')) : null,
    };
    const frequency = String(data.get('frequency')) as AlertFrequency;
    setBusy(true);
    try {
      if (alert) {
        await updateAlert(alert.id, { ...search, frequency });
        onDone('Job alert updated');
      } else {
        const result = await createJobAlert({ ...search, email, frequency, consent_text: ALERT_CONSENT }, true);
        onDone(result.status === 'active' ? 'Job alert created' : `Check ${email}: confirm the alert from the e-mail we sent`);
      }
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };
  const one = <T,>(v: T[] | null | undefined) => (v && v.length === 1 ? v[0] : '');
  return (
    <form className="dash-alert-form" onSubmit={(e) => void submit(e)} aria-label={alert ? `Edit ${alertLabel(alert)}` : 'New job alert'}>
      <div className="field">
        <label htmlFor={`${prefix}-q`}>Keywords</label>
        <input id={`${prefix}-q`} name="q" maxLength={200} defaultValue={alert?.q ?? ''} placeholder="e.g. asset manager" />
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-location`}>Town or region</label>
        <input id={`${prefix}-location`} name="location" maxLength={100} defaultValue={alert?.location ?? ''} />
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-type`}>Job type</label>
        <select id={`${prefix}-type`} name="type" defaultValue={one(alert?.employment_types)}>
          <option value="">Any</option>
          {Object.entries(EMPLOYMENT_TYPE_LABELS).map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-arrangement`}>Work arrangement</label>
        <select id={`${prefix}-arrangement`} name="arrangement" defaultValue={one(alert?.work_arrangements)}>
          <option value="">Any</option>
          {Object.entries(WORK_ARRANGEMENT_LABELS).map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-salary`}>Minimum salary</label>
        <select id={`${prefix}-salary`} name="salary" defaultValue={alert?.salary_min ?? ''}>
          <option value="">Any</option>
          {SALARIES.map((s) => (
            <option key={s} value={s}>
              {money(s)}+
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-frequency`}>How often</label>
        <select id={`${prefix}-frequency`} name="frequency" defaultValue={alert?.frequency ?? 'weekly'}>
          <option value="weekly">Weekly</option>
          <option value="daily">Daily</option>
        </select>
      </div>
      {!alert && (
        <label className="checkbox">
          <input type="checkbox" name="consent" required /> <span>{ALERT_CONSENT}</span>
        </label>
      )}
      {error && <FormError message={error} />}
      <div className="dash-list__actions">
        <button type="submit" className="btn btn--sm btn--accent" disabled={busy}>
          {alert ? 'Save alert' : 'Create alert'}
        </button>
        <button type="button" className="btn btn--sm btn--ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function MyJobAlerts() {
  const { user } = useCandidateAuth();
  const { data: items, error, refetch: reload } = useQuery(listMyAlerts, []);
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const { toast } = useToast();
  const done = (message: string) => {
    setEditing({ kind: 'none' });
    toast({ title: 'Job alerts', description: message });
    void reload();
  };
  const remove = async (alert: JobAlert) => {
    if (!window.confirm(`Delete the job alert “${alertLabel(alert)}”?`)) return;
    try {
      await deleteAlert(alert.id);
      done('Job alert deleted');
    } catch (e) {
      toast({ title: 'Error', description: e instanceof Error ? e.message : String(e), variant: 'destructive' });
    }
  };
  return (
    <section className="card dash-card" aria-labelledby="job-alerts-heading" data-testid="job-alerts">
      <div className="dash-card__head">
        <h2 id="job-alerts-heading">Job alerts</h2>
        {editing.kind === 'none' && (
          <button type="button" className="btn btn--sm btn--outline" onClick={() => setEditing({ kind: 'new' })}>
            New alert
          </button>
        )}
      </div>
      {error && <FormError message={error} />}
      {editing.kind === 'new' && <AlertForm alert={null} email={user?.email ?? ''} onDone={done} onCancel={() => setEditing({ kind: 'none' })} />}
      {items === null && !error && <p className="muted">Loading...</p>}
      {items?.length === 0 && editing.kind !== 'new' && (
        <p className="muted">
          No job alerts yet. Search the <Link to="/jobs">current vacancies</Link> and choose “E-mail me jobs like these”, or create one here.
        </p>
      )}
      {items && items.length > 0 && (
        <ul className="dash-list">
          {items.map((alert) => (
            <li key={alert.id} className="dash-list__item">
              {editing.kind === 'edit' && editing.alert.id === alert.id ? (
                <AlertForm alert={alert} email={alert.email} onDone={done} onCancel={() => setEditing({ kind: 'none' })} />
              ) : (
                <>
                  <div>
                    <Link to={filtersHref(filtersOfSearch(alert))} className="dash-list__title">
                      {alertLabel(alert)}
                    </Link>{' '}
                    {alert.status === 'pending' && <span className="badge badge--outline">Awaiting confirmation</span>}
                    <p className="dash-list__meta">
                      {alert.frequency === 'daily' ? 'Daily' : 'Weekly'} to {alert.email}
                      {alert.last_sent_at ? ` — last sent ${formatDateTime(alert.last_sent_at)}` : ' — nothing sent yet'}
                    </p>
                  </div>
                  <div className="dash-list__actions">
                    <button type="button" className="btn btn--sm btn--ghost" aria-label={`Edit ${alertLabel(alert)}`} onClick={() => setEditing({ kind: 'edit', alert })}>
                      Edit
                    </button>
                    <button type="button" className="btn btn--sm btn--ghost dash-danger" aria-label={`Delete ${alertLabel(alert)}`} onClick={() => void remove(alert)}>
                      Delete
                    </button>
                  </div>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
