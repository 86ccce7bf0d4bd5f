// The job search's URL state: a /jobs address read into filters and written back in the database's canonical order
// (private.jobs_href), the chips, headings, counts and pager the page shows.
import { describe, expect, it } from 'vitest';
import {
  chips,
  countText,
  emptyFilters,
  filtersHref,
  filtersQuery,
  hasFilters,
  heading,
  isIndexable,
  money,
  parseFilters,
  pagerPages,
  postedDate,
  searchArgs,
  without,
  type Filters,
} from './model';

const parse = (query: string) => parseFilters(new URLSearchParams(query));
const filters = (over: Partial<Filters>): Filters => ({ ...emptyFilters(), ...over });

describe('parseFilters', () => {
  it('reads every filter of an address', () => {
    expect(parse('q=asset+manager&location=Leeds&sector=Consultancy&region=London&type=permanent&arrangement=hybrid&salary=50000&posted=7&sort=relevance&page=3')).toEqual({
      q: 'asset manager',
      location: 'Leeds',
      sector: ['Consultancy'],
      region: ['London'],
      type: ['permanent'],
      arrangement: ['hybrid'],
      salary: 50000,
      posted: 7,
      sort: 'relevance',
      page: 3,
    });
  });

  it('reads nothing from an empty address or unknown parameters', () => {
    expect(parse('')).toEqual({ ...emptyFilters(), q: undefined, location: undefined, salary: undefined, posted: undefined, sort: undefined, page: undefined });
    expect(hasFilters(parse('utm_source=mail&foo=bar'))).toBe(false);
  });

  it('takes the last of a repeated single value, ignoring blanks', () => {
    expect(parse('q=first&q=second&q=%20').q).toBe('second');
  });

  it('sorts sectors and drops repeated and blank list values', () => {
    expect(parse('sector=Retail&sector=Consultancy&sector=Retail&sector=').sector).toEqual(['Consultancy', 'Retail']);
  });

  it('ignores numbers that are not whole, negative or too long, a first page and an unknown sort', () => {
    expect(parse('salary=-5&posted=1.5&page=1&sort=oldest')).toMatchObject({ salary: undefined, posted: undefined, page: undefined, sort: undefined });
    expect(parse('salary=123456789').salary).toBeUndefined();
    expect(parse('page=0').page).toBeUndefined();
  });
});

describe('filtersQuery and filtersHref', () => {
  it('writes the canonical order, whatever the order read', () => {
    const f = parse('page=2&salary=40000&arrangement=remote&q=surveyor&region=Wales&location=Cardiff');
    expect(filtersQuery(f)).toBe('q=surveyor&location=Cardiff&region=Wales&arrangement=remote&salary=40000&page=2');
  });

  it('round-trips through the address', () => {
    const f = filters({ q: 'R&D / "lab"', location: 'St Albans', sector: ['Not for Profit'], type: ['fixed-term'], salary: 0, posted: 1, sort: 'relevance' });
    expect(parse(filtersQuery(f))).toMatchObject(f);
  });

  it('is /jobs for no filter', () => {
    expect(filtersHref(emptyFilters())).toBe('/jobs');
    expect(filtersHref(filters({ page: 1 }))).toBe('/jobs');
  });
});

describe('without and chips', () => {
  const f = filters({ q: 'pm', sector: ['Consultancy', 'Retail'], salary: 60000, page: 4 });

  it('removes one list value or a whole filter, back on page 1', () => {
    expect(without(f, 'sector', 'Retail')).toMatchObject({ sector: ['Consultancy'], page: undefined, q: 'pm' });
    expect(without(f, 'sector').sector).toEqual([]);
    expect(without(f, 'q')).not.toHaveProperty('q');
    expect(f.sector).toEqual(['Consultancy', 'Retail']);
  });

  it('offers a chip per active filter, each linking to the search without it', () => {
    expect(chips(f)).toEqual([
      { label: '“pm”', href: '/jobs?sector=Consultancy&sector=Retail&salary=60000' },
      { label: 'Consultancy', href: '/jobs?q=pm&sector=Retail&salary=60000' },
      { label: 'Retail', href: '/jobs?q=pm&sector=Consultancy&salary=60000' },
      { label: '£60,000+', href: '/jobs?q=pm&sector=Consultancy&sector=Retail' },
    ]);
  });
});

describe('heading and isIndexable', () => {
  it('names a view of exactly one value of one list', () => {
    expect(heading(emptyFilters())).toBe('Current Vacancies');
    expect(heading(filters({ sector: ['Consultancy'] }))).toBe('Consultancy jobs');
    expect(heading(filters({ region: ['Scotland'] }))).toBe('Jobs in Scotland');
    expect(heading(filters({ type: ['fixed-term'] }))).toBe('Fixed-term contract jobs');
    expect(heading(filters({ arrangement: ['remote'] }))).toBe('Remote jobs');
  });

  it('indexes /jobs and those views only, not a page of them or a search', () => {
    expect(isIndexable(emptyFilters())).toBe(true);
    expect(isIndexable(filters({ region: ['Wales'] }))).toBe(true);
    expect(isIndexable(filters({ region: ['Wales'], q: 'pm' }))).toBe(false);
    expect(isIndexable(filters({ region: ['Wales', 'Scotland'] }))).toBe(false);
    expect(isIndexable(filters({ sector: ['Retail'], type: ['permanent'] }))).toBe(false);
  });
});

describe('words and numbers the page shows', () => {
  it('counts results and the range shown', () => {
    expect(countText(0, 1, 20)).toBe('No jobs found');
    expect(countText(1, 1, 20)).toBe('1 job found');
    expect(countText(20, 1, 20)).toBe('20 jobs found');
    expect(countText(57, 2, 20)).toBe('57 jobs found, showing 21–40');
    expect(countText(57, 3, 20)).toBe('57 jobs found, showing 41–57');
  });

  it('shows the first, the last and two pages either side, with gaps', () => {
    expect(pagerPages(1, 1)).toEqual([1]);
    expect(pagerPages(1, 5)).toEqual([1, 2, 3, null, 5]);
    expect(pagerPages(6, 12)).toEqual([1, null, 4, 5, 6, 7, 8, null, 12]);
    expect(pagerPages(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('writes pounds and dates the UK way', () => {
    expect(money(1250000)).toBe('£1,250,000');
    expect(postedDate('2026-03-05T23:30:00Z')).toBe('5 March 2026');
  });

  it('passes the filters to public.search_jobs with defaults and no empty lists', () => {
    expect(searchArgs(emptyFilters())).toEqual({
      q: undefined, location: undefined, sector: undefined, region: undefined, employment_type: undefined, work_arrangement: undefined,
      salary_min: undefined, posted_within: undefined, page: 1, sort: 'newest',
    });
    expect(searchArgs(filters({ type: ['contract'], page: 2, sort: 'relevance' }))).toMatchObject({ employment_type: ['contract'], page: 2, sort: 'relevance' });
  });
});
