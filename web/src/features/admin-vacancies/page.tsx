// /admin/vacancies: the firm's job editor — every job of any status, searched and filtered on the server (status,
// issue, sector; sorted), with New job, Import CSV, and per job Publish / Close / Reopen and Duplicate. A refusal to
// publish (reg. 27) opens the job's form with the fields named.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, ButtonLink } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { AdminPage } from '@/components/admin/admin-page';
import { duplicateJob, JobWriteError, PAGE_SIZE, setJobStatus, type ListedJob } from './api/jobs';
import { JobsTable, type RowAction } from './components/jobs-table';
import { STATUS_LABELS } from './job-model';
import { useJobList } from './use-job-list';
import vacanciesCss from './vacancies.css?inline';
import { injectStyle } from '@/lib/inject-style';

injectStyle('admin-vacancies', vacanciesCss);

const SUCCESS: Record<RowAction, string> = {
  duplicate: 'Job duplicated as a draft',
  publish: 'Job published',
  close: 'Job closed',
  reopen: 'Job reopened',
};

function Filters({ list }: { list: ReturnType<typeof useJobList> }) {
  const page = list.data;
  const f = list.filters;
  const count = (n: number | undefined) => (n === undefined ? '' : ` (${n})`);
  return (
    <div className="vacancy-filters" role="group" aria-label="Filter jobs">
      <div className="field">
        <label htmlFor="vacancy-search">Search</label>
        <input id="vacancy-search" type="search" placeholder="Title, company, location or reference" value={list.search} onChange={(e) => list.setSearch(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="vacancy-status">Status</label>
        <select id="vacancy-status" value={f.status} onChange={(e) => list.setFilter('status', e.target.value)}>
          <option value="">All{count(page?.total)}</option>
          {(['active', 'draft', 'closed'] as const).map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
              {count(page?.by_status[s])}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="vacancy-issue">Needs attention</label>
        <select id="vacancy-issue" value={f.issue} onChange={(e) => list.setFilter('issue', e.target.value)}>
          <option value="">Any</option>
          <option value="incomplete">Incomplete (Data Quality){count(page?.issues.incomplete)}</option>
          <option value="cannot_publish">Cannot be live (reg. 27){count(page?.issues.cannot_publish)}</option>
          <option value="closing_soon">Closing within 7 days{count(page?.issues.closing_soon)}</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="vacancy-sector">Sector</label>
        <select id="vacancy-sector" value={f.sector} onChange={(e) => list.setFilter('sector', e.target.value)}>
          <option value="">All sectors</option>
          {(page?.sectors ?? (f.sector ? [f.sector] : [])).map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="vacancy-sort">Sort by</label>
        <select id="vacancy-sort" value={f.sort} onChange={(e) => list.setFilter('sort', e.target.value)}>
          <option value="updated">Last changed</option>
          <option value="posted">Newest posted</option>
          <option value="closing">Closing soonest</option>
          <option value="title">Title A–Z</option>
        </select>
      </div>
    </div>
  );
}

function Vacancies() {
  const { toast } = useToast();
  const navigate = useNavigate();
  const list = useJobList();
  const [busy, setBusy] = useState(false);
  const page = list.data;

  async function act(job: ListedJob, action: RowAction) {
    setBusy(true);
    try {
      if (action === 'duplicate') {
        const copy = await duplicateJob(job.id);
        toast({ title: 'Success', description: SUCCESS[action] });
        navigate(`/admin/vacancies/${copy.id}`);
        return;
      }
      await setJobStatus(job.id, action === 'close' ? 'closed' : 'active');
      toast({ title: 'Success', description: SUCCESS[action] });
    } catch (e) {
      const refused = e instanceof JobWriteError && e.code === '23514' && e.details?.startsWith('[');
      toast({ title: refused ? 'Cannot publish yet' : 'Error', description: (e as Error).message, variant: 'destructive' });
      if (refused) navigate(`/admin/vacancies/${job.id}?publish=1`);
    } finally {
      setBusy(false);
      await list.refetch();
    }
  }

  const from = page && page.matching > 0 ? page.page_offset + 1 : 0;
  const to = page ? Math.min(page.page_offset + PAGE_SIZE, page.matching) : 0;
  const pageNumber = Math.floor((page?.page_offset ?? 0) / PAGE_SIZE) + 1;
  const filtered = Boolean(list.filters.search || list.filters.status || list.filters.issue || list.filters.sector);
  return (
    <>
      <Filters list={list} />
      <div className="toolbar">
        <p className="muted" data-testid="vacancy-count" aria-live="polite">
          {page ? `${page.matching} of ${page.total} ${page.total === 1 ? 'job' : 'jobs'}` : 'Loading...'}
        </p>
        {filtered && (
          <Button variant="ghost" size="sm" onClick={list.clear}>
            Clear filters
          </Button>
        )}
      </div>
      {list.error && (
        <p role="alert" className="field__error">
          {list.error}
        </p>
      )}
      {!page ? <p className="muted">Loading...</p> : <JobsTable jobs={page.jobs} busy={busy} onAction={(j, a) => void act(j, a)} />}
      {page && page.matching > PAGE_SIZE && (
        <nav className="pagination" aria-label="Job pages">
          <span>
            Showing {from}–{to} of {page.matching}
          </span>
          <span className="btn-row">
            <Button variant="outline" size="sm" disabled={pageNumber === 1} onClick={() => list.setPage(pageNumber - 1)}>
              Previous
            </Button>
            <Button variant="outline" size="sm" disabled={to >= page.matching} onClick={() => list.setPage(pageNumber + 1)}>
              Next
            </Button>
          </span>
        </nav>
      )}
    </>
  );
}

export default function AdminVacanciesPage() {
  return (
    <AdminPage
      title="Vacancies"
      subtitle="Write, publish, close and import the firm's jobs."
      path="/admin/vacancies"
      back={{ to: '/admin', label: 'Admin Dashboard' }}
      actions={
        <>
          <ButtonLink to="/admin/vacancies/import" variant="outline-light">
            Import CSV
          </ButtonLink>
          <ButtonLink to="/admin/vacancies/new" variant="accent">
            New job
          </ButtonLink>
        </>
      }
    >
      <Vacancies />
    </AdminPage>
  );
}
