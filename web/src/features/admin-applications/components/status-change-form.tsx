// Moving one or several applications to a status: the status, an optional internal note (kept with each, never
// sent), and whether to e-mail each applicant the status's template. Used by the list (several) and the
// application's page (one); the caller reloads on success.
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { NOTE_MAX } from '@/lib/admin/notes';
import { useAction } from '@/lib/admin/use-action';
import { setStatus } from '../api/applications';
import { PLAIN_STATUS, STATUS_LABELS, STATUSES, type ApplicationStatus } from '../status';

type Props = { ids: string[]; current?: ApplicationStatus; onDone: () => Promise<void> | void; compact?: boolean };

function summary(changed: number, unchanged: number, mailed: number): string {
  const parts = [`${changed} ${changed === 1 ? 'application' : 'applications'} moved`];
  if (unchanged) parts.push(`${unchanged} already there`);
  if (mailed) parts.push(`${mailed} ${mailed === 1 ? 'applicant' : 'applicants'} e-mailed`);
  return parts.join(', ');
}

export function StatusChangeForm({ ids, current, onDone, compact = false }: Props) {
  const id = useId();
  const { busy: saving, run } = useAction();
  const [status, setStatusValue] = useState<ApplicationStatus | ''>('');
  const [note, setNote] = useState('');
  const [notify, setNotify] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!status) return;
    const done = await run(
      () => setStatus(ids, status, note, notify && status !== 'new'),
      (r) => ({ title: 'Status changed', description: summary(r.changed, r.unchanged, r.mailed) }),
    );
    if (!done) return;
    setStatusValue('');
    setNote('');
    setNotify(false);
    await onDone();
  }
  return (
    <form className={`admin-form status-change${compact ? ' status-change--compact' : ''}`} onSubmit={(e) => void submit(e)} data-testid="status-change">
      <div className="field">
        <label htmlFor={`${id}-status`}>Move to</label>
        <select id={`${id}-status`} value={status} onChange={(e) => setStatusValue(e.target.value as ApplicationStatus | '')} required>
          <option value="">Choose a status</option>
          {STATUSES.map((s) => (
            <option key={s} value={s} disabled={s === current}>
              {STATUS_LABELS[s]} (candidate sees “{PLAIN_STATUS[s]}”)
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-note`}>Internal note (optional)</label>
        <textarea id={`${id}-note`} rows={compact ? 1 : 2} maxLength={NOTE_MAX} value={note} onChange={(e) => setNote(e.target.value)} />
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={notify} disabled={status === 'new'} onChange={(e) => setNotify(e.target.checked)} />
        <span>
          E-mail {ids.length === 1 ? 'the applicant' : 'each applicant'} the status e-mail (<Link to="/admin/applications/templates">templates</Link>; never the note)
        </span>
      </label>
      <div className="admin-form__actions">
        <Button type="submit" size="sm" disabled={saving || !status} aria-busy={saving}>
          {saving && <span className="spinner" aria-hidden="true" />}
          {ids.length === 1 ? 'Change status' : `Change ${ids.length} applications`}
        </Button>
      </div>
    </form>
  );
}
