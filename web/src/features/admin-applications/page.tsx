// /admin/applications: every application, newest first, paged on the server: counts per status, filters by status,
// job and date, search by name or e-mail, a bulk status change or consultant for the ticked rows, CSV export of the
// whole filtered list. Opening the list records the admin's visit (the dashboard counts new applications from it).
import { useEffect, useRef } from 'react';
import { ButtonLink, Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { AdminPage } from '@/components/admin/admin-page';
import { datedFileName, downloadCsv } from '@/lib/admin/csv';
import { Pager } from '@/components/admin/pager';
import { exportApplications, markApplicationsSeen, PAGE_SIZE } from './api/applications';
import { ApplicationFilters } from './components/filters';
import { ApplicationsTable } from './components/applications-table';
import { ConsultantPicker } from './components/consultant-picker';
import { StatusChangeForm } from './components/status-change-form';
import { applicationsCsv } from './csv';
import { useApplicationList } from './use-application-list';
import { injectStyle } from '@/lib/inject-style';
import deskCss from '@/components/admin/desk.css?inline';

injectStyle('desk', deskCss);

function Applications() {
  const { toast } = useToast();
  const list = useApplicationListOnce();
  const page = list.data;
  const ids = [...list.selected];
  async function exportCsv() {
    try {
      downloadCsv(datedFileName('applications'), applicationsCsv(await exportApplications(list.filters)));
    } catch (e) {
      toast({ title: 'Error', description: (e as Error).message, variant: 'destructive' });
    }
  }
  return (
    <>
      <div className="toolbar">
        <p className="muted" data-testid="application-count" aria-live="polite">
          {page ? `${page.matching} of ${page.total} ${page.total === 1 ? 'application' : 'applications'}` : 'Loading...'}
        </p>
        <div className="admin-hero__actions">
          <ButtonLink to="/admin/applications/templates" variant="outline" size="sm">
            Status e-mails
          </ButtonLink>
          <Button variant="outline" size="sm" onClick={() => void exportCsv()} disabled={!page || page.matching === 0}>
            Export CSV
          </Button>
        </div>
      </div>
      <ApplicationFilters filters={list.filters} page={page} search={list.search} onSearch={list.setSearch} onFilter={list.setFilter} onClear={list.clear} />
      {list.error && <p role="alert" className="field__error">{list.error}</p>}
      {ids.length > 0 && (
        <section className="admin-panel bulk-bar" aria-label="Change the selected applications" data-testid="bulk-bar">
          <p className="bulk-bar__count">
            <strong>{ids.length}</strong> selected{' '}
            <Button variant="ghost" size="sm" onClick={() => list.setSelected(new Set())}>
              Clear selection
            </Button>
          </p>
          <StatusChangeForm ids={ids} onDone={list.refetch} compact />
          <ConsultantPicker ids={ids} onDone={list.refetch} />
        </section>
      )}
      {!page ? (
        <p className="muted">Loading...</p>
      ) : (
        <ApplicationsTable
          rows={page.applications}
          selected={list.selected}
          onToggle={list.toggle}
          onToggleAll={(on) => list.setSelected(on ? new Set(page.applications.map((a) => a.id)) : new Set())}
        />
      )}
      {page && <Pager total={page.matching} offset={page.page_offset} pageSize={PAGE_SIZE} onOffset={list.setOffset} label="Pages of applications" />}
    </>
  );
}

/** The list's state, and this visit recorded once. */
function useApplicationListOnce() {
  const marked = useRef(false);
  useEffect(() => {
    if (marked.current) return;
    marked.current = true;
    markApplicationsSeen().catch(() => undefined);
  }, []);
  return useApplicationList();
}

export default function AdminApplicationsPage() {
  return (
    <AdminPage title="Applications" subtitle="Every application to the firm's roles, newest first." path="/admin/applications" back={{ to: '/admin', label: 'Admin Dashboard' }}>
      <Applications />
    </AdminPage>
  );
}
