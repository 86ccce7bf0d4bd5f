// The filter form: a GET form to /jobs (it works without JavaScript, as the server renders it); with JavaScript a
// ticked box or chosen option applies at once and the text fields on submit, all through the address (shareable,
// back button). Facet counts are the jobs each value would give with the other filters applied.
import type { FormEvent } from 'react';
import {
  EMPLOYMENT_TYPE_LABELS,
  WORK_ARRANGEMENT_LABELS,
  money,
  postedLabel,
  type FacetValue,
  type Filters,
  type ListKey,
  type SearchResult,
} from '@/lib/job-search/model';

type Props = { filters: Filters; facets: SearchResult['facets'] | null; onChange: (next: Filters) => void };

function labelOf(name: ListKey, value: string): string {
  if (name === 'type') return EMPLOYMENT_TYPE_LABELS[value as keyof typeof EMPLOYMENT_TYPE_LABELS] ?? value;
  if (name === 'arrangement') return WORK_ARRANGEMENT_LABELS[value as keyof typeof WORK_ARRANGEMENT_LABELS] ?? value;
  return value;
}

function Facet({ legend, name, values, filters, onChange }: { legend: string; name: ListKey; values: FacetValue[] } & Omit<Props, 'facets'>) {
  if (values.length === 0) return null;
  const chosen = filters[name] as string[];
  const toggle = (value: string, on: boolean) => {
    const next = on ? [...chosen, value] : chosen.filter((v) => v !== value);
    onChange({ ...filters, [name]: next, page: undefined });
  };
  return (
    <fieldset className="jobs-facet">
      <legend>{legend}</legend>
      {values.map((v) => (
        <label key={v.value} className="jobs-facet__option">
          <input type="checkbox" name={name} value={v.value} checked={chosen.includes(v.value)} onChange={(e) => toggle(v.value, e.target.checked)} />
          <span className="jobs-facet__label">{labelOf(name, v.value)}</span>
          <span className="jobs-facet__count">{v.count}</span>
        </label>
      ))}
    </fieldset>
  );
}

export function FiltersForm({ filters, facets, onChange }: Props) {
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const text = (k: string) => String(data.get(k) ?? '').trim() || undefined;
    onChange({ ...filters, q: text('q'), location: text('location'), page: undefined });
  };
  const pick = (key: 'salary' | 'posted', value: string) => onChange({ ...filters, [key]: value ? Number(value) : undefined, page: undefined });
  return (
    <form className="jobs-filters card" method="get" action="/jobs" role="search" aria-label="Filter jobs" onSubmit={onSubmit}>
      <h2 className="jobs-filters__title">Filter jobs</h2>
      <div className="field">
        <label htmlFor="jobs-q">Keywords</label>
        <input id="jobs-q" name="q" type="search" maxLength={200} placeholder="e.g. asset manager" defaultValue={filters.q ?? ''} key={`q:${filters.q ?? ''}`} />
      </div>
      <div className="field">
        <label htmlFor="jobs-location">Town or region</label>
        <input id="jobs-location" name="location" type="text" maxLength={100} placeholder="e.g. Manchester" defaultValue={filters.location ?? ''} key={`l:${filters.location ?? ''}`} />
      </div>
      {facets && (
        <>
          <Facet legend="Sector" name="sector" values={facets.sector} filters={filters} onChange={onChange} />
          <Facet legend="Region" name="region" values={facets.region} filters={filters} onChange={onChange} />
          <Facet legend="Job type" name="type" values={facets.employment_type} filters={filters} onChange={onChange} />
          <Facet legend="Work arrangement" name="arrangement" values={facets.work_arrangement} filters={filters} onChange={onChange} />
          <div className="field">
            <label htmlFor="jobs-salary">Minimum salary</label>
            <select id="jobs-salary" name="salary" value={filters.salary ?? ''} onChange={(e) => pick('salary', e.target.value)}>
              <option value="">Any salary</option>
              {facets.salary_min.map((s) => (
                <option key={s.value} value={s.value}>
                  {money(s.value)}+ ({s.count})
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="jobs-posted">Date posted</label>
            <select id="jobs-posted" name="posted" value={filters.posted ?? ''} onChange={(e) => pick('posted', e.target.value)}>
              <option value="">Any time</option>
              {facets.posted_within.map((d) => (
                <option key={d.value} value={d.value}>
                  {postedLabel(d.value)} ({d.count})
                </option>
              ))}
            </select>
          </div>
        </>
      )}
      {filters.sort && <input type="hidden" name="sort" value={filters.sort} />}
      <button type="submit" className="btn btn--accent btn--block">
        Show jobs
      </button>
    </form>
  );
}
