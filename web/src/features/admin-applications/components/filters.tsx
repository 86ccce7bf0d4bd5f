// The list's filters: one button per status with its count (and All), then search by name or e-mail, the job and
// the dates applied between (UK days, both included), and Clear.
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import type { ApplicationPage, Filters } from '../api/applications';
import { STATUS_LABELS, STATUSES, type ApplicationStatus } from '../status';

type Props = {
  filters: Filters;
  page: ApplicationPage | null;
  search: string;
  onSearch: (value: string) => void;
  onFilter: (name: 'status' | 'job' | 'from' | 'to', value: string | null) => void;
  onClear: () => void;
};

function StatusTabs({ filters, page, onFilter }: Pick<Props, 'filters' | 'page' | 'onFilter'>) {
  const all = page ? STATUSES.reduce((sum, s) => sum + (page.counts[s] ?? 0), 0) : null;
  const tab = (status: ApplicationStatus | null, label: string, count: number | null) => (
    <button
      key={status ?? 'all'}
      type="button"
      className={`status-tab${filters.status === status ? ' is-current' : ''}`}
      aria-pressed={filters.status === status}
      onClick={() => onFilter('status', status)}
      data-testid={`status-tab-${status ?? 'all'}`}
    >
      {label} <span className="status-tab__count">{count ?? '…'}</span>
    </button>
  );
  return (
    <div className="status-tabs" role="group" aria-label="Show applications by status">
      {tab(null, 'All', all)}
      {STATUSES.map((s) => tab(s, STATUS_LABELS[s], page ? (page.counts[s] ?? 0) : null))}
    </div>
  );
}

export function ApplicationFilters({ filters, page, search, onSearch, onFilter, onClear }: Props) {
  const id = useId();
  const filtered = Boolean(filters.search || filters.status || filters.jobId || filters.fromDay || filters.toDay);
  return (
    <div className="desk-filters">
      <StatusTabs filters={filters} page={page} onFilter={onFilter} />
      <div className="desk-filters__row">
        <div className="field desk-filters__search">
          <label htmlFor={`${id}-q`}>Search by name or e-mail</label>
          <input id={`${id}-q`} type="search" value={search} onChange={(e) => onSearch(e.target.value)} placeholder="Search applications..." />
        </div>
        <div className="field">
          <label htmlFor={`${id}-job`}>Job</label>
          <select id={`${id}-job`} value={filters.jobId ?? ''} onChange={(e) => onFilter('job', e.target.value || null)}>
            <option value="">All jobs</option>
            {page?.jobs.map((j) => (
              <option key={j.id} value={j.id}>
                {j.title}
                {j.job_ref ? ` (${j.job_ref})` : ''}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-from`}>Applied from</label>
          <input id={`${id}-from`} type="date" value={filters.fromDay ?? ''} max={filters.toDay ?? undefined} onChange={(e) => onFilter('from', e.target.value || null)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-to`}>Applied to</label>
          <input id={`${id}-to`} type="date" value={filters.toDay ?? ''} min={filters.fromDay ?? undefined} onChange={(e) => onFilter('to', e.target.value || null)} />
        </div>
        {filtered && (
          <Button variant="ghost" size="sm" className="desk-filters__clear" onClick={onClear}>
            Clear filters
          </Button>
        )}
      </div>
    </div>
  );
}
