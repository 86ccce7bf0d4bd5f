// The job search's one call: public.search_jobs (anon, postgrest-js alone), its jsonb answer checked once here.
import { unwrap } from '@/lib/api';
import { Constants } from '@/lib/database.types';
import { array, nullable, num, object, oneOf, str, type Decoder } from '@/lib/decode';
import { getPublicData } from '@/lib/public-data';
import { searchArgs, type FacetValue, type Filters, type SearchResult } from '@/lib/job-search/model';

const Enums = Constants.public.Enums;
const region = oneOf(Enums.uk_region);
const employmentType = oneOf(Enums.employment_type);
const workArrangement = oneOf(Enums.work_arrangement);

const facets = <T extends string | number>(value: Decoder<T>): Decoder<FacetValue<T>[]> => array(object({ value, count: num }));

const jobSummary = object({
  id: str,
  job_id: nullable(str),
  title: str,
  company: nullable(str),
  location: nullable(str),
  region: nullable(region),
  salary: nullable(str),
  type: nullable(str),
  sector: nullable(str),
  employment_type: nullable(employmentType),
  work_arrangement: nullable(workArrangement),
  posted_date: str,
  closing_date: nullable(str),
  excerpt: nullable(str),
});

export const searchResult: Decoder<SearchResult> = object({
  total: num,
  page: num,
  pages: num,
  page_size: num,
  jobs: array(jobSummary),
  facets: object({
    sector: facets(str),
    region: facets(region),
    employment_type: facets(employmentType),
    work_arrangement: facets(workArrangement),
    salary_min: facets(num),
    posted_within: facets(num),
  }),
});

export async function fetchSearch(f: Filters): Promise<SearchResult> {
  const client = await getPublicData();
  return searchResult(unwrap(await client.rpc('search_jobs', searchArgs(f))));
}
