// /admin/enquiries: the contact and client-page forms' submissions, newest first, paged on the server: kind, source
// page and date; handled / unhandled with who handled it (for the ticked rows at once); search by name, e-mail,
// company or message; filters by kind and handling; CSV export of the whole filtered list.
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { AdminPage } from '@/components/admin/admin-page';
import { datedFileName, downloadCsv } from '@/lib/admin/csv';
import { Pager } from '@/components/admin/pager';
import { useAction } from '@/lib/admin/use-action';
import { exportEnquiries, KIND_LABELS, KINDS, PAGE_SIZE, setHandled } from './api/enquiries';
import { EnquiriesTable } from './components/enquiries-table';
import { enquiriesCsv } from './csv';
import { useEnquiryList } from './use-enquiry-list';
import { injectStyle } from '@/lib/inject-style';
import deskCss from '@/components/admin/desk.css?inline';

injectStyle('desk', deskCss);

type List = ReturnType<typeof useEnquiryList>;

function Filters({ list }: { list: List }) {
  const id = useId();
  const page = list.data;
  const f = list.filters;
  return (
    <div className="desk-filters">
      <div className="desk-filters__row">
        <div className="field desk-filters__search">
          <label htmlFor={`${id}-q`}>Search name, e-mail, company or message</label>
          <input id={`${id}-q`} type="search" value={list.search} onChange={(e) => list.setSearch(e.target.value)} placeholder="Search enquiries..." />
        </div>
        <div className="field">
          <label htmlFor={`${id}-kind`}>Kind</label>
          <select id={`${id}-kind`} value={f.kind ?? ''} onChange={(e) => list.setFilter('kind', e.target.value || null)}>
            <option value="">All kinds</option>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
                {page ? ` (${page.counts[k] ?? 0})` : ''}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-handled`}>Handled</label>
          <select id={`${id}-handled`} value={f.handled ?? ''} onChange={(e) => list.setFilter('handled', e.target.value || null)}>
            <option value="">All</option>
            <option value="unhandled">Unhandled</option>
            <option value="handled">Handled</option>
          </select>
        </div>
        {(f.search || f.kind || f.handled) && (
          <Button variant="ghost" size="sm" className="desk-filters__clear" onClick={list.clear}>
            Clear filters
          </Button>
        )}
      </div>
    </div>
  );
}

function Enquiries() {
  const { toast } = useToast();
  const { busy, run } = useAction();
  const list = useEnquiryList();
  const page = list.data;
  const ids = [...list.selected];
  async function mark(handled: boolean) {
    const n = ids.length;
    if (await run(() => setHandled(ids, handled), () => ({ title: 'Success', description: `${n} ${n === 1 ? 'enquiry' : 'enquiries'} marked ${handled ? 'handled' : 'unhandled'}` })))
      await list.refetch();
  }
  async function exportCsv() {
    try {
      downloadCsv(datedFileName('enquiries'), enquiriesCsv(await exportEnquiries(list.filters)));
    } catch (e) {
      toast({ title: 'Error', description: (e as Error).message, variant: 'destructive' });
    }
  }
  return (
    <>
      <div className="toolbar">
        <p className="muted" data-testid="enquiry-count" aria-live="polite">
          {page ? `${page.matching} of ${page.total} ${page.total === 1 ? 'enquiry' : 'enquiries'} · ${page.unhandled} unhandled` : 'Loading...'}
        </p>
        <Button variant="outline" size="sm" onClick={() => void exportCsv()} disabled={!page || page.matching === 0}>
          Export CSV
        </Button>
      </div>
      <Filters list={list} />
      {list.error && <p role="alert" className="field__error">{list.error}</p>}
      {ids.length > 0 && (
        <section className="admin-panel bulk-bar" aria-label="Change the selected enquiries" data-testid="bulk-bar">
          <p className="bulk-bar__count">
            <strong>{ids.length}</strong> selected
          </p>
          <div className="btn-row">
            <Button size="sm" onClick={() => void mark(true)} disabled={busy}>
              Mark handled
            </Button>
            <Button variant="outline" size="sm" onClick={() => void mark(false)} disabled={busy}>
              Mark unhandled
            </Button>
            <Button variant="ghost" size="sm" onClick={() => list.setSelected(new Set())}>
              Clear selection
            </Button>
          </div>
        </section>
      )}
      {!page ? (
        <p className="muted">Loading...</p>
      ) : (
        <EnquiriesTable
          rows={page.enquiries}
          selected={list.selected}
          onToggle={list.toggle}
          onToggleAll={(on) => list.setSelected(on ? new Set(page.enquiries.map((e) => e.id)) : new Set())}
        />
      )}
      {page && <Pager total={page.matching} offset={page.page_offset} pageSize={PAGE_SIZE} onOffset={list.setOffset} label="Pages of enquiries" />}
    </>
  );
}

export default function AdminEnquiriesPage() {
  return (
    <AdminPage title="Enquiries" subtitle="What visitors sent from the contact and client pages." path="/admin/enquiries" back={{ to: '/admin', label: 'Admin Dashboard' }}>
      <Enquiries />
    </AdminPage>
  );
}
