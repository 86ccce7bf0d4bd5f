// The profile's client links: the form that makes one for a named client (person and company) with an expiry
// (30 days unless changed), the new link shown once to copy, and every link with its client, expiry, state and
// views, to extend or revoke.
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { formatDate, formatDateTime } from '@/lib/admin/format';
import { LINK_STATE_LABELS } from '@/lib/admin/client-link';
import { dayFromToday, LINK_DAYS, LINK_MAX_DAYS, type ClientLink, type NewLink, type Sharing } from '../api/sharing';

type Props = {
  sharing: Sharing;
  fresh: NewLink | null;
  onCreate: (clientName: string, clientCompany: string, expiresOn: string) => Promise<boolean>;
  onCopy: (url: string) => void;
  onRevoke: (link: ClientLink) => Promise<boolean>;
  onExtend: (link: ClientLink, expiresOn: string) => Promise<boolean>;
};

function CreateForm({ onCreate }: Pick<Props, 'onCreate'>) {
  const id = useId();
  const [name, setName] = useState('');
  const [company, setCompany] = useState('');
  const [expiresOn, setExpiresOn] = useState(dayFromToday(LINK_DAYS));
  const [saving, setSaving] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    if (await onCreate(name, company, expiresOn)) {
      setName('');
      setCompany('');
      setExpiresOn(dayFromToday(LINK_DAYS));
    }
    setSaving(false);
  }
  return (
    <form className="admin-form" onSubmit={(e) => void submit(e)} data-testid="link-form">
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-name`}>Client's name</label>
          <input id={`${id}-name`} value={name} maxLength={200} required onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-company`}>Company</label>
          <input id={`${id}-company`} value={company} maxLength={200} required onChange={(e) => setCompany(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-expires`}>Link works until</label>
          <input id={`${id}-expires`} type="date" value={expiresOn} min={dayFromToday(0)} max={dayFromToday(LINK_MAX_DAYS)} required onChange={(e) => setExpiresOn(e.target.value)} />
        </div>
      </div>
      <div className="admin-form__actions">
        <Button type="submit" size="sm" disabled={saving || !name.trim() || !company.trim() || !expiresOn} aria-busy={saving}>
          Make link
        </Button>
      </div>
    </form>
  );
}

function Fresh({ link, onCopy }: { link: NewLink; onCopy: (url: string) => void }) {
  const id = useId();
  return (
    <div className="share-fresh" role="status" data-testid="new-link">
      <label htmlFor={`${id}-url`}>New link (shown once: copy it now)</label>
      <div className="share-fresh__row">
        <input id={`${id}-url`} readOnly value={link.url} onFocus={(e) => e.target.select()} />
        <Button size="sm" onClick={() => onCopy(link.url)}>
          Copy link
        </Button>
      </div>
      <p className="muted-small">Works until {formatDate(link.expires_at)}. For security it is not stored: if it is lost, revoke it and make another.</p>
    </div>
  );
}

function LinkItem({ link, onRevoke, onExtend }: { link: ClientLink } & Pick<Props, 'onRevoke' | 'onExtend'>) {
  const id = useId();
  const [until, setUntil] = useState(dayFromToday(LINK_DAYS));
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<boolean>) => {
    setBusy(true);
    await action();
    setBusy(false);
  };
  return (
    <li className="share-link" data-testid="client-link" data-client={link.client_company}>
      <div className="share-link__head">
        <div>
          <strong>{link.client_name}</strong>, {link.client_company}
          <div className="muted-small">
            Made {formatDateTime(link.created_at)}
            {link.created_by ? ` by ${link.created_by}` : ''} · {link.revoked_at ? `revoked ${formatDateTime(link.revoked_at)}` : `works until ${formatDateTime(link.expires_at)}`}
          </div>
        </div>
        <span className={`badge link-state link-state--${link.state}`} data-testid="link-state">
          {LINK_STATE_LABELS[link.state]}
        </span>
      </div>
      <p className="muted-small" data-testid="link-views">
        {link.views} {link.views === 1 ? 'view' : 'views'}
        {link.last_viewed ? ` · last ${formatDateTime(link.last_viewed)}` : ''}
      </p>
      {link.state !== 'revoked' && (
        <div className="share-link__actions">
          <label className="visually-hidden" htmlFor={`${id}-until`}>
            New end date for {link.client_company}
          </label>
          <input id={`${id}-until`} type="date" value={until} min={dayFromToday(0)} max={dayFromToday(LINK_MAX_DAYS)} onChange={(e) => setUntil(e.target.value)} />
          <Button variant="outline" size="sm" disabled={busy || !until} onClick={() => void run(() => onExtend(link, until))}>
            Extend<span className="visually-hidden"> the link for {link.client_company}</span>
          </Button>
          <Button variant="outline" size="sm" className="btn--danger-outline" disabled={busy} onClick={() => void run(() => onRevoke(link))}>
            Revoke<span className="visually-hidden"> the link for {link.client_company}</span>
          </Button>
        </div>
      )}
    </li>
  );
}

export function LinksSection({ sharing, fresh, onCreate, onCopy, onRevoke, onExtend }: Props) {
  return (
    <section className="share-section" aria-labelledby="links-title">
      <h3 id="links-title">2. Links for named clients</h3>
      {sharing.consent ? (
        <CreateForm onCreate={onCreate} />
      ) : (
        <p className="muted" data-testid="links-need-consent">
          Record the candidate's consent first: a profile without it cannot be shared with a client.
        </p>
      )}
      {fresh && <Fresh link={fresh} onCopy={onCopy} />}
      {sharing.links.length > 0 && (
        <ul className="plain-list share-links">
          {sharing.links.map((l) => (
            <LinkItem key={l.id} link={l} onRevoke={onRevoke} onExtend={onExtend} />
          ))}
        </ul>
      )}
    </section>
  );
}
