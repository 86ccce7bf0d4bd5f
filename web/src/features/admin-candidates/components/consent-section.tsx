// The candidate's consent to be introduced (Conduct of Employment Agencies Regulations 2003): the consent in force
// with when and how it was given and what it covers, and a two-step withdrawal (it revokes every client link at
// once); without one, the form to record it. Earlier, withdrawn consents stay listed.
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { formatDate, formatDateTime } from '@/lib/admin/format';
import { CONSENT_METHODS, dayFromToday, METHOD_LABELS, type ConsentMethod, type Sharing } from '../api/sharing';

type Props = {
  sharing: Sharing;
  onRecord: (givenOn: string, method: ConsentMethod, scope: string) => Promise<boolean>;
  onWithdraw: (consentId: string) => Promise<boolean>;
};

function RecordForm({ onRecord }: Pick<Props, 'onRecord'>) {
  const id = useId();
  const [givenOn, setGivenOn] = useState(dayFromToday(0));
  const [method, setMethod] = useState<ConsentMethod>('email');
  const [scope, setScope] = useState('');
  const [saving, setSaving] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    await onRecord(givenOn, method, scope);
    setSaving(false);
  }
  return (
    <form className="admin-form" onSubmit={(e) => void submit(e)} data-testid="consent-form">
      <p className="muted-small">Record the candidate's agreement to be put forward before sharing the profile with any client.</p>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-on`}>Date consent was given</label>
          <input id={`${id}-on`} type="date" value={givenOn} max={dayFromToday(0)} required onChange={(e) => setGivenOn(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-how`}>How it was given</label>
          <select id={`${id}-how`} value={method} onChange={(e) => setMethod(e.target.value as ConsentMethod)}>
            {CONSENT_METHODS.map((m) => (
              <option key={m} value={m}>
                {METHOD_LABELS[m]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-scope`}>Roles or clients it covers (optional)</label>
        <input id={`${id}-scope`} value={scope} maxLength={1000} onChange={(e) => setScope(e.target.value)} placeholder="e.g. Asset management roles in London" />
      </div>
      <div className="admin-form__actions">
        <Button type="submit" size="sm" disabled={saving || !givenOn} aria-busy={saving}>
          Record consent
        </Button>
      </div>
    </form>
  );
}

function InForce({ sharing, onWithdraw }: Pick<Props, 'sharing' | 'onWithdraw'>) {
  const [confirming, setConfirming] = useState(false);
  const consent = sharing.consent!;
  const live = sharing.links.filter((l) => l.state === 'active').length;
  return (
    <div data-testid="consent-in-force">
      <p>
        <span className="badge app-status app-status--good">Consent recorded</span> Given {formatDate(consent.given_on)}, {METHOD_LABELS[consent.method].toLowerCase()}
        {consent.scope ? ` · covers: ${consent.scope}` : ''}
      </p>
      <p className="muted-small">
        Recorded {formatDateTime(consent.recorded_at)}
        {consent.recorded_by ? ` by ${consent.recorded_by}` : ''}
      </p>
      {confirming ? (
        <div className="desk-confirm" role="group" aria-label="Confirm the withdrawal">
          <p>
            Withdrawing consent revokes {live === 1 ? 'the active client link' : `all ${live} active client links`} at once.
          </p>
          <div className="btn-row">
            <Button variant="outline" size="sm" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button size="sm" className="btn--danger" onClick={() => void onWithdraw(consent.id).then(() => setConfirming(false))}>
              Withdraw consent
            </Button>
          </div>
        </div>
      ) : (
        <Button variant="outline" size="sm" className="btn--danger-outline" onClick={() => setConfirming(true)}>
          The candidate withdrew consent
        </Button>
      )}
    </div>
  );
}

export function ConsentSection({ sharing, onRecord, onWithdraw }: Props) {
  return (
    <section className="share-section" aria-labelledby="consent-title">
      <h3 id="consent-title">1. Consent to be introduced</h3>
      {sharing.consent ? <InForce sharing={sharing} onWithdraw={onWithdraw} /> : <RecordForm onRecord={onRecord} />}
      {sharing.earlier_consents.length > 0 && (
        <details className="share-earlier">
          <summary>Earlier consents ({sharing.earlier_consents.length})</summary>
          <ul className="plain-list">
            {sharing.earlier_consents.map((c) => (
              <li key={c.id} className="muted-small">
                Given {formatDate(c.given_on)} {METHOD_LABELS[c.method].toLowerCase()} · withdrawn {formatDateTime(c.withdrawn_at)}
                {c.withdrawn_by ? ` (recorded by ${c.withdrawn_by})` : ''}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
