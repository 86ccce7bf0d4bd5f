// A job alert's search: the /jobs filters it holds (without page, sort or date posted) and the words it is shown in
// (as the database's public.job_alert_label).
import { describe, expect, it } from 'vitest';
import { emptyFilters, type Filters } from '@/lib/job-search/model';
import { alertLabel, filtersOfSearch, searchOfFilters, type AlertSearch } from './model';

const none: AlertSearch = { q: null, location: null, sectors: null, regions: null, employment_types: null, work_arrangements: null, salary_min: null };

describe('searchOfFilters and filtersOfSearch', () => {
  it('keeps the search and drops page, sort and date posted', () => {
    const f: Filters = { ...emptyFilters(), q: 'asset manager', location: 'Leeds', sector: ['Consultancy'], type: ['permanent'], salary: 50000, posted: 7, sort: 'relevance', page: 3 };
    const search = searchOfFilters(f);
    expect(search).toEqual({ ...none, q: 'asset manager', location: 'Leeds', sectors: ['Consultancy'], employment_types: ['permanent'], salary_min: 50000 });
    expect(filtersOfSearch(search)).toEqual({ ...f, posted: undefined, sort: undefined, page: undefined });
  });

  it('stores no filter as null, not as an empty list', () => {
    expect(searchOfFilters(emptyFilters())).toEqual(none);
    expect(filtersOfSearch(none)).toMatchObject(emptyFilters());
  });

  it('keeps a salary of zero', () => {
    expect(searchOfFilters({ ...emptyFilters(), salary: 0 }).salary_min).toBe(0);
  });
});

describe('alertLabel', () => {
  it('is "All new roles" for an alert without filters', () => {
    expect(alertLabel(none)).toBe('All new roles');
    expect(alertLabel({ ...none, q: '  ', location: ' ', sectors: [] })).toBe('All new roles');
  });

  it('joins the filters in a fixed order with the words the site uses', () => {
    const label = alertLabel({
      q: ' asset manager ',
      location: 'London',
      sectors: ['Consultancy', 'Retail & Consumer'],
      regions: ['North West'],
      employment_types: ['permanent', 'fixed-term'],
      work_arrangements: ['hybrid'],
      salary_min: 50000,
    });
    expect(label).toBe('“asset manager” · London · Consultancy, Retail & Consumer · North West · Permanent, Fixed-term contract · Hybrid · £50,000+');
  });

  it('shows a salary of zero', () => {
    expect(alertLabel({ ...none, salary_min: 0 })).toBe('£0+');
  });
});
