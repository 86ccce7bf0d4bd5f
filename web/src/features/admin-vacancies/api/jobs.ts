// The job editor's calls: one page of the list (rpc admin_job_page, searched and filtered on the server), one job,
// and the writes admins make through the data API (RLS: admins only; publishing checked by the database).
import { getSupabase, unwrap } from '@/lib/api';
import { array, keyed, num, nullable, object, oneOf, str, type Decoder } from '@/lib/decode';
import { EDITOR_COLUMNS, JOB_STATUSES, editorJob, type EditorJob, type JobRowInput, type JobStatus } from '../job-model';

export const PAGE_SIZE = 25;

export type ListIssue = 'incomplete' | 'cannot_publish' | 'closing_soon';
export type ListSort = 'updated' | 'posted' | 'closing' | 'title';
export type ListFilters = { search: string; status: JobStatus | ''; issue: ListIssue | ''; sector: string; sort: ListSort; offset: number };

export type ListedJob = {
  id: string;
  job_id: string | null;
  title: string;
  company: string;
  location: string | null;
  status: JobStatus;
  type: string | null;
  employment_type: string | null;
  sector: string | null;
  salary: string | null;
  posted_date: string;
  closing_date: string | null;
  updated_at: string;
  external_id: string | null;
  missing: string[];
  publish_problems: string[];
};

const listedJob: Decoder<ListedJob> = object({
  id: str,
  job_id: nullable(str),
  title: str,
  company: str,
  location: nullable(str),
  status: oneOf(JOB_STATUSES),
  type: nullable(str),
  employment_type: nullable(str),
  sector: nullable(str),
  salary: nullable(str),
  posted_date: str,
  closing_date: nullable(str),
  updated_at: str,
  external_id: nullable(str),
  missing: array(str),
  publish_problems: array(str),
});

export type JobPage = {
  total: number;
  by_status: Record<JobStatus, number>;
  issues: Record<ListIssue, number>;
  matching: number;
  page_size: number;
  page_offset: number;
  sectors: string[];
  jobs: ListedJob[];
};

const LIST_ISSUES: readonly ListIssue[] = ['incomplete', 'cannot_publish', 'closing_soon'];

const jobPage: Decoder<JobPage> = object({
  total: num,
  by_status: keyed(JOB_STATUSES, num),
  issues: keyed(LIST_ISSUES, num),
  matching: num,
  page_size: num,
  page_offset: num,
  sectors: array(str),
  jobs: array(listedJob),
});

/** A failed write with the database's code and DETAIL (the publishing rule's field names). */
export class JobWriteError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
    readonly details: string | null,
  ) {
    super(message);
  }
}

type PgError = { message: string; code?: string; details?: string | null };
type PgResult = { data: unknown; error: PgError | null };

function written<R extends PgResult>(result: R): NonNullable<Extract<R, { error: null }>['data']> {
  if (result.error) throw new JobWriteError(result.error.message, result.error.code ?? null, result.error.details ?? null);
  return result.data as NonNullable<Extract<R, { error: null }>['data']>;
}

export async function getJobPage(f: ListFilters): Promise<JobPage> {
  const client = await getSupabase();
  const answer = unwrap(
    await client.rpc('admin_job_page', {
      search: f.search.trim() || undefined,
      job_status: f.status || undefined,
      issue: f.issue || undefined,
      sector: f.sector || undefined,
      sort: f.sort,
      page_size: PAGE_SIZE,
      page_offset: f.offset,
    }),
  );
  return jobPage(answer);
}

export async function getJob(id: string): Promise<EditorJob | null> {
  const client = await getSupabase();
  const row = unwrap(await client.from('jobs').select(EDITOR_COLUMNS).eq('id', id).maybeSingle());
  return row && editorJob(row);
}

export async function createJob(row: JobRowInput & { status: JobStatus }): Promise<EditorJob> {
  const client = await getSupabase();
  return editorJob(written(await client.from('jobs').insert(row).select(EDITOR_COLUMNS).single()));
}

export async function updateJob(id: string, row: Partial<JobRowInput> & { status?: JobStatus }): Promise<EditorJob> {
  const client = await getSupabase();
  return editorJob(written(await client.from('jobs').update(row).eq('id', id).select(EDITOR_COLUMNS).single()));
}

export function setJobStatus(id: string, status: JobStatus): Promise<EditorJob> {
  return updateJob(id, { status });
}

/** A new draft with the job's content: no reference, no CRM id, no dates. */
export async function duplicateJob(id: string): Promise<EditorJob> {
  const job = await getJob(id);
  if (!job) throw new JobWriteError('The job to duplicate was not found', null, null);
  const client = await getSupabase();
  const copy = {
    status: 'draft' as const,
    title: job.title,
    company: job.company,
    client_type: job.client_type,
    location: job.location,
    region: job.region,
    sector: job.sector,
    type: job.type,
    employment_type: job.employment_type,
    work_arrangement: job.work_arrangement,
    salary: job.salary,
    salary_min: job.salary_min,
    salary_max: job.salary_max,
    salary_period: job.salary_period,
    description: job.description,
    description_html: job.description_html,
    requirements: job.requirements,
    requirements_html: job.requirements_html,
    benefits: job.benefits,
    consultant_name: job.consultant_name,
    consultant_email: job.consultant_email,
    hero_image: job.hero_image,
  };
  return editorJob(written(await client.from('jobs').insert(copy).select(EDITOR_COLUMNS).single()));
}
