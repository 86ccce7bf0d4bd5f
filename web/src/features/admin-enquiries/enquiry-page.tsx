// /admin/enquiries/{id}: one enquiry: who sent it and how to reach them, the kind, the page it came from, the
// message, handled / unhandled with who handled it and when, and the internal notes.
import { useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { AdminPage } from '@/components/admin/admin-page';
import { formatDateTime } from '@/lib/admin/format';
import { GonePanel, useAddNote } from '@/components/admin/detail';
import { NotesPanel } from '@/components/admin/notes-panel';
import { useAction } from '@/lib/admin/use-action';
import { useQuery } from '@/lib/use-query';
import { getEnquiry, KIND_LABELS, setHandled, type EnquiryDetail } from './api/enquiries';
import { HandledBadge } from './components/enquiries-table';
import { injectStyle } from '@/lib/inject-style';
import deskCss from '@/components/admin/desk.css?inline';

injectStyle('desk', deskCss);

function Sender({ e }: { e: EnquiryDetail }) {
  return (
    <section className="admin-panel" aria-labelledby="enquiry-title" data-testid="enquiry">
      <h2 id="enquiry-title">{e.name}</h2>
      <dl className="desk-facts">
        <dt>E-mail</dt>
        <dd>
          <a href={`mailto:${e.email}`}>{e.email}</a>
        </dd>
        <dt>Phone</dt>
        <dd>{e.phone ? <a href={`tel:${e.phone.replace(/[^\d+]/g, '')}`}>{e.phone}</a> : '—'}</dd>
        <dt>Company</dt>
        <dd>{e.company ?? '—'}</dd>
        <dt>Kind</dt>
        <dd>{KIND_LABELS[e.kind] ?? e.kind}</dd>
        <dt>Sent from</dt>
        <dd>{e.source_page ?? '—'}</dd>
        <dt>Received</dt>
        <dd>{formatDateTime(e.created_at)}</dd>
      </dl>
      <h3 className="desk-subtitle">Message</h3>
      {e.message ? <p className="desk-prose" data-testid="enquiry-message">{e.message}</p> : <p className="muted">No message.</p>}
    </section>
  );
}

function Handling({ e, reload }: { e: EnquiryDetail; reload: () => Promise<void> }) {
  const { busy, run } = useAction();
  async function toggle() {
    if (await run(() => setHandled([e.id], !e.handled), () => ({ title: 'Success', description: e.handled ? 'Marked unhandled' : 'Marked handled' })))
      await reload();
  }
  return (
    <section className="admin-panel" aria-labelledby="handling-title" data-testid="handling">
      <h2 id="handling-title">Handling</h2>
      <p>
        <HandledBadge handled={e.handled} by={e.handled_by} />
      </p>
      {e.handled_at && <p className="muted-small">Since {formatDateTime(e.handled_at)}</p>}
      <Button size="sm" variant={e.handled ? 'outline' : 'primary'} onClick={() => void toggle()} disabled={busy} aria-busy={busy}>
        {e.handled ? 'Mark unhandled' : 'Mark handled'}
      </Button>
    </section>
  );
}

function Enquiry({ id }: { id: string }) {
  const query = useQuery(() => getEnquiry(id), [id]);
  const note = useAddNote({ enquiry_id: id }, query.refetch);
  const e = query.data;
  if (query.error) return <p role="alert" className="field__error">{query.error}</p>;
  if (query.loading && !e) return <p className="muted">Loading...</p>;
  if (!e) return <GonePanel what="Enquiry" back="/admin/enquiries" backLabel="Back to Enquiries" />;
  return (
    <div className="desk-detail">
      <div className="desk-detail__main">
        <Sender e={e} />
      </div>
      <div className="desk-detail__side">
        <Handling e={e} reload={query.refetch} />
        <NotesPanel notes={e.notes} onAdd={note} hint="Only admins see these notes." />
      </div>
    </div>
  );
}

export default function AdminEnquiryPage() {
  const { enquiryId = '' } = useParams();
  return (
    <AdminPage title="Enquiry" subtitle="Who wrote, what they asked, and how the firm dealt with it." path={`/admin/enquiries/${enquiryId}`} back={{ to: '/admin/enquiries', label: 'Enquiries' }}>
      <Enquiry id={enquiryId} />
    </AdminPage>
  );
}
